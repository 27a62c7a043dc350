// The JavaScript contract of dist/nw.js: shapes, defaults, copies out, errors as NWError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createNW, modulePath } from './module.mjs';

const nw = await createNW();

test('loads through import as well as require', async () => {
  const { default: factory } = await import(modulePath);
  const other = await factory();
  assert.equal(other.target(1), nw.target(1));
});

test('the module needs no eval, so a page may forbid it in its Content-Security-Policy', () => {
  const source = readFileSync(modulePath, 'utf8');
  assert.doesNotMatch(source, /new Function\(|\beval\(/);
});

test('generateData returns Float64Arrays of the requested sizes and defaults to the chapter', () => {
  const data = nw.generateData();
  for (const name of ['xTrain', 'yTrain', 'xTest', 'yTruth']) {
    assert.ok(data[name] instanceof Float64Array, `${name} is a Float64Array`);
    assert.equal(data[name].length, 50);
  }
  assert.deepEqual(Array.from(data.xTest.slice(0, 3)), [0, 0.1, 0.2]);
  assert.ok(data.w0 >= 0 && data.w0 < 1);
  const small = nw.generateData({ nTrain: 7, nTest: 3, xMin: 1, xMax: 2, noiseSd: 0, seed: 9 });
  assert.equal(small.xTrain.length, 7);
  assert.deepEqual(Array.from(small.xTest), [1, 1 + 1 / 3, 1 + 2 / 3]);
  small.xTrain.forEach((x, i) => assert.equal(small.yTrain[i], nw.target(x)));
});

test('target is 2 sin x + x^0.8', () => {
  for (const x of [0, 0.5, 1, 2.5, 4.9]) {
    const expected = 2 * Math.sin(x) + x ** 0.8;
    assert.ok(Math.abs(nw.target(x) - expected) <= 1e-14 * Math.max(1, Math.abs(expected)), `x = ${x}`);
  }
});

test('arrays may be Array or Float64Array and give the same result', () => {
  const keys = [0, 1, 2, 3];
  const values = [1, -1, 2, 0.5];
  const fromArrays = nw.predict([0.5, 2.2], keys, values, { w: 2 });
  const fromTyped = nw.predict(new Float64Array([0.5, 2.2]), new Float64Array(keys), new Float64Array(values), { w: 2 });
  assert.ok(fromArrays instanceof Float64Array);
  assert.deepEqual(Array.from(fromArrays), Array.from(fromTyped));
});

test('options may be omitted: w defaults to 1', () => {
  const keys = [0, 1, 3];
  const values = [2, 4, 8];
  assert.deepEqual(Array.from(nw.predict([0.7], keys, values)), Array.from(nw.predict([0.7], keys, values, { w: 1 })));
  assert.deepEqual(nw.looLoss(keys, values), nw.looLoss(keys, values, { w: 1 }));
});

test('attentionWeights is row-major with rows = queries, each row summing to 1, and agrees with predict', () => {
  const queries = [0.1, 1.4, 2.9];
  const keys = [0, 1, 2, 3, 4];
  const values = [5, 3, 1, 2, 4];
  const { rows, cols, data } = nw.attentionWeights(queries, keys, { w: 1.5 });
  assert.equal(rows, 3);
  assert.equal(cols, 5);
  assert.ok(data instanceof Float64Array);
  const predicted = nw.predict(queries, keys, values, { w: 1.5 });
  for (let r = 0; r < rows; r++) {
    const row = data.subarray(r * cols, (r + 1) * cols);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    const viaWeights = row.reduce((acc, a, i) => acc + a * values[i], 0);
    assert.ok(Math.abs(viaWeights - predicted[r]) < 1e-12);
  }
});

test('averagePool is the mean', () => {
  assert.equal(nw.averagePool([1, 2, 6]), 3);
  assert.equal(nw.averagePool(new Float64Array([2, 4])), 3);
});

test('meanSquaredError compares predictions with the truth', () => {
  assert.equal(nw.meanSquaredError([1, 4], new Float64Array([0, 2])), 2.5);
  assert.throws(() => nw.meanSquaredError([1], [1, 2]), /^NWError: truth must have the same length as predicted/);
});

test('returned arrays are copies, not views into wasm memory', () => {
  const data = nw.generateData({ seed: 5 });
  const before = Array.from(data.xTrain);
  assert.ok(!(data.xTrain.buffer instanceof SharedArrayBuffer));
  assert.equal(data.xTrain.byteOffset, 0);
  assert.equal(data.xTrain.buffer.byteLength, data.xTrain.length * 8, 'the array owns its whole buffer');
  // Growing wasm memory (a 1000 x 4000 matrix is 32 MB) must not empty or change earlier results.
  const big = nw.attentionWeights(new Float64Array(1000), new Float64Array(4000), { w: 1 });
  assert.equal(big.data.length, 4_000_000);
  assert.deepEqual(Array.from(data.xTrain), before);
});

test('the Trainer steps, reports the loss before each step, and exposes w and epoch', () => {
  const data = nw.generateData({ seed: 2 });
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 0.5 });
  assert.equal(trainer.epoch, 0);
  assert.equal(trainer.w, data.w0);
  const firstLoss = nw.looLoss(data.xTrain, data.yTrain, { w: data.w0 });
  assert.equal(trainer.step(), firstLoss.loss);
  assert.equal(trainer.w, data.w0 - 0.5 * firstLoss.grad);
  assert.equal(trainer.epoch, 1);
  let previous = Infinity;
  for (let epoch = 0; epoch < 4; epoch++) {
    const loss = trainer.step();
    assert.ok(loss < previous);
    previous = loss;
  }
  assert.equal(trainer.epoch, 5);
  trainer.delete();
  trainer.delete(); // a second delete is harmless
});

