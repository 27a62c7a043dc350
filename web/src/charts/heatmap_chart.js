// Figure 2: attention weights as a heatmap, rows = sorted test inputs (queries), columns = sorted
// training inputs (keys). A large matrix arrives from the module as blocks of cells, each coloured by
// its largest weight; the tooltip names that cell, so it always reports an exact weight.
import { Chart } from './chart.js';
import { heat, ink } from './colors.js';

// Cells per side, at most, of each heatmap: chartjs-chart-matrix costs about 7 microseconds a cell, and
// the heatmaps are about 320 (main) and 250 (kernel panels) pixels wide, so more cells than a third of
// that cost time without showing more. Larger matrices are drawn as blocks.
const HEATMAP_CELLS = 100;

// The module's blocks ({ blockRows, blockCols, weight, row, col, ... }) as chart cells.
function cellsOf(blocks) {
  return Array.from(blocks.weight, (v, i) => ({
    x: i % blocks.blockCols, y: Math.floor(i / blocks.blockCols), v, row: blocks.row[i], col: blocks.col[i],
  }));
}

// About six ticks on whole cells, starting at the first.
function tickIndices(count) {
  const step = Math.max(1, Math.ceil(count / 6));
  const ticks = [];
  for (let i = 0; i < count; i += step) ticks.push({ value: i });
  return ticks;
}

