// The validation table of the README, row by row: every invalid input is an NWError naming the
// parameter, and a million of them leave the module correct and its memory unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW } from './module.mjs';

const nw = await createNW();
const x = [0, 1, 2];
const y = [1, 3, 2];

const invalidCalls = [
  // arrays
  ['empty queries', () => nw.predict([], x, y), /^queries must not be empty$/],
  ['empty keys', () => nw.attentionWeights([1], []), /^keys must not be empty$/],
  ['empty values', () => nw.averagePool([]), /^values must not be empty$/],
  ['mismatched keys and values', () => nw.predict([1], [1, 2], [1]), /^values must have the same length as keys \(2\), got 1$/],
  ['mismatched training arrays', () => nw.looLoss([0, 1, 2], [1, 2]), /^yTrain must have the same length as xTrain \(3\), got 2$/],
  ['NaN in keys', () => nw.predict([1], [1, NaN], [1, 2]), /^keys\[1\] must be a finite number, got NaN$/],
  ['Infinity in queries', () => nw.predict([Infinity], x, y), /^queries\[0\] must be a finite number, got Infinity$/],
  ['-Infinity in yTrain', () => nw.looLoss(x, [1, -Infinity, 2]), /^yTrain\[1\] must be a finite number, got -Infinity$/],
  ['non-numeric entry', () => nw.predict([1], ['a'], [1]), /^keys\[0\] must be a finite number, got string$/],
  ['a number for an array', () => nw.predict(3, x, y), /^queries must be an array or typed array of numbers, got number$/],
  ['a string for an array', () => nw.averagePool('123'), /^values must be an array or typed array of numbers, got string$/],
  ['null for an array', () => nw.looLoss(null, y), /^xTrain must be an array or typed array of numbers, got object$/],
  ['a missing array', () => nw.attentionWeights([1]), /^keys must be an array or typed array of numbers, got undefined$/],
  ['an array-like object', () => nw.predict({ length: 1, 0: 1 }, x, y), /^queries must be an array or typed array/],
  ['one training point', () => nw.looLoss([1], [1]), /^xTrain must have at least 2 points/],
  ['training value beyond 1e100', () => nw.looLoss(x, [1, 1e101, 2]), /^yTrain\[1\] must be at most 1e100 in magnitude/],
  ['a matrix beyond 2^24 cells', () => nw.attentionWeights(new Float64Array(4097), new Float64Array(4096)), /^queries.length x keys.length must be at most 16777216 cells/],
  // sizes and data options
  ['nTrain of 0', () => nw.generateData({ nTrain: 0 }), /^nTrain must be an integer from 1 to 1000000, got 0$/],
  ['negative nTrain', () => nw.generateData({ nTrain: -5 }), /^nTrain must be an integer from 1 to 1000000, got -5$/],
  ['nTrain of 1e9', () => nw.generateData({ nTrain: 1e9 }), /^nTrain must be an integer from 1 to 1000000, got 1000000000$/],
  ['fractional nTest', () => nw.generateData({ nTest: 2.5 }), /^nTest must be an integer from 1 to 1000000, got 2.5$/],
  ['NaN nTest', () => nw.generateData({ nTest: NaN }), /^nTest must be an integer from 1 to 1000000, got NaN$/],
  ['negative noise', () => nw.generateData({ noiseSd: -1 }), /^noiseSd must be a finite number >= 0, got -1$/],
  ['infinite noise', () => nw.generateData({ noiseSd: Infinity }), /^noiseSd must be a finite number >= 0, got Infinity$/],
  ['xMin below 0', () => nw.generateData({ xMin: -1 }), /^xMin must be a number from 0 to 1e6/],
  ['xMin = xMax', () => nw.generateData({ xMin: 2, xMax: 2 }), /^xMax must be greater than xMin \(2\)/],
  ['xMin > xMax', () => nw.generateData({ xMin: 3, xMax: 1 }), /^xMax must be greater than xMin \(3\)/],
  ['NaN xMax', () => nw.generateData({ xMax: NaN }), /^xMax must be greater than xMin \(0\) and at most 1e6, got NaN$/],
  ['seed beyond 2^53', () => nw.generateData({ seed: 2 ** 60 }), /^seed must be an integer from 0 to 9007199254740991/],
  ['negative seed', () => nw.generateData({ seed: -1 }), /^seed must be an integer from 0 to 9007199254740991, got -1$/],
  ['fractional seed', () => nw.generateData({ seed: 1.5 }), /^seed must be an integer from 0 to 9007199254740991, got 1.5$/],
  ['string seed', () => nw.generateData({ seed: '1' }), /^seed must be a number, got string$/],
  ['target below 0', () => nw.target(-1), /^x must be a number from 0 to 1e6/],
  ['target of NaN', () => nw.target(NaN), /^x must be a number from 0 to 1e6 .*got NaN$/],
  ['target of a string', () => nw.target('1'), /^x must be a number, got string$/],
  // bandwidth and training options
  ['infinite w', () => nw.predict([1], x, y, { w: Infinity }), /^w must be a finite number, got Infinity$/],
  ['NaN w in looLoss', () => nw.looLoss(x, y, { w: NaN }), /^w must be a finite number, got NaN$/],
  ['null w', () => nw.attentionWeights([1], x, { w: null }), /^w must be a number, got object$/],
  ['lr of 0', () => new nw.Trainer(x, y, { lr: 0 }), /^lr must be a finite number > 0, got 0$/],
  ['negative lr', () => new nw.Trainer(x, y, { lr: -1 }), /^lr must be a finite number > 0, got -1$/],
  ['NaN lr', () => new nw.Trainer(x, y, { lr: NaN }), /^lr must be a finite number > 0, got NaN$/],
  ['infinite w0', () => new nw.Trainer(x, y, { w0: Infinity }), /^w0 must be a finite number, got Infinity$/],
  // option objects
  ['unknown option W', () => nw.predict([1], x, y, { W: 3 }), /^options: unknown option 'W' \(expected w, kernel, estimator\)$/],
  ['unknown localLinear option', () => nw.localLinear([1], x, y, { estimator: 'localLinear' }), /^options: unknown option 'estimator' \(expected w, kernel\)$/],
  ['unknown estimator', () => nw.predict([1], x, y, { estimator: 'll' }), /^estimator must be one of nadarayaWatson, localLinear, got 'll'$/],
  ['estimator as a number', () => nw.looLoss(x, y, { estimator: 1 }), /^estimator must be a string, got number$/],
  ['unknown estimator for selectBandwidth', () => nw.selectBandwidth(x, y, { estimator: 'LocalLinear' }), /^estimator must be one of nadarayaWatson, localLinear, got 'LocalLinear'$/],
  ['unknown criterion', () => nw.selectBandwidth(x, y, { criterion: 'bic' }), /^criterion must be one of looCv, aic, got 'bic'$/],
  ['leaveOneOut with the AIC', () => nw.selectBandwidth(x, y, { criterion: 'aic', leaveOneOut: true }), /^leaveOneOut applies only to criterion looCv/],
  ['unknown selectBandwidth option', () => nw.selectBandwidth(x, y, { lr: 1 }), /^options: unknown option 'lr' \(expected kernel, leaveOneOut, loss, estimator, criterion, approximate\)$/],
  ['unknown aicLoss option', () => nw.aicLoss(x, y, { leaveOneOut: false }), /^options: unknown option 'leaveOneOut' \(expected w, kernel, estimator\)$/],
  ['unknown estimator for a Trainer', () => new nw.Trainer(x, y, { estimator: null }), /^estimator must be a string, got object$/],
  ['unknown data option', () => nw.generateData({ ntrain: 5 }), /^options: unknown option 'ntrain' \(expected nTrain, nTest, noiseSd, xMin, xMax, seed\)$/],
  ['unknown trainer option', () => new nw.Trainer(x, y, { learningRate: 0.1 }), /^options: unknown option 'learningRate' \(expected w0, lr, kernel, leaveOneOut, loss, estimator\)$/],
  ['unknown kernel', () => nw.predict([1], x, y, { kernel: 'Gauss' }), /^kernel must be one of gaussian, boxcar, constant, epanechnikov, triangular, got 'Gauss'$/],
  ['kernel as a number', () => nw.attentionWeights([1], x, { kernel: 2 }), /^kernel must be a string, got number$/],
  ['leaveOneOut as a string', () => nw.looLoss(x, y, { leaveOneOut: 'no' }), /^leaveOneOut must be true or false, got string$/],
  ['training boxcar', () => new nw.Trainer(x, y, { kernel: 'boxcar' }), /^kernel: boxcar cannot be trained/],
  ['selecting for constant', () => nw.selectBandwidth(x, y, { kernel: 'constant' }), /^kernel: constant has a loss that is piecewise constant/],
  ['a grid of 0 points', () => nw.testGrid(0, 1, 0), /^n must be an integer from 1 to 1000000, got 0$/],
  ['an empty grid range', () => nw.testGrid(1, 1, 5), /^xMax must be greater than xMin \(1\), got 1$/],
  ['options as a number', () => nw.predict([1], x, y, 5), /^options must be an object, got number$/],
  ['options as an array', () => nw.looLoss(x, y, [1]), /^options must be an object, got object$/],
];

