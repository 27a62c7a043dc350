// The page's CSV reader (web/src/csv.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsvError, parseCsv } from '../../web/src/io/csv.js';

test('reads x,y pairs with or without a header, with commas, semicolons or tabs', () => {
  assert.deepEqual(parseCsv('x,y\n0.5,1.9\n1.2,2.6\n'), { x: [0.5, 1.2], y: [1.9, 2.6] });
  assert.deepEqual(parseCsv('1;2\r\n3;4'), { x: [1, 3], y: [2, 4] });
  assert.deepEqual(parseCsv('# a comment\n\n1\t-2e3\n 3 , 4 \n'), { x: [1, 3], y: [-2000, 4] });
});

const broken = [
  ['a missing column', 'x,y\n1,2\n3\n', /^Line 3: needs two columns, x and y, got "3"$/],
  ['three columns', '1,2,3\n4,5,6', /^Line 1: needs exactly two columns, x and y, got 3$/],
  ['text in y', 'x,y\n1,2\n3,abc\n', /^Line 3: y must be a finite number, got "abc"$/],
  ['NaN in x', '1,2\nNaN,4\n', /^Line 2: x must be a finite number, got "NaN"$/],
  ['Infinity', '1,2\n3,Infinity', /^Line 2: y must be a finite number, got "Infinity"$/],
  ['an empty field', '1,2\n,4', /^Line 2: x must be a finite number, got ""$/],
  ['fewer than 2 rows', 'x,y\n1,2\n', /^The CSV needs at least 2 rows of x, y; got 1$/],
  ['nothing at all', '', /^The CSV needs at least 2 rows of x, y; got 0$/],
  ['more than 100,000 rows', Array.from({ length: 100_001 }, (_, i) => `${i},${i}`).join('\n'), /^Line 100001: at most 100000 rows$/],
  ['a huge text', '1,2\n'.repeat(1_300_000), /^The CSV is too large: at most 5 MB$/],
  ['a second header', 'x,y\n1,2\nx,y\n', /^Line 3: x must be a finite number, got "x"$/],
];

for (const [name, text, message] of broken) {
  test(`refuses ${name}, naming the line`, () => {
    assert.throws(() => parseCsv(text), (error) => {
      assert.ok(error instanceof CsvError);
      assert.match(error.message, message);
      // (The worker sends the key and its values; the page puts them in its language.)
      assert.equal(new CsvError(error.key, error.params).message, error.message);
      return true;
    });
  });
}

test('reads 100,000 rows, telling its progress along the way', () => {
  const text = `x,y\n${Array.from({ length: 100_000 }, (_, i) => `${i / 1000},${Math.sin(i)}`).join('\n')}`;
  const progress = [];
  const { x, y } = parseCsv(text, { onProgress: (fraction) => progress.push(fraction) });
  assert.equal(x.length, 100_000);
  assert.equal(y[99_999], Math.sin(99_999));
  assert.equal(progress.length, 10);
  progress.forEach((fraction, i) => assert.ok(fraction > (i === 0 ? 0 : progress[i - 1]) && fraction < 1));
});
