// A heatmap's colour scale on its own canvas: a gradient from 0 to the largest weight shown, with
// ticks at each quarter, labelled where the labels fit.
import { heat } from './colors.js';
import { fittingTickLabels } from './tick_labels.js';

// The colour scale: a gradient from 0 to the largest weight shown, with ticks at each quarter, labelled
// where the labels fit (fittingTickLabels).
// The bar is drawn once per canvas size (a fill per pixel column); each new largest weight redraws the
// ticks below it only.
// textColour: the heatmap's theme's text colour (its chart's $ink.text).
function drawLegend(canvas, maxWeight, state, t, textColour) {
  const ctx = canvas.getContext('2d');
  const { width, height } = canvas;
  const barHeight = height - 16;
  const barSize = `${width}x${height}`;
  if (state.bar !== barSize) {
    ctx.clearRect(0, 0, width, height);
    for (let px = 0; px < width; px++) {
      ctx.fillStyle = heat(px / (width - 1));
      ctx.fillRect(px, 0, 1, barHeight);
    }
    state.bar = barSize;
  }
  ctx.clearRect(0, barHeight, width, height - barHeight);
  ctx.fillStyle = textColour;
  ctx.font = '11px sans-serif';
  ctx.textBaseline = 'bottom';
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const labels = ticks.map((tick, i) => {
    const x = Math.round(tick * (width - 1));
    ctx.fillRect(x === width - 1 ? x - 1 : x, barHeight, 1, 3);
    const align = i === 0 ? 'left' : i === ticks.length - 1 ? 'right' : 'center';
    return { text: tick === 0 ? '0' : (tick * maxWeight).toPrecision(2), x, align };
  });
  for (const { text, x, align } of fittingTickLabels(labels, (text) => ctx.measureText(text).width)) {
    ctx.textAlign = align;
    ctx.fillText(text, x, height);
  }
  canvas.setAttribute('aria-label', t('heatmap.scaleLabel', { max: maxWeight.toPrecision(3) }));
}

export { drawLegend };
