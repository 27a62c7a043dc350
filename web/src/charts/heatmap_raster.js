// A heatmap's blocks as an image, each device pixel the colour of the block it falls in (the x and y
// scales map block c to c - 0.5 .. c + 0.5).
import { heatLevel, heatLut } from './colors.js';

class BlockRaster {
  constructor() {
    this.buffers = null;
  }

  // The image of blocks (weights up to maxWeight) at width x height device pixels. Its buffers are kept for the next blocks of
  // the same sizes (a drag's previews), so that a preview allocates no megabytes for the collector.
  image(blocks, maxWeight, width, height) {
    const { blockRows, blockCols, weight } = blocks;
    const kept = this.buffers;
    if (!kept || kept.image.width !== width || kept.image.height !== height || kept.colours.length !== weight.length) {
      const image = new ImageData(width, height);
      this.buffers = { image, pixels: new Uint32Array(image.data.buffer), colours: new Uint32Array(weight.length) };
    }
    const { image, pixels, colours } = this.buffers;
    // Each block's colour once, then each pixel a lookup.
    for (let i = 0; i < weight.length; i++) colours[i] = heatLut[heatLevel(weight[i], maxWeight)];
    // The block column of each pixel column, as the x scale maps it (block c spans c - 0.5 to c + 0.5).
    const columnOf = new Int32Array(width);
    for (let px = 0; px < width; px++) columnOf[px] = Math.min(blockCols - 1, Math.floor(((px + 0.5) * blockCols) / width));
    let previousRow = -1;
    for (let py = 0; py < height; py++) {
      const r = Math.min(blockRows - 1, Math.floor(((py + 0.5) * blockRows) / height));
      const start = py * width;
      if (r === previousRow) {
        pixels.copyWithin(start, start - width, start); // the same block row as the pixel row above
        continue;
      }
      previousRow = r;
      const base = r * blockCols;
      for (let px = 0; px < width; px++) pixels[start + px] = colours[base + columnOf[px]];
    }
    return image;
  }
}

export { BlockRaster };
