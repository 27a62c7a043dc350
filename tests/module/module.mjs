// Loads the built module (dist/nw.js) and the golden values shared with the Catch2 suites.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const modulePath = fileURLToPath(new URL('../../dist/nw.js', import.meta.url));
export const createNW = require(modulePath);

// { name: number[] } from tests/golden/seed1.txt (one row per line, '#' comments).
export function readGolden() {
  const text = readFileSync(new URL('../golden/seed1.txt', import.meta.url), 'utf8');
  const rows = {};
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [name, ...values] = line.trim().split(/\s+/);
    rows[name] = values.map(Number);
  }
  return rows;
}

export function assertClose(actual, expected, relative, message) {
  const scale = Math.max(Math.abs(expected), Number.MIN_VALUE);
  if (!(Math.abs(actual - expected) <= relative * scale)) {
    throw new Error(`${message ?? 'value'}: ${actual} is not within ${relative} (relative) of ${expected}`);
  }
}
