// Page settings: one table of properties, read from the URL hash (clamped, with messages) and written back.

const MAX_SAFE_SEED = Number.MAX_SAFE_INTEGER;

// name: URL key and control id; kind: int | number | choice; label: the control's accessible name.
const properties = [
  { name: 'nTrain', label: 'Training samples', kind: 'int', min: 5, max: 2000, initial: 50 },
  { name: 'nTest', label: 'Test points', kind: 'int', min: 5, max: 2000, initial: 50 },
  { name: 'noiseSd', label: 'Noise', kind: 'number', min: 0, max: 5, initial: 0.5 },
  { name: 'seed', label: 'Seed', kind: 'int', min: 0, max: MAX_SAFE_SEED, initial: 1 },
  { name: 'w', label: 'Distance scale w', kind: 'number', min: 0, max: 30, initial: 1 },
  { name: 'lr', label: 'Learning rate', kind: 'number', min: 0.001, max: 10, initial: 0.5 },
  { name: 'epochs', label: 'Epochs', kind: 'int', min: 1, max: 500, initial: 5 },
  // Epochs already trained: a shared link replays them, so it shows the same learned w.
  { name: 'trained', label: 'Trained epochs', kind: 'int', min: 0, max: 5000, initial: 0 },
  // Clamped to the data's range when drawn (your own data may lie anywhere).
  { name: 'query', label: 'Query x', kind: 'number', min: -1e6, max: 1e6, initial: 2.5 },
  { name: 'attend', label: 'Show attention of', kind: 'choice', choices: ['parametric', 'nonparametric'], initial: 'parametric' },
  { name: 'kernel', label: 'Kernel', kind: 'choice', choices: ['gaussian', 'boxcar', 'constant', 'epanechnikov', 'triangular'], initial: 'gaussian' },
  { name: 'loo', label: 'Leave one out', kind: 'choice', choices: ['on', 'off'], initial: 'on' },
  // The summed squared error (the chapter's PyTorch listing) or half of it (its MXNet listing).
  { name: 'loss', label: 'Loss', kind: 'choice', choices: ['squared', 'halfSquared'], initial: 'squared' },
  // 'own': the CSV data kept in this browser's local storage.
  { name: 'data', label: 'Data source', kind: 'choice', choices: ['generated', 'own'], initial: 'generated' },
];

function defaults() {
  const state = {};
  for (const p of properties) state[p.name] = p.initial;
  return state;
}

// Turns one raw string into a valid value, or returns { error } with the reason.
function coerce(property, raw) {
  if (property.kind === 'choice') {
    return property.choices.includes(raw)
      ? { value: raw }
      : { error: `${property.label} must be one of ${property.choices.join(', ')}` };
  }
  const text = String(raw).trim();
  const number = text === '' ? NaN : Number(text);
  if (!Number.isFinite(number)) return { error: `${property.label} must be a number` };
  if (property.kind === 'int' && !Number.isInteger(number)) {
    return { error: `${property.label} must be a whole number` };
  }
  if (number < property.min || number > property.max) {
    const clamped = Math.min(property.max, Math.max(property.min, number));
    return { value: clamped, error: `${property.label} must be from ${property.min} to ${property.max}; using ${clamped}` };
  }
  return { value: number };
}

// Reads "#nTrain=50&seed=3..." (a leading '#' or '?' is ignored). Unknown keys are reported, not kept.
function parse(text, base = defaults()) {
  const state = { ...base };
  const problems = [];
  const params = new URLSearchParams(String(text || '').replace(/^[#?]/, ''));
  for (const [key, raw] of params) {
    const property = properties.find((p) => p.name === key);
    if (!property) {
      if (key !== 'embed') problems.push(`Unknown setting "${key.slice(0, 40)}${key.length > 40 ? '…' : ''}" ignored`);
      continue;
    }
    const { value, error } = coerce(property, raw);
    if (value !== undefined) state[key] = value;
    if (error) problems.push(error);
  }
  return { state, problems };
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
const objectiveKeys = ['lr', 'kernel', 'loo', 'loss'];

// w beside its slider: w scales the distance, and the kernel's width, the bandwidth, is 1/w.
const describeW = (w) => `${w.toFixed(2)} · bandwidth 1/w = ${w === 0 ? '∞' : (1 / w).toPrecision(3)}`;

export { properties, defaults, coerce, parse, serialize, textOf, dataKeys, objectiveKeys, describeW };
