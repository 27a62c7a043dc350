// Reads (x, y) pairs from CSV text: comma, semicolon or tab; an optional header line; blank lines and
// lines starting with '#' skipped. Problems are reported with their line number. No DOM, no math.

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
  if (typeof text !== 'string') throw new CsvError('The CSV must be text');
  if (text.length > MAX_BYTES) throw new CsvError(`The CSV is too large: at most ${MAX_BYTES / 1e6} MB`);
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
    if (fields.length < 2) throw new CsvError(`Line ${lineNumber}: needs two columns, x and y, got ${quote(line)}`);
    if (fields.length > 2) throw new CsvError(`Line ${lineNumber}: needs exactly two columns, x and y, got ${fields.length}`);
    for (const [k, name] of [[0, 'x'], [1, 'y']]) {
      if (!Number.isFinite(numbers[k])) throw new CsvError(`Line ${lineNumber}: ${name} must be a finite number, got ${quote(fields[k])}`);
    }
    if (x.length === MAX_ROWS) throw new CsvError(`Line ${lineNumber}: at most ${MAX_ROWS} rows`);
    x.push(numbers[0]);
    y.push(numbers[1]);
  }
  if (x.length < MIN_ROWS) throw new CsvError(`The CSV needs at least ${MIN_ROWS} rows of x, y; got ${x.length}`);
  return { x, y };
}

export { parseCsv, CsvError, MAX_ROWS };
