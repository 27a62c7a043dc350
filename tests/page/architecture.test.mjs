// What the tree of web/src promises a newcomer (README, Architecture), checked: small files that say
// their job, entry points only at the top, workers only as compute/*.worker.js, a model/ with no DOM,
// imports in one direction, and the README's numbers equal to the code's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SLICE_MS, WORKER_MIN_PAIRS } from '../../web/src/compute/budget.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = join(root, 'web/src');
const files = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? files(path) : name.endsWith('.js') ? [path] : [];
});
const sources = files(src).map((path) => ({ path: relative(src, path), text: readFileSync(path, 'utf8') }));
const imports = ({ path, text }) => [...text.matchAll(/(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
  .map((m) => relative(src, resolve(src, dirname(path), m[1])));
const folder = (path) => (path.includes('/') ? path.split('/')[0] : '.');

test('every file of web/src has at most 300 lines and opens with a line saying its job', () => {
  for (const { path, text } of sources) {
    assert.ok(text.split('\n').length <= 301, `${path}: ${text.split('\n').length} lines`);
    assert.match(text.split('\n')[0], /^\/\/ \S/, `${path} opens with a comment`);
  }
});

test('the top of web/src holds only the entry points, and workers are compute/*.worker.js', () => {
  assert.deepEqual(sources.filter(({ path }) => folder(path) === '.').map(({ path }) => path).sort(), ['i18n-zh.js', 'nw-figure.js', 'page.js']);
  for (const { path, text } of sources) {
    const isWorker = /\bself\.(onmessage|postMessage)|addEventListener\('message'/.test(text) && /\bself\b/.test(text);
    if (isWorker) assert.match(path, /^compute\/\w+\.worker\.js$/, `${path} runs in a worker`);
  }
  for (const name of readdirSync(join(src, 'compute')).filter((file) => file.endsWith('.worker.js'))) {
    assert.ok(sources.some(({ path }) => path === `compute/${name}`));
  }
});

test('model/ is pure: no DOM, and imports nothing that draws or runs the page', () => {
  for (const source of sources.filter(({ path }) => folder(path) === 'model')) {
    assert.doesNotMatch(source.text, /\b(document|window|HTMLElement|localStorage)\b/, `${source.path} touches the DOM`);
    for (const target of imports(source)) assert.ok(['model', 'i18n'].includes(folder(target)), `${source.path} imports ${target}`);
  }
});

test('a change travels one way: nothing imports page/, and charts/ know no settings or Session', () => {
  for (const source of sources) {
    for (const target of imports(source)) {
      if (folder(target) === 'page') assert.ok(folder(source.path) === 'page' || source.path === 'page.js', `${source.path} imports ${target}`);
      if (folder(source.path) === 'charts') assert.ok(['charts', 'i18n'].includes(folder(target)), `${source.path} imports ${target}`);
    }
  }
});

test('byId is defined once, and the work budget\'s numbers are written once, as the README quotes them', () => {
  assert.equal(sources.filter(({ text }) => /const byId = /.test(text)).length, 1);
  for (const { path, text } of sources) {
    if (path !== 'compute/budget.js') assert.doesNotMatch(text, /\b250_?000\b|SLICE_MS = \d/, `${path} writes a budget number again`);
  }
  const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  assert.ok(readme.includes(`\`SLICE_MS\` = ${SLICE_MS} ms`), 'README quotes SLICE_MS');
  assert.ok(readme.includes(`heatmaps of >= ${WORKER_MIN_PAIRS.toLocaleString('en')} weights`), 'README quotes WORKER_MIN_PAIRS');
  assert.ok(readme.includes(`training epochs of >= ${WORKER_MIN_PAIRS.toLocaleString('en')} pairs`), 'README quotes WORKER_MIN_PAIRS');
});

test('the page matches no message text of the module', () => {
  for (const { path, text } of sources) {
    assert.doesNotMatch(text, /message\.(startsWith|includes|match)\(|\.message\s*===/, `${path} reads a message's words`);
  }
});

test('a live w reaches the charts in the README\'s five hops: the controller routes no replies', () => {
  const text = (path) => sources.find((source) => source.path === path).text;
  // The controller and the drag timing neither build requests nor take replies (no slot, no onResult).
  for (const path of ['page/controller.js', 'page/drag.js']) assert.doesNotMatch(text(path), /\bslot\b|onResult|maxCells/, path);
  assert.match(text('page/controller.js'), /this\.figures\.dragPreview\.to\(/);
  // The preview sends its own request and draws its own reply.
  assert.match(text('figures/drag_preview.js'), /onResult: \(blocks\) => this\.show\(request, blocks\)/);
  assert.match(text('figures/drag_preview.js'), /client\.request\(request\)/);
  const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  for (const name of ['`App.edit`', '`DragPreview.to`', '`DragPreview.show`', '`Session.acceptBlocks`']) assert.ok(readme.includes(name), name);
});
