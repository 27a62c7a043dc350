// Figure 2: attention weights as a heatmap, rows = sorted test inputs (queries), columns = sorted
// training inputs (keys). The weights are painted as one image into the chart area, at the canvas's
// device pixels, through a 256-entry colour table; Chart.js draws the axes and the tooltip. A matrix
// larger than the chart area's pixels arrives from the module as blocks of cells, each coloured by its
// largest weight; the tooltip names that cell, so it always reports an exact weight.
import { createChart } from './chart.js';
import { ink as themeInk } from './colors.js';
import { drawLegend } from './heatmap_legend.js';
import { blockRowOf, outlineRow } from './heatmap_query_mark.js';
import { BlockRaster } from './heatmap_raster.js';
import { t as pageT } from '../i18n/i18n.js';

// Cells per side before the chart has been laid out (afterwards: the chart area's device pixels).
const UNLAID_CELLS = 512;

// About six ticks on whole cells, starting at the first.
function tickIndices(count) {
  const step = Math.max(1, Math.ceil(count / 6));
  const ticks = [];
  for (let i = 0; i < count; i += step) ticks.push({ value: i });
  return ticks;
}

// Paints each heatmap's image before Chart.js draws the datasets (the hovered cell) and the tooltip,
// and shows the tooltip of the cell under the pointer (every pointer event, leaving the chart too).
const rasterPlugin = {
  id: 'rasterHeatmap',
  beforeDatasetsDraw(chart) {
    if (chart.$heatmap) chart.$heatmap.paint();
  },
  afterDatasetsDraw(chart) {
    if (chart.$heatmap) chart.$heatmap.drawQueryMark();
  },
  afterEvent(chart, args) {
    if (chart.$heatmap) chart.$heatmap.showCell(args.event);
  },
};

// The chart area in device pixels, whole: { left, top, width, height }.
function deviceArea(chart) {
  const { chartArea: area, currentDevicePixelRatio: ratio } = chart;
  if (!area) return null;
  const left = Math.round(area.left * ratio);
  const top = Math.round(area.top * ratio);
  return { left, top, width: Math.round(area.right * ratio) - left, height: Math.round(area.bottom * ratio) - top };
}

class HeatmapChart {
  // legendCanvas: a small canvas for the colour scale; note: an element for the downsampling note.
  // compact: fewer axis titles, for the small panels. onQuery(x): a row (a query) was hovered with the
  // mouse or tapped. queryMark(): { x, shown } of the query whose row is outlined (shown: the
  // predictions chart shows this heatmap's attention: a solid outline, else dashed), or null; read at
  // each draw. t: the texts' language.
  // ink: the theme's text and background colours (colors.js's now, by default).
  constructor(canvas, { legendCanvas, note, compact = false, onQuery = null, queryMark = () => null, ink = themeInk, t = pageT }) {
    this.onQuery = onQuery;
    this.queryMark = queryMark;
    this.t = t;
    this.legendCanvas = legendCanvas;
    this.note = note;
    this.clearBlocks();
    this.image = null; // the painted ImageData and what it was painted from (see paint)
    this.raster = new BlockRaster(); // keeps its image buffers for the next blocks of the same sizes
    this.legendState = { bar: null }; // the canvas size the colour bar was drawn at (see drawLegend)
    this.chart = createChart(canvas, {
      type: 'scatter',
      // One invisible point: the hovered cell, which the tooltip describes.
      data: { datasets: [{ label: t('heatmap.weight'), data: [], pointRadius: 0, pointHoverRadius: 0, pointHitRadius: 0 }] },
      plugins: [rasterPlugin],
      options: {
        animation: false,
        parsing: false,
        maintainAspectRatio: false,
        // A resized chart area may have fewer pixels than blocks, or room for finer ones: checked once the
        // resize is drawn.
        onResize: () => requestAnimationFrame(() => this.resized()),
        onHover: (event) => this.reportRow(event),
        onClick: (event) => this.reportRow(event),
        scales: {
          x: {
            type: 'linear', offset: false, min: -0.5, max: 0.5,
            title: { display: !compact, text: t('heatmap.keys') },
            afterBuildTicks: (axis) => { axis.ticks = tickIndices(this.blocks.blockCols); },
            ticks: { autoSkip: false, callback: (v) => this.label(this.colLabels, v, this.blocks.colStep) },
            grid: { display: false },
          },
          y: {
            type: 'linear', offset: false, reverse: true, min: -0.5, max: 0.5,
            title: { display: !compact, text: t('heatmap.queries') },
            afterBuildTicks: (axis) => { axis.ticks = tickIndices(this.blocks.blockRows); },
            ticks: { autoSkip: false, callback: (v) => this.label(this.rowLabels, v, this.blocks.rowStep) },
            grid: { display: false },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            events: [], // shown by showCell, for the cell under the pointer
            callbacks: {
              title: () => '',
              label: (ctx) => {
                const cell = ctx.raw;
                const lines = [
                  t('heatmap.tooltipQuery', { x: this.rowLabels[cell.row].toFixed(3) }),
                  t('heatmap.tooltipKey', { x: this.colLabels[cell.col].toFixed(3) }),
                  // (Blocks from binned sums, large data of your own: the weight's bound beside it.)
                  cell.bound === null ? t('heatmap.tooltipWeight', { v: cell.v.toPrecision(4) })
                    : t('heatmap.tooltipWeightBound', { v: cell.v.toPrecision(4), bound: cell.bound.toPrecision(2) }),
                ];
                if (this.fallbackRows[cell.row]) lines.push(t('heatmap.tooltipFallback'));
                return lines;
              },
            },
          },
        },
      },
    }, ink);
    // The browser tests and a lesson's code reach the heatmap from its chart (Chart.getChart(canvas)).
    this.chart.$heatmap = this;
  }

