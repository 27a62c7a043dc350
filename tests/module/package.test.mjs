// The npm package as a user meets it: `npm pack` the built tree, install the tarball into a scratch
// folder offline, then require it, import it, type-check a TypeScript file against its types and
// bundle it for the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
let scratch;
let packed;

// Runs a command in the scratch project; its output on failure is part of the assertion message.
function run(command, args, cwd = scratch) {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${error.stdout}\n${error.stderr}`);
  }
}

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'nw-package-'));
  const packDir = join(scratch, 'pack');
  mkdirSync(packDir);
  [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', packDir], root));
  const app = join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(packDir, packed.filename)], app);
  scratch = app;
});

after(() => rmSync(join(scratch, '..'), { recursive: true, force: true }));

test('the tarball holds dist/ (module, ES entry, types, the page) and nothing from the source tree', () => {
  const files = packed.files.map((file) => file.path).sort();
  // The module's files by name; the page's (its bundles and workers, named by web/ and scripts/bundle.mjs)
  // as whatever the build put in dist/.
  const built = readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath ?? entry.path, entry.name)).split(sep).join('/'));
  for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/nw.js', 'dist/nw.mjs', 'dist/nw.d.ts', 'dist/index.html',
    'dist/page.js', ...built]) {
    assert.ok(files.includes(file), `${file} is packed`);
  }
  assert.deepEqual(files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(file)), []);
  assert.ok(!files.some((file) => file.endsWith('.wasm')), 'the wasm travels inside nw.js');
  const manifest = JSON.parse(readFileSync(join(scratch, 'node_modules/nadaraya-watson/package.json'), 'utf8'));
  assert.equal(manifest.dependencies, undefined, 'the package needs nothing at run time');
});

const useModule = `
  const nw = await createNW();
  const data = nw.generateData({ seed: 3 });
  const line = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2 });
  let refused = '';
  try { nw.predict(data.xTest, data.xTrain, data.yTrain, { W: 2 }); } catch (error) { refused = error.name; }
  console.log(JSON.stringify({ n: line.length, first: line[0], refused }));
`;

function expectedFirst() {
  return run('node', ['-e', `require(${JSON.stringify(join(root, 'dist/nw.js'))})().then((nw) => {
    const d = nw.generateData({ seed: 3 });
    console.log(nw.predict(d.xTest, d.xTrain, d.yTrain, { w: 2 })[0]);
  })`]).trim();
}

test('require(\'nadaraya-watson\') gives the module factory in CommonJS', () => {
  writeFileSync(join(scratch, 'use.cjs'), `const createNW = require('nadaraya-watson');\n(async () => {${useModule}})();\n`);
  const result = JSON.parse(run('node', ['use.cjs']));
  assert.deepEqual(result, { n: 50, first: Number(expectedFirst()), refused: 'NWError' });
});

test('import createNW from \'nadaraya-watson\' gives the same factory as an ES module', () => {
  writeFileSync(join(scratch, 'use.mjs'), `import createNW from 'nadaraya-watson';\n${useModule}\n`);
  const result = JSON.parse(run('node', ['use.mjs']));
  assert.deepEqual(result, { n: 50, first: Number(expectedFirst()), refused: 'NWError' });
});

test('the types compile a correct program and refuse a misspelt option (tsc --noEmit)', () => {
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [] },
    files: ['check.mts'],
  }));
  writeFileSync(join(scratch, 'check.mts'), `import createNW from 'nadaraya-watson';

const nw: createNW.NWModule = await createNW();
const data: createNW.Data = nw.generateData({ nTrain: 80, seed: 2 });
const line: Float64Array = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 3, kernel: 'boxcar' });
const weights: createNW.Weights = nw.attentionWeights([1, 2], data.xTrain);
const best = nw.selectBandwidth(data.xTrain, data.yTrain, { kernel: 'epanechnikov' });
const limit: 'none' | 'zero' | 'infinity' = best.atLimit;
const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 0.5 });
const loss: number = trainer.step() + trainer.w + trainer.epoch;
trainer.delete();
try {
  nw.averagePool([]);
} catch (error) {
  if (error instanceof nw.NWError) {
    const code: createNW.ErrorCode = error.code;
    const parameter: string = error.parameter;
    console.log(error.name === 'NWError', error.message, code === 'empty', parameter);
    // @ts-expect-error: the codes are a union, so a misspelt code does not compile
    console.log(error.code === 'not-trainabel');
  }
}
const trainable: boolean = nw.isTrainable('boxcar', 'localLinear');
// looLoss takes every kernel (its gradient is 0 for the piecewise-constant ones)
const boxcarLoss: number = nw.looLoss(data.xTrain, data.yTrain, { w: 2, kernel: 'boxcar' }).loss;
console.log(boxcarLoss);
console.log(trainable);
console.log(line.length, weights.fallbackRows, limit, loss);

// @ts-expect-error: options are checked by name; W is not w
nw.predict(data.xTest, data.xTrain, data.yTrain, { W: 3 });
// @ts-expect-error: boxcar has no gradient, so it cannot be trained
new nw.Trainer(data.xTrain, data.yTrain, { kernel: 'boxcar' });
// @ts-expect-error: the result is typed, not any
const notText: string = nw.averagePool([1, 2]);
console.log(notText);
`);
  run('node', [tsc, '-p', '.']);

  // The directives above are only evidence if tsc does fail without them.
  const unchecked = readFileSync(join(scratch, 'check.mts'), 'utf8').replaceAll('// @ts-expect-error', '//');
  writeFileSync(join(scratch, 'check.mts'), unchecked);
  assert.throws(() => run('node', [tsc, '-p', '.']), (error) => {
    const errors = error.message.match(/error TS\d+/g) ?? [];
    assert.equal(errors.length, 4, error.message);
    assert.match(error.message, /'W' does not exist/);
    return true;
  });
});

test('a bundler takes the package for the browser: esbuild resolves it with no error or warning', async () => {
  writeFileSync(join(scratch, 'entry.js'), 'import createNW from \'nadaraya-watson\';\ncreateNW().then((nw) => console.log(nw.averagePool([1, 2])));\n');
  const result = await build({
    absWorkingDir: scratch, entryPoints: ['entry.js'], bundle: true, platform: 'browser', format: 'esm',
    write: false, logLevel: 'silent',
  });
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.warnings, []);
  const code = result.outputFiles[0].text;
  assert.match(code, /var createNW/);
  assert.doesNotMatch(code, /require\("(fs|path)"\)/, 'Node built-ins are left out for the browser');
});
