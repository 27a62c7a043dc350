// Figure 3, the training run, for the page and <nw-figure> alike: the loss (with the test MSE on a
// right-hand axis) and the learned w, one point per epoch, with text alternatives carrying the numbers.
import { estimator } from '../charts/colors.js';
import { TrainingChart } from '../charts/training_chart.js';
import { t as pageT } from '../i18n/i18n.js';
import { describeTraining } from './texts.js';

// Before the first epoch the loss chart says what will appear there (or that this kernel cannot be
// trained) rather than show an empty frame.
function lossChart(canvas, t = pageT) {
  const chart = new TrainingChart(canvas, {
    series: [{ label: t('chart.trainingLoss'), color: estimator.parametric, yTitle: t('chart.loss') }, { label: t('chart.testMse'), color: estimator.query, yTitle: t('chart.testMse') }],
    t,
  });
  chart.emptyTexts = { trainable: t('lossChart.empty'), untrainable: t('lossChart.untrainable') };
  return chart;
}

const wChart = (canvas, t = pageT) => new TrainingChart(canvas, { series: [{ label: 'w', color: estimator.parametric, yTitle: 'w' }], t });

function drawLoss(chart, session) {
  chart.setEmptyText(chart.emptyTexts[session.canTrain ? 'trainable' : 'untrainable']);
  chart.setSeries(0, session.losses, 1);
  chart.setSeries(1, session.testMses, 0);
  chart.draw();
}

function drawW(chart, session) {
  chart.setSeries(0, session.ws, 0);
  chart.draw();
}

export { describeTraining, drawLoss, drawW, lossChart, wChart };
