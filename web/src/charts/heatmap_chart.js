// Figure 2: attention weights as a heatmap, rows = sorted test inputs (queries), columns = sorted
// training inputs (keys). Above MAX_CELLS per side, blocks of cells are drawn as one, coloured by the
// block's largest weight; the tooltip names that cell, so it always reports an exact weight.
(function (NWPage) {
  'use strict';

  const MAX_CELLS = 200;
  const { heat } = NWPage.colors;

  // Picks, for each block, the cell with the largest weight: { x: block col, y: block row, v, row, col }.
  function blockMaxima(matrix, maxCells) {
    const rowStep = Math.ceil(matrix.rows / maxCells);
    const colStep = Math.ceil(matrix.cols / maxCells);
    const cells = [];
    for (let r0 = 0, br = 0; r0 < matrix.rows; r0 += rowStep, br++) {
      for (let c0 = 0, bc = 0; c0 < matrix.cols; c0 += colStep, bc++) {
        let best = { v: -1, row: r0, col: c0 };
        for (let r = r0; r < Math.min(matrix.rows, r0 + rowStep); r++) {
          for (let c = c0; c < Math.min(matrix.cols, c0 + colStep); c++) {
            const v = matrix.data[r * matrix.cols + c];
            if (v > best.v) best = { v, row: r, col: c };
          }
        }
        cells.push({ x: bc, y: br, v: best.v, row: best.row, col: best.col });
      }
    }
    return { cells, blockRows: Math.ceil(matrix.rows / rowStep), blockCols: Math.ceil(matrix.cols / colStep), rowStep, colStep };
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
    // compact: fewer axis titles, for the small panels.
    constructor(canvas, { legendCanvas, note, compact = false }) {
      this.legendCanvas = legendCanvas;
      this.note = note;
      this.fallbackRows = new Uint8Array(0);
      this.blocks = { cells: [], blockRows: 1, blockCols: 1, rowStep: 1, colStep: 1 };
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
            // Per-cell colours as an array and sizes as numbers (set in setWeights): Chart.js then resolves
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

    label(labels, blockIndex, step) {
      const i = blockIndex * step;
      return Number.isInteger(blockIndex) && i < labels.length ? labels[i].toFixed(2) : '';
    }

    // matrix: { rows, cols, data } from the module; rowLabels/colLabels: the query and key inputs.
    // maxCells: the most cells per side to draw (fewer while the reader drags w, for speed).
    setWeights(matrix, rowLabels, colLabels, maxCells = MAX_CELLS) {
      this.rowLabels = rowLabels;
      this.colLabels = colLabels;
      this.fallbackRows = matrix.fallbackRows || new Uint8Array(matrix.rows);
      this.blocks = blockMaxima(matrix, maxCells);
      this.maxWeight = this.blocks.cells.reduce((m, c) => Math.max(m, c.v), 0) || 1;
      const dataset = this.chart.data.datasets[0];
      dataset.data = this.blocks.cells;
      dataset.backgroundColor = this.blocks.cells.map((cell) => heat(cell.v / this.maxWeight));
      this.sizeCells();
      const { x, y } = this.chart.options.scales;
      x.max = this.blocks.blockCols - 0.5;
      y.max = this.blocks.blockRows - 0.5;
      const { rowStep, colStep } = this.blocks;
      this.note.textContent = rowStep > 1 || colStep > 1
        ? `${matrix.rows} × ${matrix.cols} weights shown as ${this.blocks.blockRows} × ${this.blocks.blockCols} blocks of ${rowStep} × ${colStep}; each block shows its largest weight.`
        : '';
      this.drawLegend();
    }

    // The colour scale: a gradient from 0 to the largest weight shown, with both ends labelled.
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
      ctx.fillStyle = '#333';
      ctx.font = '11px sans-serif';
      ctx.textBaseline = 'bottom';
      ctx.textAlign = 'left';
      ctx.fillText('0', 0, height);
      ctx.textAlign = 'right';
      ctx.fillText(this.maxWeight.toPrecision(3), width, height);
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

  NWPage.HeatmapChart = HeatmapChart;
})((window.NWPage = window.NWPage || {}));
