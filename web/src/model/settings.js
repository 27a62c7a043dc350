// Page settings: one table of properties, read from the URL hash (clamped, with messages) and written back;
// and the page's language, read from the URL's ?lang= (or the browser's language).
import { LANGUAGES, browserLanguage, t as pageT, translator } from '../i18n/i18n.js';

const MAX_SAFE_SEED = Number.MAX_SAFE_INTEGER;

// name: URL key and control id; kind: int | number | choice; label: the dictionary key of the control's
// accessible name (i18n/en.js), which messages about the setting name it by.
const properties = [
  { name: 'nTrain', label: 'setting.nTrain', kind: 'int', min: 5, max: 2000, initial: 50 },
  { name: 'nTest', label: 'setting.nTest', kind: 'int', min: 5, max: 2000, initial: 50 },
  { name: 'noiseSd', label: 'setting.noiseSd', kind: 'number', min: 0, max: 5, initial: 0.5 },
  { name: 'seed', label: 'setting.seed', kind: 'int', min: 0, max: MAX_SAFE_SEED, initial: 1 },
  { name: 'w', label: 'setting.w', kind: 'number', min: 0, max: 30, initial: 1 },
  { name: 'lr', label: 'setting.lr', kind: 'number', min: 0.001, max: 10, initial: 0.5 },
  { name: 'epochs', label: 'setting.epochs', kind: 'int', min: 1, max: 500, initial: 5 },
  // Epochs already trained: a shared link replays them, so it shows the same learned w.
  { name: 'trained', label: 'setting.trained', kind: 'int', min: 0, max: 5000, initial: 0 },
  // Clamped to the data's range when drawn (your own data may lie anywhere).
  { name: 'query', label: 'setting.query', kind: 'number', min: -1e6, max: 1e6, initial: 2.5 },
  // Whose attention the query shows: 'auto' the nonparametric until w is trained, then the parametric
  // (before, its w is the random w0); hovering a heatmap's row shows that heatmap's (Session.attentionShown).
  { name: 'attend', label: 'setting.attend', kind: 'choice', choices: ['auto', 'nonparametric', 'parametric'], initial: 'auto' },
  { name: 'kernel', label: 'setting.kernel', kind: 'choice', choices: ['gaussian', 'boxcar', 'constant', 'epanechnikov', 'triangular'], initial: 'gaussian' },
  // Local-linear attention pooling fits a line at each query (the module's estimator option): it changes the
  // predictions and what training minimises; the heatmaps stay Nadaraya-Watson's attention weights.
  { name: 'estimator', label: 'setting.estimator', kind: 'choice', choices: ['nadarayaWatson', 'localLinear'], initial: 'nadarayaWatson' },
  { name: 'loo', label: 'setting.loo', kind: 'choice', choices: ['on', 'off'], initial: 'on' },
  // The summed squared error (the chapter's PyTorch listing) or half of it (its MXNet listing).
  { name: 'loss', label: 'setting.loss', kind: 'choice', choices: ['squared', 'halfSquared'], initial: 'squared' },
  // 'own': the CSV data kept in this browser's local storage.
  { name: 'data', label: 'setting.data', kind: 'choice', choices: ['generated', 'own'], initial: 'generated' },
  // "Design your own attention pooling" (model/design.js): its scoring function, hidden units (additive),
  // optimizer, learning rate, epochs per Train and epochs trained (replayed by a link, as `trained` is).
  { name: 'scoring', label: 'setting.scoring', kind: 'choice', choices: ['additive', 'dotProduct', 'gaussian'], initial: 'additive' },
  { name: 'hidden', label: 'setting.hidden', kind: 'int', min: 1, max: 64, initial: 8 },
  { name: 'optimizer', label: 'setting.optimizer', kind: 'choice', choices: ['adam', 'sgd'], initial: 'adam' },
  { name: 'designLr', label: 'setting.designLr', kind: 'number', min: 0.0001, max: 10, initial: 0.05 },
  { name: 'designEpochs', label: 'setting.designEpochs', kind: 'int', min: 1, max: 500, initial: 50 },
  { name: 'designTrained', label: 'setting.designTrained', kind: 'int', min: 0, max: 5000, initial: 0 },
];

function defaults() {
  const state = {};
  for (const p of properties) state[p.name] = p.initial;
  return state;
}

