// One panel of the four-kernel view: the kernel's predictions over the data, and its attention heatmap.
import { createChart } from './chart.js';
import { estimator, ink } from './colors.js';
import { HeatmapChart } from './heatmap_chart.js';
import { t as pageT } from '../i18n/i18n.js';
import { lazy } from './lazy.js';
import { drawnPoints } from './predictions_chart.js';

// The four kernels the newer edition compares, with their titles' dictionary keys.
const FOUR_KERNELS = [['gaussian', 'kernels.gaussian'], ['boxcar', 'kernels.boxcar'], ['constant', 'kernels.constant'], ['epanechnikov', 'kernels.epanechnikov']];

const points = (xs, ys) => Array.from(xs, (x, i) => ({ x, y: ys[i] }));

class KernelPanel {
  // container: an element to build the panel in; title: the kernel's name as shown; t: the texts' language.
  constructor(container, { kernel, title, t = pageT }) {
    this.kernel = kernel;
    const panel = document.createElement('div');
    panel.className = 'kernel-panel';
    const heading = document.createElement('h3');
    heading.textContent = title;
    const predictionsBox = document.createElement('div');
    predictionsBox.className = 'chart';
    const predictionsCanvas = document.createElement('canvas');
    predictionsCanvas.id = `kernel-${kernel}-predictions`;
    predictionsCanvas.setAttribute('role', 'img');
    predictionsCanvas.setAttribute('aria-label', t('kernels.predictionsLabel', { kernel: title }));
    predictionsBox.append(predictionsCanvas);
    const heatmapBox = document.createElement('div');
    heatmapBox.className = 'chart square';
    const heatmapCanvas = document.createElement('canvas');
    heatmapCanvas.id = `kernel-${kernel}-heatmap`;
    heatmapCanvas.setAttribute('role', 'img');
    heatmapCanvas.setAttribute('aria-label', t('kernels.weightsLabel', { kernel: title }));
    heatmapBox.append(heatmapCanvas);
    const legend = document.createElement('canvas');
    legend.className = 'legend';
    legend.width = 160;
    legend.height = 28;
    const note = document.createElement('p');
    note.className = 'note';
    panel.append(heading, predictionsBox, heatmapBox, legend, note);
    container.append(panel);

    // The charts are created when first drawn (see lazy.js), in the colours of the theme now; the panel's
    // place in the page is there at once.
    const [colors, theme] = [{ ...estimator }, { ...ink }];
    lazy(this, 'predictions', () => createChart(predictionsCanvas, {
      type: 'scatter',
      data: {
        datasets: [
          { label: t('chart.trainingData'), data: [], backgroundColor: colors.unseen, pointRadius: 2 },
          { label: t('chart.truth'), data: [], type: 'line', borderColor: colors.truth, borderWidth: 1, pointRadius: 0 },
          { label: t('chart.prediction'), data: [], type: 'line', borderColor: colors.nonparametric, borderWidth: 2, pointRadius: 0 },
        ],
      },
      options: {
        animation: false, parsing: false, maintainAspectRatio: false,
        plugins: { legend: { display: false }, tooltip: { enabled: false } },
        scales: { x: { type: 'linear' }, y: { type: 'linear' } },
      },
    }, theme));
    lazy(this, 'heatmap', () => new HeatmapChart(heatmapCanvas, { legendCanvas: legend, note, compact: true, ink: theme, t }));
  }

  // compute(maxCells): the kernel's weights and predictions from nw.attentionBlocks (see HeatmapChart.show);
  // xRange: { xMin, xMax } to show.
  set(data, xRange, compute) {
    this.showPredictions(data, xRange, this.heatmap.show(compute, data.xTest, data.xTrain));
  }

  // Blocks computed elsewhere (a worker), with compute for a smaller chart area (see HeatmapChart.setBlocks).
  setBlocks(data, xRange, blocks, compute) {
    this.heatmap.setBlocks(blocks, data.xTest, data.xTrain, compute);
    this.showPredictions(data, xRange, blocks);
  }

  showPredictions(data, xRange, blocks) {
    const sets = this.predictions.data.datasets;
    sets[0].data = drawnPoints(data.xTrain, data.yTrain); // (as the predictions chart draws them)
    sets[1].data = data.yTruth ? points(data.xTest, data.yTruth) : [];
    sets[2].data = points(data.xTest, blocks.predictions);
    Object.assign(this.predictions.options.scales.x, { min: xRange.xMin, max: xRange.xMax });
  }

  draw() {
    this.predictions.update('none');
    this.heatmap.draw();
  }
}

export { FOUR_KERNELS, KernelPanel };