for (const [name, call, message] of invalidCalls) {
  test(`rejected with an NWError naming the parameter: ${name}`, () => {
    assert.throws(call, (error) => {
      assert.ok(error instanceof nw.NWError, `an NWError, got ${error}`);
      assert.ok(error instanceof Error);
      assert.equal(error.name, 'NWError');
      assert.match(error.message, message);
      return true;
    });
  });
}

test('a million errors leave the module correct, its memory unchanged, and its stack intact', () => {
  const expected = {
    prediction: Array.from(nw.predict([0.5, 1.5], x, y, { w: 2 })),
    loss: nw.looLoss(x, y, { w: 2 }),
    data: Array.from(nw.generateData({ seed: 3 }).yTrain),
  };
  const memoryBefore = nw.HEAP8.buffer.byteLength;
  let errors = 0;
  for (let i = 0; i < 1_000_000; i++) {
    try {
      invalidCalls[i % invalidCalls.length][1]();
    } catch (error) {
      if (error instanceof nw.NWError) errors++;
    }
  }
  assert.equal(errors, 1_000_000);
  assert.equal(nw.HEAP8.buffer.byteLength, memoryBefore, 'no growth of wasm memory');
  assert.deepEqual(Array.from(nw.predict([0.5, 1.5], x, y, { w: 2 })), expected.prediction);
  assert.deepEqual(nw.looLoss(x, y, { w: 2 }), expected.loss);
  assert.deepEqual(Array.from(nw.generateData({ seed: 3 }).yTrain), expected.data);
});