class HeatmapChart {
  // legendCanvas: a small canvas for the colour scale; note: an element for the downsampling note.
  // compact: fewer axis titles, for the small panels. onQuery(x): a row (a query) was hovered with the
  // mouse or tapped.
  constructor(canvas, { legendCanvas, note, compact = false, onQuery = null }) {
    this.onQuery = onQuery;
    this.legendCanvas = legendCanvas;
    this.note = note;
    this.fallbackRows = new Uint8Array(0);
    this.blocks = { blockRows: 1, blockCols: 1, rowStep: 1, colStep: 1 };
    this.maxWeight = 1;
    this.rowLabels = [];
    this.colLabels = [];
    this.chart = new Chart(canvas, {
      type: 'matrix',
      data: {
        datasets: [{
          label: 'Attention weight',
          data: [],
          borderWidth: 0,
          // Per-cell colours as an array and sizes as numbers (set in setBlocks): Chart.js then resolves
          // no function per cell, which is most of a large heatmap's drawing time.
          backgroundColor: [],
          width: 0,
          height: 0,
        }],
      },
      options: {
        animation: false,
        parsing: false,
        maintainAspectRatio: false,
        onResize: () => this.sizeCells(),
        onHover: (event) => this.reportRow(event),
        onClick: (event) => this.reportRow(event),
        scales: {
          x: {
            type: 'linear', offset: false, min: -0.5, max: 0.5,
            title: { display: !compact, text: 'Sorted training inputs (keys)' },
            afterBuildTicks: (axis) => { axis.ticks = tickIndices(this.blocks.blockCols); },
            ticks: { autoSkip: false, callback: (v) => this.label(this.colLabels, v, this.blocks.colStep) },
            grid: { display: false },
          },
          y: {
            type: 'linear', offset: false, reverse: true, min: -0.5, max: 0.5,
            title: { display: !compact, text: 'Sorted test inputs (queries)' },
            afterBuildTicks: (axis) => { axis.ticks = tickIndices(this.blocks.blockRows); },
            ticks: { autoSkip: false, callback: (v) => this.label(this.rowLabels, v, this.blocks.rowStep) },
            grid: { display: false },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: () => '',
              label: (ctx) => {
                const cell = ctx.raw;
                const lines = [
                  `query x = ${this.rowLabels[cell.row].toFixed(3)}`,
                  `key x = ${this.colLabels[cell.col].toFixed(3)}`,
                  `weight = ${cell.v.toPrecision(4)}`,
                ];
                if (this.fallbackRows[cell.row]) lines.push('no key within the kernel\'s support: the nearest key takes all');
                return lines;
              },
            },
          },
        },
      },
    });
  }

  // The query of the row under the pointer. Only a mouse's moves and clicks (a tap is a click) count: a
  // finger's move is the page scrolling, and it must not move the query.
  reportRow(event) {
    if (!this.onQuery || !['mousemove', 'click'].includes(event.type) || this.rowLabels.length === 0) return;
    const { chartArea, scales } = this.chart;
    if (!chartArea || event.x < chartArea.left || event.x > chartArea.right || event.y < chartArea.top || event.y > chartArea.bottom) return;
    const blockRow = Math.min(this.blocks.blockRows - 1, Math.max(0, Math.round(scales.y.getValueForPixel(event.y))));
    this.onQuery(this.rowLabels[Math.min(this.rowLabels.length - 1, blockRow * this.blocks.rowStep)]);
  }

  label(labels, blockIndex, step) {
    const i = blockIndex * step;
    return Number.isInteger(blockIndex) && i < labels.length ? labels[i].toFixed(2) : '';
  }

  // matrix: { rows, cols, data } from the module; rowLabels/colLabels: the query and key inputs.
  // blocks: from nw.attentionBlocks; rowLabels/colLabels: the query and key inputs.
  setBlocks(blocks, rowLabels, colLabels) {
    this.rowLabels = rowLabels;
    this.colLabels = colLabels;
    this.fallbackRows = blocks.fallbackRows;
    this.blocks = blocks;
    const cells = cellsOf(blocks);
    this.maxWeight = cells.reduce((m, c) => Math.max(m, c.v), 0) || 1;
    const dataset = this.chart.data.datasets[0];
    dataset.data = cells;
    dataset.backgroundColor = cells.map((cell) => heat(cell.v / this.maxWeight));
    this.sizeCells();
    const { x, y } = this.chart.options.scales;
    x.max = blocks.blockCols - 0.5;
    y.max = blocks.blockRows - 0.5;
    const { rowStep, colStep } = blocks;
    this.note.textContent = rowStep > 1 || colStep > 1
      ? `${blocks.rows} × ${blocks.cols} weights shown as ${blocks.blockRows} × ${blocks.blockCols} blocks of ${rowStep} × ${colStep}; each block shows its largest weight.`
      : '';
    this.drawLegend();
  }

  // No weights to show (the parametric heatmap of a kernel that cannot be trained).
  clear() {
    this.chart.data.datasets[0].data = [];
    this.chart.data.datasets[0].backgroundColor = [];
    this.blocks = { blockRows: 1, blockCols: 1, rowStep: 1, colStep: 1 };
    this.rowLabels = [];
    this.colLabels = [];
    this.fallbackRows = new Uint8Array(0);
    Object.assign(this.chart.options.scales.x, { max: 0.5 });
    Object.assign(this.chart.options.scales.y, { max: 0.5 });
    this.note.textContent = '';
    const legend = this.legendCanvas;
    legend.getContext('2d').clearRect(0, 0, legend.width, legend.height);
    legend.setAttribute('aria-label', 'No weights to show');
  }

  // The colour scale: a gradient from 0 to the largest weight shown, with ticks at each quarter.
  drawLegend() {
    const canvas = this.legendCanvas;
    const ctx = canvas.getContext('2d');
    const { width, height } = canvas;
    const barHeight = height - 16;
    ctx.clearRect(0, 0, width, height);
    for (let px = 0; px < width; px++) {
      ctx.fillStyle = heat(px / (width - 1));
      ctx.fillRect(px, 0, 1, barHeight);
    }
    ctx.fillStyle = ink.text;
    ctx.font = '11px sans-serif';
    ctx.textBaseline = 'bottom';
    const ticks = [0, 0.25, 0.5, 0.75, 1];
    ticks.forEach((t, i) => {
      const x = Math.round(t * (width - 1));
      ctx.fillRect(x === width - 1 ? x - 1 : x, barHeight, 1, 3);
      ctx.textAlign = i === 0 ? 'left' : i === ticks.length - 1 ? 'right' : 'center';
      ctx.fillText(t === 0 ? '0' : (t * this.maxWeight).toPrecision(2), x, height);
    });
    canvas.setAttribute('aria-label', `Colour scale from 0 (light) to ${this.maxWeight.toPrecision(3)} (dark red)`);
  }

  // Cell width and height from the chart area (known after the first layout; refreshed on resize).
  sizeCells() {
    if (!this.chart) return; // a resize during construction
    const dataset = this.chart.data.datasets[0];
    const area = this.chart.chartArea;
    dataset.width = area ? area.width / this.blocks.blockCols : 0;
    dataset.height = area ? area.height / this.blocks.blockRows : 0;
  }

  draw() {
    const before = this.chart.chartArea && this.chart.chartArea.width;
    this.chart.update('none');
    if (this.chart.chartArea && this.chart.chartArea.width !== before) {
      this.sizeCells();
      this.chart.update('none');
    }
  }
}

export { HEATMAP_CELLS, HeatmapChart };
