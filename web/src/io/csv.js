// Reads (x, y) pairs from CSV text: comma, semicolon or tab; an optional header line; blank lines and
// lines starting with '#' skipped. Problems are reported with their line number. No DOM, no math.
import { t } from '../i18n/i18n.js';

const MAX_BYTES = 1_000_000;
const MIN_ROWS = 2;
const MAX_ROWS = 2000; // the page's limit for training samples

class CsvError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CsvError';
  }
}

const quote = (text) => (text.length > 30 ? `"${text.slice(0, 30)}…"` : `"${text}"`);

// text -> { x: number[], y: number[] }; throws CsvError naming the line.
function parseCsv(text) {
  if (typeof text !== 'string') throw new CsvError(t('csv.notText'));
  if (text.length > MAX_BYTES) throw new CsvError(t('csv.tooLarge', { mb: MAX_BYTES / 1e6 }));
  const x = [];
  const y = [];
  const lines = text.split(/\r\n|\n|\r/);
  let sawData = false;
  for (let i = 0; i < lines.length; i++) {
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
    if (fields.length < 2) throw new CsvError(t('csv.twoColumns', { line: lineNumber, got: quote(line) }));
    if (fields.length > 2) throw new CsvError(t('csv.exactlyTwo', { line: lineNumber, got: fields.length }));
    for (const [k, name] of [[0, 'x'], [1, 'y']]) {
      if (!Number.isFinite(numbers[k])) throw new CsvError(t('csv.notFinite', { line: lineNumber, name, got: quote(fields[k]) }));
    }
    if (x.length === MAX_ROWS) throw new CsvError(t('csv.tooManyRows', { line: lineNumber, max: MAX_ROWS }));
    x.push(numbers[0]);
    y.push(numbers[1]);
  }
  if (x.length < MIN_ROWS) throw new CsvError(t('csv.tooFewRows', { min: MIN_ROWS, got: x.length }));
  return { x, y };
}

export { parseCsv, CsvError, MAX_ROWS };
