// "Design your own attention pooling", drawn from the module's reply (compute/design_work.js): the
// predictions beside the chapter's Gaussian, the loss and test MSE per epoch, the learned weights as a
// heatmap, and the words with their numbers (design_text.js). Charts are made when first drawn.
import { createChart } from '../charts/chart.js';
import { estimator, lineDash } from '../charts/colors.js';
import { HeatmapChart } from '../charts/heatmap_chart.js';
import { t as pageT } from '../i18n/i18n.js';
import { setText } from '../lib/dom.js';
import { lossChart } from './training.js';
import { describeDesign, designNotice, designParametersText, designSummary, featureCheckText } from './design_text.js';

const points = (xs, ys) => Array.from(xs, (x, i) => ({ x, y: ys[i] }));

function predictionsChart(canvas, t) {
  const line = (label, color, dash, width) => ({ type: 'line', label, data: [], borderColor: color, backgroundColor: color, borderDash: dash, borderWidth: width, pointRadius: 0 });
  return createChart(canvas, {
    type: 'scatter',
    data: {
      datasets: [
        { label: t('chart.trainingData'), data: [], borderColor: estimator.data, backgroundColor: estimator.data, pointRadius: 3 },
        line(t('chart.truth'), estimator.truth, lineDash.truth, 1.5),
        line(t('design.lineGaussian', { w: '' }), estimator.parametric, lineDash.parametric, 2),
        line(t('design.lineDesign'), estimator.query, [], 3),
      ],
    },
    options: {
      animation: false,
      parsing: false,
      maintainAspectRatio: false,
      scales: { x: { type: 'linear', title: { display: true, text: 'x' } }, y: { type: 'linear', title: { display: true, text: 'y' } } },
      // (A line is in the legend once it has points: before the first reply the Gaussian's has no w.)
      plugins: { tooltip: { enabled: false }, legend: { labels: { filter: (item, data) => data.datasets[item.datasetIndex].data.length > 0 } } },
    },
  });
}

class DesignFigure {
  // elements: { predictions, loss, heatmap, legend, heatmapNote, title, notice, status, featureCheck }
  // (the canvases and the text elements). t: the texts' language.
  constructor(elements, { t = pageT } = {}) {
    this.elements = elements;
    this.t = t;
    this.charts = null;
  }

  makeCharts() {
    const { elements: e, t } = this;
    const loss = lossChart(e.loss, t);
    loss.setEmptyText(t('design.lossEmpty'));
    this.charts = {
      predictions: predictionsChart(e.predictions, t),
      loss,
      heatmap: new HeatmapChart(e.heatmap, { legendCanvas: e.legend, note: e.heatmapNote, t }),
    };
  }

  // The heatmap's chart area in device pixels (the blocks to ask for).
  capacity() {
    if (!this.charts) this.makeCharts();
    return this.charts.heatmap.capacity();
  }

  // Draws a reply for data and settings s. refit(): asks for blocks at the heatmap's new capacity
  // after a resize (true when they are on their way).
  show(reply, data, s, refit) {
    if (!this.charts) this.makeCharts();
    const { charts, elements: e, t } = this;
    const sets = charts.predictions.data.datasets;
    sets[0].data = points(data.xTrain, data.yTrain);
    sets[1].data = data.yTruth ? points(data.xTest, data.yTruth) : [];
    sets[1].hidden = !data.yTruth;
    sets[2].data = points(data.xTest, reply.gaussian.predictions);
    sets[2].label = t('design.lineGaussian', { w: reply.gaussian.w.toFixed(2) });
    sets[3].data = points(data.xTest, reply.blocks.predictions);
    charts.predictions.update('none');
    charts.loss.setSeries(0, reply.losses, 1);
    charts.loss.setSeries(1, reply.testMses.filter((v) => v !== null), 0);
    charts.loss.draw();
    charts.heatmap.setBlocks(reply.blocks, data.xTest, data.xTrain, null, refit);
    if (charts.heatmap.draw({ refitHere: false })) refit(); // (laid out smaller than the blocks asked for)
    setText(e.title, designParametersText(reply, s, t));
    setText(e.notice, designNotice(reply, data, s, t));
    setText(e.status, designSummary(reply, s, t));
    setText(e.featureCheck, featureCheckText(reply, data, t));
    const described = describeDesign(reply, data, t);
    e.predictions.setAttribute('aria-label', described.predictions);
    e.heatmap.setAttribute('aria-label', described.weights);
  }

  // A request that takes a while (a link's epochs replayed at 2000 samples, 0.7 s each) is on its way.
  showComputing(epoch) {
    setText(this.elements.status, this.t('design.computing', { epoch }));
  }
}

export { DesignFigure };