// Turns one raw string into a valid value, or returns { error } with the reason (in t's language).
function coerce(property, raw, t = pageT) {
  const label = t(property.label);
  if (property.kind === 'choice') {
    return property.choices.includes(raw)
      ? { value: raw }
      : { error: t('problem.choice', { label, choices: property.choices.join(', ') }) };
  }
  const text = String(raw).trim();
  const number = text === '' ? NaN : Number(text);
  if (!Number.isFinite(number)) return { error: t('problem.number', { label }) };
  if (property.kind === 'int' && !Number.isInteger(number)) {
    return { error: t('problem.whole', { label }) };
  }
  if (number < property.min || number > property.max) {
    const clamped = Math.min(property.max, Math.max(property.min, number));
    return { value: clamped, error: t('problem.range', { label, min: property.min, max: property.max, value: clamped }) };
  }
  return { value: number };
}

// Reads "#nTrain=50&seed=3..." (a leading '#' or '?' is ignored). Unknown keys are reported, not kept
// (embed and lang belong to the page's query string and are read there). Returns { state, problems,
// refused }: problems are the messages, refused the same as { setting, message } (an embed's nw:error).
function parse(text, base = defaults(), t = pageT) {
  const state = { ...base };
  const refused = [];
  const params = new URLSearchParams(String(text || '').replace(/^[#?]/, ''));
  for (const [key, raw] of params) {
    const property = properties.find((p) => p.name === key);
    if (!property) {
      if (key !== 'embed' && key !== 'lang') refused.push({ setting: key.slice(0, 40), message: t('problem.unknownSetting', { name: `${key.slice(0, 40)}${key.length > 40 ? '…' : ''}` }) });
      continue;
    }
    const { value, error } = coerce(property, raw, t);
    if (value !== undefined) state[key] = value;
    if (error) refused.push({ setting: key, message: error });
  }
  return { state, problems: refused.map((r) => r.message), refused };
}

// Any object of setting names and values (a session file's, an embed host's) as URL text, so that
// parse checks it exactly like the address bar's.
function textOf(settings) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(settings)) params.set(key, String(value));
  return params.toString();
}

function serialize(state) {
  const params = new URLSearchParams();
  for (const p of properties) params.set(p.name, String(state[p.name]));
  return params.toString();
}

// Settings that change the data (and so reset training).
const dataKeys = ['nTrain', 'nTest', 'noiseSd', 'seed', 'data'];
// Settings that change what training minimises (and so restart it).
const objectiveKeys = ['lr', 'kernel', 'estimator', 'loo', 'loss'];

// w beside its slider: w scales the distance, and the kernel's width, the bandwidth, is 1/w.
const describeW = (w, t = pageT) => t('control.wValue', { w: w.toFixed(2), bandwidth: w === 0 ? '∞' : (1 / w).toPrecision(3) });

// The page's language: not in the hash with the settings (a shared link keeps the reader's language
// unless it says ?lang=), but in the query string, like embed. Checked like a setting: a bad value is
// named in a message (in the browser's language) and the browser's language is used.
const languageSetting = { name: 'lang', label: 'setting.lang', kind: 'choice', choices: LANGUAGES, initial: 'en' };

// search: the URL's query string; languages: navigator.languages. Returns { lang, problem }.
function chooseLanguage(search, languages) {
  const fallback = browserLanguage(languages);
  const raw = new URLSearchParams(String(search || '').replace(/^\?/, '')).get('lang');
  if (raw === null) return { lang: fallback, problem: null };
  const { value, error } = coerce(languageSetting, raw.slice(0, 40), translator(fallback));
  return { lang: value ?? fallback, problem: error ?? null };
}

// What going from `previous` settings (null: none yet) to `next` asks of a Session at `epoch`: 'data'
// (new data, training from its w0), 'training' (the same data, training again: a new objective, or fewer
// epochs than trained), or null. The page and <nw-figure> both follow it.
function sessionChange(previous, next, epoch) {
  if (!previous || dataKeys.some((key) => next[key] !== previous[key])) return 'data';
  if (objectiveKeys.some((key) => next[key] !== previous[key]) || next.trained < epoch) return 'training';
  return null;
}

// Settings of the design figure alone: a change of only these leaves the chapter's figures as they are.
const designKeys = ['scoring', 'hidden', 'optimizer', 'designLr', 'designEpochs', 'designTrained'];

export { designKeys, properties, defaults, coerce, parse, serialize, textOf, dataKeys, objectiveKeys, describeW, languageSetting, chooseLanguage, sessionChange };