  // Cells per side the chart area can show, one per device pixel: larger matrices come as blocks.
  capacity() {
    const area = deviceArea(this.chart);
    return area && area.width > 0 && area.height > 0 ? { rows: area.height, cols: area.width } : { rows: UNLAID_CELLS, cols: UNLAID_CELLS };
  }

  get cellCount() { return this.blocks.weight ? this.blocks.weight.length : 0; }

  // The cell at block row r and block column c: { v, row, col } (its weight and the matrix cell it is).
  cellAt(r, c) {
    const i = r * this.blocks.blockCols + c;
    // (0: every query of the block computed exactly.)
    const bound = this.blocks.weightBounds && this.blocks.weightBounds[i] > 0 ? this.blocks.weightBounds[i] : null;
    return { v: this.blocks.weight[i], row: this.blocks.row[i], col: this.blocks.col[i], bound };
  }

  // The block (r, c) under a pointer event in the chart area, or null.
  cellUnder(event) {
    const { chartArea, scales } = this.chart;
    if (this.cellCount === 0 || !chartArea || event.type === 'mouseout') return null;
    if (event.x < chartArea.left || event.x > chartArea.right || event.y < chartArea.top || event.y > chartArea.bottom) return null;
    const clamp = (value, count) => Math.min(count - 1, Math.max(0, Math.round(value)));
    return { r: clamp(scales.y.getValueForPixel(event.y), this.blocks.blockRows), c: clamp(scales.x.getValueForPixel(event.x), this.blocks.blockCols) };
  }

  // The query of the row under the pointer. Only a mouse's moves and clicks (a tap is a click) count: a
  // finger's move is the page scrolling, and it must not move the query.
  reportRow(event) {
    if (!this.onQuery || !['mousemove', 'click'].includes(event.type)) return;
    const under = this.cellUnder(event);
    if (under) this.onQuery(this.rowLabels[Math.min(this.rowLabels.length - 1, under.r * this.blocks.rowStep)]);
  }

  // The tooltip for the cell under the pointer (hidden when there is none).
  showCell(event) {
    const under = this.cellUnder(event);
    const dataset = this.chart.data.datasets[0];
    const shown = dataset.data[0];
    if (!under) {
      if (!shown) return;
      dataset.data = [];
      this.chart.tooltip.setActiveElements([], { x: 0, y: 0 });
      this.chart.update('none');
      return;
    }
    if (!shown || shown.x !== under.c || shown.y !== under.r) {
      dataset.data = [{ x: under.c, y: under.r, ...this.cellAt(under.r, under.c) }];
      this.chart.update('none');
    }
    this.chart.tooltip.setActiveElements([{ datasetIndex: 0, index: 0 }], { x: event.x, y: event.y });
    this.chart.draw();
  }

  // Outlines the row of the query queryMark() names (see heatmap_query_mark.js).
  drawQueryMark() {
    const mark = this.queryMark();
    this.markedRow = mark && this.cellCount > 0 ? blockRowOf(this.rowLabels, this.blocks.rowStep, mark.x) : -1;
    if (this.markedRow >= 0) outlineRow(this.chart, this.markedRow, mark.shown);
  }

  label(labels, blockIndex, step) {
    const i = blockIndex * step;
    return Number.isInteger(blockIndex) && i < labels.length ? labels[i].toFixed(2) : '';
  }

  // compute(maxCells): the blocks from nw.attentionBlocks for at most maxCells.rows x maxCells.cols, called
  // with the chart area's device pixels (see capacity), and again by draw() whenever the laid-out area
  // turns out smaller than the blocks; rowLabels/colLabels: the query and key inputs. Returns the blocks.
  show(compute, rowLabels, colLabels) {
    this.apply(compute(this.capacity()), rowLabels, colLabels);
    this.compute = compute;
    this.refitElsewhere = null;
    return this.blocks;
  }

