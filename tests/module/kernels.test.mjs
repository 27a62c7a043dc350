// The kernels, the leave-one-out switch, bandwidth selection and the test grid through the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW } from './module.mjs';

const nw = await createNW();
const data = nw.generateData({ seed: 1 });

test('kernelNames lists the five kernels and kernelValue gives their shapes', () => {
  assert.deepEqual(nw.kernelNames(), ['gaussian', 'boxcar', 'constant', 'epanechnikov', 'triangular']);
  assert.equal(nw.kernelValue('gaussian', 1), Math.exp(-0.5));
  assert.equal(nw.kernelValue('boxcar', 0.5), 1);
  assert.equal(nw.kernelValue('boxcar', 1), 0);
  assert.equal(nw.kernelValue('constant', 100), 1);
  assert.equal(nw.kernelValue('epanechnikov', 0.5), 0.75);
  assert.equal(nw.kernelValue('triangular', -0.25), 0.75);
});

test('every kernel gives row-stochastic weights that predict agrees with', () => {
  for (const kernel of nw.kernelNames()) {
    const m = nw.attentionWeights(data.xTest, data.xTrain, { w: 2, kernel });
    const p = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2, kernel });
    assert.ok(m.fallbackRows instanceof Uint8Array);
    for (let r = 0; r < m.rows; r++) {
      const row = m.data.subarray(r * m.cols, (r + 1) * m.cols);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12, `${kernel} row ${r} sums to 1`);
      const viaWeights = row.reduce((acc, a, i) => acc + a * data.yTrain[i], 0);
      assert.ok(Math.abs(viaWeights - p[r]) < 1e-12, `${kernel} row ${r}`);
    }
  }
});

test('the constant kernel is average pooling', () => {
  const mean = nw.averagePool(data.yTrain);
  for (const p of nw.predict(data.xTest, data.xTrain, data.yTrain, { kernel: 'constant', w: 7 })) assert.ok(Math.abs(p - mean) < 1e-12);
});

test('a query outside a compact kernel\'s support falls back to its nearest key, and says so', () => {
  const m = nw.attentionWeights([2.7, 0.1], [0, 1, 5], { w: 2, kernel: 'epanechnikov' });
  assert.deepEqual(Array.from(m.fallbackRows), [1, 0]);
  assert.deepEqual(Array.from(m.data.subarray(0, 3)), [0, 1, 0]);
  assert.deepEqual(Array.from(nw.predict([2.7], [0, 1, 5], [10, 2, 8], { w: 2, kernel: 'triangular' })), [2]);
});

test('training works for every trainable kernel and lowers the loss', () => {
  for (const kernel of ['gaussian', 'epanechnikov', 'triangular']) {
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: 0.5, lr: 0.01, kernel });
    const first = trainer.step();
    let last = first;
    for (let i = 0; i < 10; i++) last = trainer.step();
    assert.ok(last < first, `${kernel}: ${last} < ${first}`);
    trainer.delete();
  }
});

test('without leave-one-out the training loss falls towards 0 as w runs away', () => {
  const seeing = new nw.Trainer(data.xTrain, data.yTrain, { w0: 1, lr: 0.5, leaveOneOut: false });
  const losses = Array.from({ length: 30 }, () => seeing.step());
  losses.slice(1).forEach((loss, i) => assert.ok(loss < losses[i]));
  assert.ok(seeing.w > 20);
  assert.ok(nw.looLoss(data.xTrain, data.yTrain, { w: 1e6, leaveOneOut: false }).loss < 1e-20);
  seeing.delete();
});

test('selectBandwidth returns the minimiser of looLoss, which training approaches', () => {
  const best = nw.selectBandwidth(data.xTrain, data.yTrain);
  assert.equal(best.loss, nw.looLoss(data.xTrain, data.yTrain, { w: best.w }).loss);
  for (const w of [0.5, 1, 5, 10, 30, 100]) assert.ok(nw.looLoss(data.xTrain, data.yTrain, { w }).loss >= best.loss);
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0 });
  let loss = 0;
  for (let i = 0; i < 500; i++) loss = trainer.step();
  assert.ok(Math.abs(loss - best.loss) < 1e-6 * best.loss);
  trainer.delete();
  assert.equal(best.atLimit, 'none');
  const epanechnikov = nw.selectBandwidth(data.xTrain, data.yTrain, { kernel: 'epanechnikov' });
  assert.ok(epanechnikov.w > 0 && Number.isFinite(epanechnikov.loss));
});

test('selectBandwidth says when the best is a limit (w = 0, average pooling) and when it is not', () => {
  // Without leave-one-out each key predicts itself as w grows, so the loss falls towards 0; a large
  // finite w already reaches 0 in doubles, and a tie keeps the finite w, so this is no limit.
  const selfSeen = nw.selectBandwidth(data.xTrain, data.yTrain, { leaveOneOut: false });
  assert.equal(selfSeen.loss, 0);
  assert.equal(selfSeen.atLimit, 'none');
  assert.ok(Number.isFinite(selfSeen.w) && selfSeen.w > 1);
  assert.equal(nw.looLoss(data.xTrain, data.yTrain, { w: selfSeen.w, leaveOneOut: false }).loss, 0);
  // Values that do not depend on x: nothing beats their mean, which w = 0 gives.
  const xs = [0, 1, 2, 3, 4, 5];
  const flat = nw.selectBandwidth(xs, [1, -1, 1, -1, 1, -1]);
  assert.equal(flat.atLimit, 'zero');
  assert.equal(flat.w, 0);
  assert.equal(flat.loss, nw.looLoss(xs, [1, -1, 1, -1, 1, -1], { w: 0 }).loss);
});

test('testGrid is the chapter\'s grid', () => {
  assert.deepEqual(Array.from(nw.testGrid(0, 5, 50)), Array.from(data.xTest));
  assert.deepEqual(Array.from(nw.testGrid(2, 3, 4)), [2, 2.25, 2.5, 2.75]);
});

test('attentionBlocks reduces the weights to blocks of exact cells, with the predictions from the same pass', () => {
  const big = nw.generateData({ nTrain: 300, nTest: 120, seed: 2 });
  const full = nw.attentionWeights(big.xTest, big.xTrain, { w: 4 });
  const b = nw.attentionBlocks(big.xTest, big.xTrain, big.yTrain, { w: 4, maxBlockRows: 50, maxBlockCols: 100 });
  assert.deepEqual([b.rows, b.cols, b.rowStep, b.colStep, b.blockRows, b.blockCols], [120, 300, 3, 3, 40, 100]);
  assert.ok(b.row instanceof Uint32Array && b.col instanceof Uint32Array && b.weight instanceof Float64Array);
  b.weight.forEach((v, i) => {
    assert.equal(full.data[b.row[i] * 300 + b.col[i]], v, 'the reported cell holds the reported weight');
    assert.equal(Math.floor(b.row[i] / 3) * 100 + Math.floor(b.col[i] / 3), i, 'the cell lies in its block');
  });
  const predicted = nw.predict(big.xTest, big.xTrain, big.yTrain, { w: 4 });
  b.predictions.forEach((p, i) => assert.ok(Math.abs(p - predicted[i]) < 1e-12));
  assert.equal(nw.attentionBlocks([1], [1, 2], null).predictions, undefined);
  assert.throws(() => nw.attentionBlocks([1], [1], null, { maxBlockRows: 0 }), /^NWError: maxBlockRows must be an integer from 1 to 4096/);
});
