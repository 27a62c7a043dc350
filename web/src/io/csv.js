// Reads (x, y) pairs from CSV text: comma, semicolon or tab; an optional header line; blank lines and
// lines starting with '#' skipped. Problems are reported with their line number. No DOM, no math: it runs
// in the CSV worker too (compute/csv.worker.js), which sends an error's key and values to the page to
// be put in the page's language.
import { t } from '../i18n/i18n.js';
import { MAX_OWN_ROWS } from '../model/large_data.js';

const MAX_BYTES = 5_000_000;
const MIN_ROWS = 2;
const MAX_ROWS = MAX_OWN_ROWS;
// onProgress is told the fraction of lines read after each this many lines.
const PROGRESS_LINES = 10_000;

class CsvError extends Error {
  // key and params: the dictionaries' text of the problem (see i18n/en.js, csv.*).
  constructor(key, params = {}) {
    super(t(key, params));
    this.name = 'CsvError';
    this.key = key;
    this.params = params;
  }
}

const quote = (text) => (text.length > 30 ? `"${text.slice(0, 30)}…"` : `"${text}"`);

// text -> { x: number[], y: number[] }; throws CsvError naming the line. onProgress(fraction of the lines
// read) is called along the way, for a progress bar.
function parseCsv(text, { onProgress = null } = {}) {
  if (typeof text !== 'string') throw new CsvError('csv.notText');
  if (text.length > MAX_BYTES) throw new CsvError('csv.tooLarge', { mb: MAX_BYTES / 1e6 });
  const x = [];
  const y = [];
  const lines = text.split(/\r\n|\n|\r/);
  let sawData = false;
  for (let i = 0; i < lines.length; i++) {
    if (onProgress && i > 0 && i % PROGRESS_LINES === 0) onProgress(i / lines.length);
    const line = lines[i].trim();
    const lineNumber = i + 1;
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(/[,;\t]/).map((field) => field.trim());
    const numbers = fields.map((field) => (field === '' ? NaN : Number(field)));
    const looksLikeHeader = !sawData && numbers.every((n) => !Number.isFinite(n)) && fields.every((f) => /[A-Za-z_]/.test(f));
    if (looksLikeHeader) {
      sawData = true;
      continue;
    }
    sawData = true;
    if (fields.length < 2) throw new CsvError('csv.twoColumns', { line: lineNumber, got: quote(line) });
    if (fields.length > 2) throw new CsvError('csv.exactlyTwo', { line: lineNumber, got: fields.length });
    for (const [k, name] of [[0, 'x'], [1, 'y']]) {
      if (!Number.isFinite(numbers[k])) throw new CsvError('csv.notFinite', { line: lineNumber, name, got: quote(fields[k]) });
    }
    if (x.length === MAX_ROWS) throw new CsvError('csv.tooManyRows', { line: lineNumber, max: MAX_ROWS });
    x.push(numbers[0]);
    y.push(numbers[1]);
  }
  if (x.length < MIN_ROWS) throw new CsvError('csv.tooFewRows', { min: MIN_ROWS, got: x.length });
  return { x, y };
}

export { parseCsv, CsvError, MAX_BYTES, MAX_ROWS };