test("a Trainer with approximate: 'auto' steps from binnedLooLoss at a large n, and exactly below it", () => {
  const data = nw.generateData({ nTrain: 5000, seed: 3 });
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: 1, lr: 1e-5, approximate: 'auto' });
  assert.equal(trainer.approximate, true);
  assert.equal(trainer.lossBound, 0);
  for (let epoch = 0; epoch < 2; epoch++) {
    const w = trainer.w;
    const binned = nw.binnedLooLoss(data.xTrain, data.yTrain, { w });
    const exact = nw.looLoss(data.xTrain, data.yTrain, { w });
    const loss = trainer.step();
    assert.equal(loss, binned.loss);
    assert.equal(trainer.w, w - 1e-5 * binned.grad);
    assert.equal(trainer.lossBound, binned.lossBound);
    assert.ok(Math.abs(loss - exact.loss) <= trainer.lossBound, `epoch ${epoch}: ${loss} vs ${exact.loss} +- ${trainer.lossBound}`);
  }
  assert.throws(() => trainer.stepWithRows(new Float64Array(5000), new Float64Array(5000)), { code: 'not-applicable', parameter: 'lossRows' });
  trainer.delete();
  // A narrow kernel (w = 30) has small exact windows: the same kind of trainer steps exactly there.
  const narrow = new nw.Trainer(data.xTrain, data.yTrain, { w0: 30, approximate: 'auto' });
  assert.equal(narrow.approximate, true);
  assert.equal(narrow.step(), nw.looLoss(data.xTrain, data.yTrain, { w: 30 }).loss);
  assert.equal(narrow.lossBound, 0);
  narrow.delete();
  const small = nw.generateData({ nTrain: 100 });
  const exactTrainer = new nw.Trainer(small.xTrain, small.yTrain, { approximate: 'auto' });
  assert.equal(exactTrainer.approximate, false);
  assert.equal(exactTrainer.step(), nw.looLoss(small.xTrain, small.yTrain, { w: 1 }).loss);
  assert.equal(exactTrainer.lossBound, 0);
  exactTrainer.delete();
  assert.throws(() => new nw.Trainer(small.xTrain, small.yTrain, { approximate: true }), { parameter: 'approximate' });
});

test('a Trainer given no options starts at w = 1 with lr = 0.5', () => {
  const trainer = new nw.Trainer([0, 1, 2], [0, 1, 0]);
  assert.equal(trainer.w, 1);
  const { grad } = nw.looLoss([0, 1, 2], [0, 1, 0], { w: 1 });
  trainer.step();
  assert.equal(trainer.w, 1 - 0.5 * grad);
  trainer.delete();
});

test('Trainer without new is an NWError that says how to create one; with new it is a Trainer', () => {
  const data = nw.generateData({ nTrain: 10 });
  assert.throws(() => nw.Trainer(data.xTrain, data.yTrain), { name: 'NWError', message: 'Trainer: create one with new: new nw.Trainer(xTrain, yTrain, options)' });
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: 1 });
  assert.ok(trainer instanceof nw.Trainer);
  assert.equal(Object.getPrototypeOf(trainer), nw.Trainer.prototype);
  assert.ok(Number.isFinite(trainer.step()));
  trainer.delete();
});
