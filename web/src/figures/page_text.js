// The page's words and tables about a session, beside its charts: the status line, the errors table,
// the predictions and epochs tables, the charts' text alternatives and the data note.
import { drawnEvery } from '../charts/predictions_chart.js';
import { t } from '../i18n/i18n.js';
import { ownData } from '../io/own_data.js';
import { byId, setText, tableRow } from '../lib/dom.js';
import { describeTraining, formatW, lineLabel, stageText, untrainableText } from './texts.js';
import { describeWeights } from './weights.js';

const formatNumber = (x, digits) => (x === null || x === undefined ? '–' : x.toFixed(digits));

// Each chart's text alternative carries the numbers it currently shows, for readers who cannot see it.
function describeCharts(session, s, errors, query) {
  const mse = (name) => (errors && errors[name] !== null ? t('describe.mse', { mse: errors[name].toFixed(3) }) : '');
  const learned = session.canTrain ? t('describe.learned', { w: formatW(session.learnedW), stage: stageText(session), mse: mse('parametric') }) : t('describe.noParametric');
  const describe = (id, text) => byId(id).setAttribute('aria-label', text);
  describe('predictionsChart', t('describe.predictions', {
    query: query.toFixed(2), averageMse: mse('average'), w: formatW(s.w), nonparametricMse: mse('nonparametric'), learned,
  }));
  const weights = describeWeights(session, s);
  describe('nonparametricHeatmap', weights.nonparametric);
  describe('parametricHeatmap', weights.parametric);
  describeTraining(session, byId('lossChart'), byId('wChart'));
}

function showStatus(session, s) {
  const status = byId('status');
  if (!session.canTrain) {
    setText(status, untrainableText(session));
    delete status.dataset.w;
    return;
  }
  const w = formatW(session.learnedW);
  // A live region: written only when its text changes, so a screen reader hears each change once.
  setText(status, session.epoch === 0
    ? t(s.data === 'own' ? 'status.startOwn' : 'status.start', { w })
    : t('status.epoch', { epoch: session.epoch, loss: session.losses[session.losses.length - 1].toFixed(4), w }));
  status.dataset.w = String(session.learnedW);
}

function showErrors(session, s, errors) {
  const rows = [
    [t('errors.average'), '–', errors && errors.average],
    [lineLabel(session, t('chart.nonparametric')), formatW(s.w), errors && errors.nonparametric],
    [lineLabel(session, session.canTrain ? t('errors.parametricAt', { stage: stageText(session) }) : t('chart.parametric')), formatW(session.learnedW), errors && errors.parametric],
  ];
  byId('mse').tBodies[0].replaceChildren(...rows.map((cells) => tableRow([cells[0], cells[1], formatNumber(cells[2], 4)])));
  byId('mse').title = errors ? '' : t('errors.noTruth');
}

// A bound as the notes show it: two digits, or ∞ where the binned sums say nothing (a query far from
// every key).
const formatBound = (bound) => (Number.isFinite(bound) ? bound.toPrecision(2) : '∞');
// A count of points as the reader's language groups it ("100,000").
const formatCount = (n) => n.toLocaleString(t.lang);

// Where the lines or the epochs come from binned sums (large data of your own, model/large_data.js),
// how near the exact ones they are: the largest bound of the lines, the last epoch's loss bound; and
// where the chart draws only some of the points, which.
function showApproximation(session, predictions) {
  const note = byId('approximateNote');
  const bounds = [predictions.nonparametric, predictions.parametric].map((line) => session.boundsOf(line)).filter(Boolean);
  const sentences = [];
  const n = session.data.xTrain.length;
  if (drawnEvery(n) > 1) sentences.push(t('data.drawnEvery', { every: formatCount(drawnEvery(n)), n: formatCount(n) }));
  if (bounds.length) {
    const largest = Math.max(...bounds.map((each) => Math.max(...each)));
    sentences.push(t('data.binnedLines', { n: formatCount(n), queries: formatCount(session.data.xTest.length), bound: formatBound(largest) }));
  }
  if (session.trainsApproximately && session.epoch > 0) sentences.push(t('data.binnedTraining', { bound: formatBound(session.trainer.lossBound) }));
  setText(note, sentences.join(t.lang === 'zh' ? '' : ' '));
  note.hidden = sentences.length === 0;
}

// The predictions chart as numbers, a binned prediction with its bound; filled only while its panel is
// open (it can have 2000 rows).
function showPredictionsTable(shown) {
  if (!byId('predictionsTableBox').open || !shown) return;
  const { data, predictions, bounds } = shown;
  const column = (values, i, bound = null) => (values ? values[i].toFixed(4) + (bound ? ` ± ${formatBound(bound[i])}` : '') : '–');
  byId('predictionsTable').tBodies[0].replaceChildren(...Array.from(data.xTest, (x, i) => tableRow([x.toFixed(3),
    column(data.yTruth, i), column(predictions.average, i), column(predictions.nonparametric, i, bounds.nonparametric), column(predictions.parametric, i, bounds.parametric)])));
}

function showEpochs(session) {
  const { losses, ws, testMses } = session;
  byId('epochTable').tBodies[0].replaceChildren(
    ...losses.map((loss, i) => tableRow([String(i + 1), loss.toFixed(6), ws[i + 1].toFixed(6), formatNumber(testMses[i + 1], 6)])));
}

function showDataNote(session, s) {
  byId('dataNote').textContent = s.data === 'own'
    ? t(ownData.isPersistent ? 'data.usingOwnKept' : 'data.usingOwnUnkept', { n: formatCount(session.data.xTrain.length) })
    : t('data.hint');
  // Your data lives in a collapsed panel; while it is in use, the panel (with "Clear my data") is open.
  if (s.data === 'own') byId('dataNote').closest('details').open = true;
}

export { describeCharts, showApproximation, showDataNote, showEpochs, showErrors, showPredictionsTable, showStatus };