  // Blocks computed elsewhere (a worker), for the chart area's capacity when asked; compute, if given, as
  // in show, for a laid-out area smaller than the blocks. refitElsewhere(), if given, is asked first when
  // a resize needs other blocks: true if it has them computed elsewhere again (then set here by setBlocks).
  setBlocks(blocks, rowLabels, colLabels, compute = null, refitElsewhere = null) {
    this.apply(blocks, rowLabels, colLabels);
    this.compute = compute;
    this.refitElsewhere = refitElsewhere;
  }

  // The chart was resized: blocks for its new area, by whoever computed the last ones.
  resized() {
    if (!this.needsRefit({ finer: true })) return;
    if (this.refitElsewhere && this.refitElsewhere()) return;
    this.refit({ finer: true });
  }

  apply(blocks, rowLabels, colLabels) {
    this.rowLabels = rowLabels;
    this.colLabels = colLabels;
    this.fallbackRows = blocks.fallbackRows;
    this.blocks = blocks;
    let max = 0;
    for (const v of blocks.weight) if (v > max) max = v;
    this.maxWeight = max || 1;
    this.chart.data.datasets[0].data = [];
    this.chart.tooltip.setActiveElements([], { x: 0, y: 0 });
    const { x, y } = this.chart.options.scales;
    x.max = blocks.blockCols - 0.5;
    y.max = blocks.blockRows - 0.5;
    const { rowStep, colStep } = blocks;
    this.note.textContent = rowStep > 1 || colStep > 1
      ? this.t('heatmap.blocksNote', { rows: blocks.rows, cols: blocks.cols, blockRows: blocks.blockRows, blockCols: blocks.blockCols, rowStep, colStep })
      : '';
    drawLegend(this.legendCanvas, this.maxWeight, this.legendState, this.t, this.chart.$ink.text);
  }

  clearBlocks() {
    this.compute = null;
    this.refitElsewhere = null;
    this.blocks = { blockRows: 1, blockCols: 1, rowStep: 1, colStep: 1, weight: null };
    this.rowLabels = [];
    this.colLabels = [];
    this.fallbackRows = new Uint8Array(0);
    this.maxWeight = 1;
  }

  // No weights to show (the parametric heatmap of a kernel that cannot be trained).
  clear() {
    this.clearBlocks();
    this.chart.data.datasets[0].data = [];
    Object.assign(this.chart.options.scales.x, { max: 0.5 });
    Object.assign(this.chart.options.scales.y, { max: 0.5 });
    this.note.textContent = '';
    const legend = this.legendCanvas;
    legend.getContext('2d').clearRect(0, 0, legend.width, legend.height);
    this.legendState.bar = null;
    legend.setAttribute('aria-label', this.t('heatmap.noWeights'));
  }

  // Paints the blocks into the chart area, each device pixel the colour of the block it falls in. The
  // image is kept and only put again (a tooltip's redraw) until the blocks or the area's size change.
  paint() {
    const area = deviceArea(this.chart);
    if (this.cellCount === 0 || !area || area.width <= 0 || area.height <= 0) return;
    const image = this.image;
    if (!image || image.blocks !== this.blocks || image.data.width !== area.width || image.data.height !== area.height) {
      this.image = { blocks: this.blocks, data: this.raster.image(this.blocks, this.maxWeight, area.width, area.height) };
    }
    this.chart.ctx.putImageData(this.image.data, area.left, area.top);
  }

  // Draws the blocks. refitHere false: blocks that the laid-out area cannot show one per pixel are left
  // to the caller, told by the result (true: ask for them again at capacity()); else computed here.
  draw({ refitHere = true } = {}) {
    this.chart.update('none');
    if (!refitHere) return this.needsRefit();
    this.refit();
    return false;
  }

  // At most one block per device pixel: when the laid-out chart area (its axis labels change with the
  // data, a window resizes) has fewer pixels than there are blocks, they must be computed again for it.
  // finer: also when the area has grown enough for finer blocks. Only a resize asks for that: after a
  // draw, finer blocks could change the axis labels, and with them the area, back and forth.
  needsRefit({ finer = false } = {}) {
    if ((!this.compute && !this.refitElsewhere) || this.cellCount === 0) return false;
    const { rows, cols } = this.capacity();
    const { blockRows, blockCols, rowStep, colStep } = this.blocks;
    if (blockRows > rows || blockCols > cols) return true;
    return finer && (Math.ceil(this.blocks.rows / rows) < rowStep || Math.ceil(this.blocks.cols / cols) < colStep);
  }

  refit({ finer = false } = {}) {
    if (!this.compute || !this.needsRefit({ finer })) return;
    this.apply(this.compute(this.capacity()), this.rowLabels, this.colLabels);
    this.chart.update('none');
  }
}

export { HeatmapChart };
