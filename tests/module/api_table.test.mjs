// The API table written once and checked: api.js's publicApi list is what the module exports, what
// nw.d.ts declares and what docs/api.md documents. Adding a function to one of them alone fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, memberNames, runApiScript, sources } from './contract.mjs';
import { createNW } from './module.mjs';

const nw = await createNW();
const sorted = (names) => [...names].sort();
const { exported, publicApi } = runApiScript();
const declarations = sources.dts.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

test('api.js exports exactly its publicApi list, each name once', () => {
  assert.ok(publicApi.length >= 20, `${publicApi.length} names`);
  assert.equal(new Set(publicApi).size, publicApi.length, 'no name twice');
  assert.deepEqual(sorted(exported), sorted(publicApi));
});

test('the built module carries every public name, as a function or class', () => {
  for (const name of publicApi) {
    assert.ok(Object.hasOwn(nw, name), `nw.${name}`);
    assert.equal(typeof nw[name], 'function', `nw.${name} is a function or class`);
  }
  // Nothing else: no raw Embind function, no Emscripten internal (_malloc, HEAP8, asm, stackSave, ...)
  // with which a caller could write into wasm memory past the checks.
  assert.deepEqual(sorted(Object.keys(nw)), sorted(publicApi));
  for (const internal of ['_malloc', '_free', 'HEAP8', 'HEAPF64', 'asm', 'stackSave', 'ready', 'rawPredict']) {
    assert.equal(nw[internal], undefined, internal);
  }
});

test('nw.d.ts declares in NWModule exactly the public names', () => {
  assert.deepEqual(sorted(memberNames(block(declarations, 'interface NWModule'))), sorted(publicApi));
});

test('docs/api.md has one heading for each public name, and no other', () => {
  const documented = [...sources.docs.matchAll(/^### `(?:new )?nw\.(\w+)/gm)].map((m) => m[1]);
  assert.equal(new Set(documented).size, documented.length, 'no name twice');
  assert.deepEqual(sorted(documented), sorted(publicApi));
});

test('a Trainer\'s members are the same in the module, nw.d.ts and docs/api.md', () => {
  const actual = Object.getOwnPropertyNames(nw.Trainer.prototype).filter((name) => name !== 'constructor');
  const declared = memberNames(block(declarations, 'class Trainer')).filter((name) => name !== 'constructor');
  const documented = [...sources.docs.matchAll(/^#### `trainer\.(\w+)/gm)].map((m) => m[1]);
  assert.deepEqual(sorted(actual), ['approximate', 'delete', 'epoch', 'lossBound', 'parameters', 'scoring', 'step', 'stepWithRows', 'stepWithSums', 'w']);
  assert.deepEqual(sorted(declared), sorted(actual));
  assert.deepEqual(sorted(documented), sorted(actual));
});

test('the table check sees a name added to one side only', () => {
  // The parsers above on an NWModule with one member more: the comparison they feed would fail.
  const withExtra = declarations.replace('interface NWModule {', 'interface NWModule {\n    extraFunction(x: number): number;');
  assert.notDeepEqual(sorted(memberNames(block(withExtra, 'interface NWModule'))), sorted(publicApi));
  const docsWithExtra = `${sources.docs}\n### \`nw.extraFunction(x)\`\n`;
  assert.notDeepEqual(sorted([...docsWithExtra.matchAll(/^### `(?:new )?nw\.(\w+)/gm)].map((m) => m[1])), sorted(publicApi));
});