test('a diverging training run stops with a message and keeps the last finite w', () => {
  const trainer = new nw.Trainer([0, 1, 2, 3], [0, 5, -5, 0], { w0: 1, lr: 1e308 });
  assert.throws(() => trainer.step(), /^NWError: lr: training diverged at epoch 1 .*w is kept, try a smaller lr$/);
  assert.equal(trainer.w, 1);
  assert.equal(trainer.epoch, 0);
  trainer.delete();
});

test('numerical extremes give defined results and never NaN', () => {
  const keys = [0, 1, 2.5, 4];
  const values = [3, -1, 2, 8];
  const mean = nw.averagePool(values);
  for (const p of nw.predict([0.2, 3], keys, values, { w: 0 })) assert.ok(Math.abs(p - mean) < 1e-12, 'w = 0 is average pooling');
  for (const p of nw.predict([0.2, 3], keys, values, { w: 1e-300 })) assert.ok(Math.abs(p - mean) < 1e-12, 'w = 1e-300 too');
  assert.deepEqual(Array.from(nw.predict([0.2, 3], keys, values, { w: 1e300 })), [3, 2], 'w = 1e300 picks the nearest key');
  assert.deepEqual(Array.from(nw.predict([0.2, 3], keys, values, { w: -2 })), Array.from(nw.predict([0.2, 3], keys, values, { w: 2 })));
  const spread = [-1e300, -1, 0, 1e-300, 1e300];
  for (const w of [0, 1e-300, 1, 1e300]) {
    assert.ok(nw.predict(spread, spread, [1, 2, 3, 4, 5], { w }).every(Number.isFinite), `spread inputs, w = ${w}`);
    assert.ok(nw.attentionWeights(spread, spread, { w }).data.every(Number.isFinite));
    assert.ok(!Number.isNaN(nw.looLoss(spread, [1, 2, 3, 4, 5], { w }).grad));
  }
  assert.deepEqual(Array.from(nw.predict([0], [1, 1, 5], [2, 4, 100], { w: 1e9 })), [3], 'duplicate keys share the weight');
  assert.deepEqual(Array.from(nw.predict([-7, 9], [1], [42])), [42, 42], 'a single key');
  assert.deepEqual(nw.looLoss([0, 1], [1, 4], { w: 2 }), { loss: 18, grad: 0 }, 'two points: one key each');
  const data = nw.generateData();
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 1e6 });
  for (let epoch = 0; epoch < 10; epoch++) {
    try {
      assert.ok(Number.isFinite(trainer.step()));
    } catch (error) {
      assert.match(error.message, /^lr: training diverged/);
    }
    assert.ok(Number.isFinite(trainer.w));
  }
  trainer.delete();
});
