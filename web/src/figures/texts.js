// Texts the page and <nw-figure> both write about a session: the stage of training, why a kernel cannot
// be trained, the heatmaps' shape and the training charts' text alternatives, in t's language.
import { t as pageT } from '../i18n/i18n.js';
import { kernelName } from '../i18n/kernel_name.js';

const formatW = (w) => (Number.isFinite(w) ? w.toFixed(2) : '–');

// "before training" or "after 3 epochs".
const stageText = (session, t = pageT) => (session.epoch === 0 ? t('stage.before') : t.plural('stage.after', session.epoch));

// Why the session's kernel cannot be trained (the module's isTrainable said so), in t's language.
const untrainableText = (session, t = pageT) => t('status.untrainable', { kernel: kernelName(session.kernel, t) });

const weightsShape = (session, t = pageT) => t('describe.shape', { rows: session.data.xTest.length, cols: session.data.xTrain.length });

// The text alternatives of the training loss and learned-w charts, with the numbers they show.
function describeTraining(session, lossCanvas, wCanvas, t = pageT) {
  const { losses, ws } = session;
  lossCanvas.setAttribute('aria-label', losses.length
    ? t('describe.losses', { first: losses[0].toFixed(4), last: losses[losses.length - 1].toFixed(4), n: losses.length })
    : t('describe.noLosses'));
  wCanvas.setAttribute('aria-label', ws.length
    ? t.plural('describe.ws', ws.length - 1, { first: formatW(ws[0]), last: formatW(ws[ws.length - 1]) })
    : t('describe.noWs'));
}

// Under the predictions chart when local-linear pooling is on (else ''): how it changes the test error
// near the ends of the data at the chart's w, Nadaraya-Watson's beside it, and how many queries fell
// back to the Nadaraya-Watson value (numbers from Session.boundaryComparison).
function boundaryNote(session, w, t = pageT) {
  if (session.estimator !== 'localLinear') return '';
  const { margin, edgeCount, fallbacks, total, edge, all } = session.boundaryComparison(w);
  const sentences = [];
  if (edge) {
    sentences.push(t.plural('estimator.boundary', edgeCount, {
      w: formatW(w), margin: String(margin), localLinear: edge.localLinear.toFixed(4), nadarayaWatson: edge.nadarayaWatson.toFixed(4),
      total, allLocalLinear: all.localLinear.toFixed(4), allNadarayaWatson: all.nadarayaWatson.toFixed(4),
    }));
  }
  if (fallbacks > 0) sentences.push(t.plural('estimator.fallbacks', fallbacks, { total }));
  return sentences.join(t.lang === 'zh' ? '' : ' ');
}

// A line's name (a legend entry, a row of the errors table), marked as local-linear when it is.
const lineLabel = (session, label, t = pageT) => (session.estimator === 'localLinear' ? t('chart.localLinear', { line: label }) : label);

// The predictions chart's two attention lines named for the session: the parametric one with its stage.
function labelLines(chart, session, t = pageT) {
  chart.setNonparametricLabel(lineLabel(session, t('chart.nonparametric'), t));
  chart.setParametricLabel(lineLabel(session, session.canTrain ? t('chart.parametricAt', { stage: stageText(session, t) }) : t('chart.parametric'), t));
}

// Beside the heatmaps when local-linear pooling is on (else ''): they show Nadaraya-Watson's weights.
const weightsEstimatorNote = (session, t = pageT) => (session.estimator === 'localLinear' ? t('estimator.weightsNote') : '');

export { boundaryNote, describeTraining, formatW, kernelName, labelLines, lineLabel, stageText, untrainableText, weightsEstimatorNote, weightsShape };
