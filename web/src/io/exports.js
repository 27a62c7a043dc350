// Files out and in: the data and predictions as CSV, the session as JSON, downloads. No math here.
import { inSandbox } from '../embed/sandbox.js';
import { t } from '../i18n/i18n.js';
import { MAX_OWN_ROWS } from '../model/large_data.js';
import { textOf } from '../model/settings.js';

const FORMAT = 'nadaraya-watson-session';
const VERSION = 1;
// String(number) is JavaScript's shortest exact form: a CSV or JSON read back gives the same doubles.
const cell = (value) => (value === null || value === undefined ? '' : String(value));

function dataCsv(data) {
  const rows = Array.from(data.xTrain, (x, i) => `${cell(x)},${cell(data.yTrain[i])}`);
  return ['x,y', ...rows].join('\n') + '\n';
}

// bounds: { nonparametric, parametric }, each line's bounds where it comes from binned sums (else null):
// then two more columns give them (|prediction - exact| <= bound; 0 for a query computed exactly).
function predictionsCsv(data, predictions, bounds = {}) {
  const column = (values, i) => cell(values ? values[i] : null);
  const binned = Boolean(bounds.nonparametric || bounds.parametric);
  const rows = Array.from(data.xTest, (x, i) => [cell(x), column(data.yTruth, i), column(predictions.average, i),
    column(predictions.nonparametric, i), column(predictions.parametric, i),
    ...(binned ? [column(bounds.nonparametric, i), column(bounds.parametric, i)] : [])].join(','));
  const header = `x,truth,average,nonparametric,parametric${binned ? ',nonparametric_bound,parametric_bound' : ''}`;
  return [header, ...rows].join('\n') + '\n';
}

// Everything needed to rebuild the view: settings, own data if any, and the training run (its
// replay must give the same numbers, which importing checks).
// Indented for reading, but your own data on one line: 100,000 points, a number a line, would take 5.1 MB,
// beyond what a session file may have (5 MB), where compact they take about 3.8 MB.
const OWN_DATA_PLACE = '"ownData: written compactly"';
function sessionJson(settings, session, ownPoints) {
  const own = settings.data === 'own' ? ownPoints : null;
  return JSON.stringify({
    format: FORMAT,
    version: VERSION,
    settings,
    ownData: own ? JSON.parse(OWN_DATA_PLACE) : null,
    training: { ws: session.ws, losses: session.losses, testMses: session.testMses },
  }, null, 2).replace(OWN_DATA_PLACE, () => JSON.stringify({ x: own.x, y: own.y }));
}

const isNumberArray = (a) => Array.isArray(a) && a.every((v) => typeof v === 'number' && Number.isFinite(v));

// text -> { settings (a URL-style string for model/settings.js's parse), ownData, training }; throws Error.
function parseSession(text) {
  let session;
  try {
    session = JSON.parse(text);
  } catch {
    throw new Error(t('session.notJson'));
  }
  if (!session || session.format !== FORMAT) throw new Error(t('session.wrongFormat', { format: FORMAT }));
  if (session.version !== VERSION) throw new Error(t('session.wrongVersion', { version: String(session.version).slice(0, 10), expected: VERSION }));
  if (!session.settings || typeof session.settings !== 'object') throw new Error(t('session.noSettings'));
  const own = session.ownData;
  if (own !== null && own !== undefined && !(own && isNumberArray(own.x) && isNumberArray(own.y) && own.x.length === own.y.length)) {
    throw new Error(t('session.badOwnData'));
  }
  // (The same limits as a CSV's: a session file may have been edited.)
  if (own && (own.x.length < 2 || own.x.length > MAX_OWN_ROWS)) throw new Error(t('session.ownDataSize', { max: MAX_OWN_ROWS, got: own.x.length }));
  const training = session.training || {};
  if (!isNumberArray(training.ws || []) || !isNumberArray(training.losses || [])) throw new Error(t('session.badTraining'));
  return { settings: textOf(session.settings), ownData: own || null, training: { ws: training.ws || [], losses: training.losses || [] } };
}

// A frame sandboxed without allow-same-origin has an opaque origin; such lessons rarely allow downloads
// either (allow-downloads), and a blocked download fails silently, so exports are shown instead.
const downloadsMayBeBlocked = inSandbox;

function downloadUrl(filename, url) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
}

function downloadText(filename, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  downloadUrl(filename, url);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// A chart's picture as a PNG on the page's background colour: a transparent picture of the dark
// theme's light text is unreadable on a white slide.
function chartPng(chart) {
  const { canvas } = chart;
  const picture = document.createElement('canvas');
  picture.width = canvas.width;
  picture.height = canvas.height;
  const context = picture.getContext('2d');
  context.fillStyle = getComputedStyle(document.body).backgroundColor;
  context.fillRect(0, 0, picture.width, picture.height);
  context.drawImage(canvas, 0, 0);
  return picture.toDataURL('image/png');
}

export { chartPng, dataCsv, predictionsCsv, sessionJson, parseSession, downloadText, downloadUrl, downloadsMayBeBlocked };
