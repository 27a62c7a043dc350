// Whether a browser runs the module (web/src/lib/webassembly.js), and the versions the page names to a
// reader without it, which must be the bundles' targets (scripts/bundle.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WEBASSEMBLY_BROWSERS, runsWebAssembly } from '../../web/src/lib/webassembly.js';

test('WebAssembly with SIMD runs here (Node); without it, or without SIMD, or broken, it does not', () => {
  assert.equal(runsWebAssembly(), true);
  assert.equal(runsWebAssembly({}), false);
  assert.equal(runsWebAssembly({ WebAssembly: undefined }), false);
  assert.equal(runsWebAssembly({ WebAssembly: { validate: () => false } }), false, 'an engine that refuses the SIMD probe');
  assert.equal(runsWebAssembly({ WebAssembly: { validate: () => { throw new Error('locked down'); } } }), false);
  // The probe is a module that WebAssembly itself finds valid only with SIMD.
  assert.equal(runsWebAssembly({ WebAssembly: { validate: (bytes) => WebAssembly.validate(bytes) } }), true);
});

test('the browsers named to the reader are the bundles\' targets', () => {
  const bundle = readFileSync(new URL('../../scripts/bundle.mjs', import.meta.url), 'utf8');
  const targets = JSON.parse(bundle.match(/target: (\[[^\]]+\])/)[1].replace(/'/g, '"'));
  const named = Object.fromEntries(WEBASSEMBLY_BROWSERS.split(', ').map((entry) => entry.split(' ')).map(([name, version]) => [name.toLowerCase(), version]));
  assert.deepEqual(targets.sort(), Object.entries({ chrome: named.chrome, firefox: named.firefox, safari: named.safari }).map(([name, version]) => `${name}${version}`).sort());
});
