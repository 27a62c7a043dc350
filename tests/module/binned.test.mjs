// Binned Gaussian sums through the module: binnedPredict against predict within its own bounds, its
// errors, and selectBandwidth's approximate option (exact at small n, binned within lossBound at large n).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW } from './module.mjs';

const nw = await createNW();

// Keys uniform on [0, 5) (the module's own data), or clumped: two tight clusters (a generated data set
// squeezed into 0.1 around 1 and 3.5, alternately) and one lone far key, with the generated noise.
function sample(kind, n, seed) {
  const data = nw.generateData({ nTrain: n, seed });
  if (kind === 'random') return { x: Array.from(data.xTrain), y: Array.from(data.yTrain) };
  const x = Array.from(data.xTrain, (u, i) => (i % 2 ? 1 : 3.5) + 0.02 * (u - 2.5));
  x[n - 1] = 40;
  return { x, y: x.map((xi, i) => 2 * Math.sin(xi) + 3 + data.yTrain[i] - nw.target(data.xTrain[i])) };
}

// The keys themselves and 200 queries over [-1, 6): below the keys, between them, past the uniform ones.
const queriesFor = (keys) => [...keys, ...nw.testGrid(-1, 6, 200)];

const range = (values) => Math.max(...values) - Math.min(...values);

test('binnedPredict is within its bounds of predict on random and clumped keys', () => {
  for (const [kind, seed] of [['random', 21], ['clumped', 22]]) {
    const { x, y } = sample(kind, 3000, seed);
    const queries = queriesFor(x);
    for (const w of [0.5, 5, 25]) {
      const binned = nw.binnedPredict(queries, x, y, { w });
      const exact = nw.predict(queries, x, y, { w });
      assert.equal(binned.predictions.length, queries.length);
      assert.equal(binned.bounds.length, queries.length);
      assert.ok(binned.gridPoints >= 2, `${kind} w = ${w}: ${binned.gridPoints} grid points`);
      let worstRatio = 0;
      let finiteBounds = 0;
      for (let i = 0; i < queries.length; i++) {
        const error = Math.abs(binned.predictions[i] - exact[i]);
        // predict's own rounding (about 1e-13 of the value) beside the binned bound
        assert.ok(error <= binned.bounds[i] + 1e-13 * Math.abs(exact[i]),
          `${kind} w = ${w} query ${queries[i]}: ${binned.predictions[i]} vs predict's ${exact[i]}, bound ${binned.bounds[i]}`);
        if (Number.isFinite(binned.bounds[i])) {
          finiteBounds++;
          worstRatio = Math.max(worstRatio, error / binned.bounds[i]);
        }
      }
      // The predictions are approximate and the bounds not vacuously loose: some error comes near its bound.
      assert.ok(worstRatio > 1e-3, `${kind} w = ${w}: the largest error is ${worstRatio} of its bound`);
      assert.ok(finiteBounds >= x.length / 2, `${kind} w = ${w}: most bounds are finite (${finiteBounds} of ${queries.length})`);
    }
  }
});

test('binnedPredict\'s bounds are below 1e-5 of the values\' range where keys are dense', () => {
  const { x, y } = sample('random', 20000, 3);
  const queries = Array.from({ length: 400 }, (_, i) => 0.5 + (4 * i) / 400);
  const tolerance = 1e-5 * range(y);
  for (const w of [1, 14]) {
    const { bounds } = nw.binnedPredict(queries, x, y, { w });
    const worst = Math.max(...bounds);
    assert.ok(worst > 0, `w = ${w}: a bound of 0 would claim exact sums`);
    assert.ok(worst < tolerance, `w = ${w}: largest bound ${worst}, 1e-5 of the range is ${tolerance}`);
  }
});

test('binnedPredict refuses bad input with an NWError naming the parameter', () => {
  const x = [0, 1, 2];
  const y = [1, 3, 2];
  const invalid = [
    ['w of 0', () => nw.binnedPredict([1], x, y, { w: 0 }), /^w must be nonzero/],
    ['NaN w', () => nw.binnedPredict([1], x, y, { w: NaN }), /^w must be a finite number, got NaN$/],
    ['a kernel option', () => nw.binnedPredict([1], x, y, { kernel: 'gaussian' }), /^options: unknown option 'kernel' \(expected w\)$/],
    ['a number for queries', () => nw.binnedPredict(3, x, y, { w: 1 }), /^queries must be an array or typed array of numbers, got number$/],
    ['empty queries', () => nw.binnedPredict([], x, y, { w: 1 }), /^queries must not be empty$/],
  ];
  for (const [name, call, message] of invalid) {
    assert.throws(call, (error) => {
      assert.ok(error instanceof nw.NWError, `${name}: an NWError, got ${error}`);
      assert.match(error.message, message, name);
      return true;
    }, name);
  }
});

test('selectBandwidth: approximate \'never\' and \'auto\' agree bit for bit at n = 50, both exact', () => {
  for (const seed of [1, 2, 3]) {
    const { xTrain, yTrain } = nw.generateData({ nTrain: 50, seed });
    const never = nw.selectBandwidth(xTrain, yTrain, { approximate: 'never' });
    const auto = nw.selectBandwidth(xTrain, yTrain, { approximate: 'auto' });
    assert.deepEqual(auto, never, `seed ${seed}`);
    assert.deepEqual(nw.selectBandwidth(xTrain, yTrain), auto, `seed ${seed}: 'auto' is the default`);
    assert.equal(auto.approximate, false);
    assert.equal(auto.lossBound, 0);
    assert.equal(auto.loss, nw.looLoss(xTrain, yTrain, { w: auto.w }).loss, `seed ${seed}: the loss is looLoss's`);
  }
  assert.throws(() => nw.selectBandwidth([0, 1, 2], [1, 3, 2], { approximate: 'sometimes' }),
    (error) => error instanceof nw.NWError && /^approximate must be one of auto, never, got 'sometimes'$/.test(error.message));
});

test('selectBandwidth at n = 12000 uses the binned loss, within lossBound of looLoss, at a local minimum', () => {
  const { xTrain, yTrain } = nw.generateData({ nTrain: 12000, seed: 2 });
  const choice = nw.selectBandwidth(xTrain, yTrain, { approximate: 'auto' });
  assert.equal(choice.approximate, true);
  assert.equal(choice.atLimit, 'none');
  const exact = nw.looLoss(xTrain, yTrain, { w: choice.w }).loss;
  assert.ok(choice.lossBound > 0 && choice.lossBound <= 1e-5 * exact, `lossBound ${choice.lossBound} for a loss of ${exact}`);
  assert.ok(Math.abs(choice.loss - exact) <= choice.lossBound,
    `loss ${choice.loss}, looLoss ${exact}: ${Math.abs(choice.loss - exact)} apart, bound ${choice.lossBound}`);
  for (const factor of [0.98, 1.02]) {
    const nearby = nw.looLoss(xTrain, yTrain, { w: choice.w * factor }).loss;
    assert.ok(nearby >= exact - choice.lossBound, `looLoss at ${factor} w is ${nearby}, below ${exact} - ${choice.lossBound}`);
  }
});

// The audit's cases through the module (tests/cpp/binned_bounds.test.cpp checks them against long-double
// references): each prediction within the values' range, the final rounding in the bound.
test('binnedPredict at a large offset, a huge w and values of any size: within the values and the bounds', () => {
  const offset = nw.binnedPredict([0.77], [0, 0.5, 1], [1e15 + 0.25, 1e15 + 0.5, 1e15 + 0.875], { w: 2 });
  const exact = nw.predict([0.77], [0, 0.5, 1], [0.25, 0.5, 0.875], { w: 2 })[0] + 1e15; // the offset, exactly
  assert.ok(Math.abs(offset.predictions[0] - exact) <= offset.bounds[0], `${offset.predictions[0]} vs ${exact}, bound ${offset.bounds[0]}`);
  for (const w of [1e4, 1e6]) {
    const far = nw.binnedPredict([0.3], [0, 1], [1, 2], { w });
    assert.ok(far.predictions[0] >= 1 && far.predictions[0] <= 2, `w = ${w}: ${far.predictions[0]}`);
    assert.ok(Math.abs(far.predictions[0] - 1) <= far.bounds[0], `w = ${w}: bound ${far.bounds[0]}`);
  }
  const keys = nw.testGrid(0, 5, 1000);
  for (const c of [1e-20, 1e16, 1e200]) {
    const values = Array.from(keys, (k) => c * Math.sin(k));
    const { predictions, bounds } = nw.binnedPredict([1, 2.5, 4], keys, values, { w: 1 });
    const exactLine = nw.predict([1, 2.5, 4], keys, values.map((v) => v / c), { w: 1 });
    for (let i = 0; i < 3; i++) {
      assert.ok(Number.isFinite(bounds[i]) && bounds[i] <= 1e-5 * c * 2, `c = ${c}: bound ${bounds[i]}`);
      assert.ok(Math.abs(predictions[i] / c - exactLine[i]) <= bounds[i] / c + 1e-13, `c = ${c}: ${predictions[i] / c} vs ${exactLine[i]}`);
    }
  }
});

test('binnedPredict names keys and values in its errors', () => {
  for (const [call, parameter, message] of [
    [() => nw.binnedPredict([1], [0, NaN], [1, 2], { w: 1 }), 'keys', /^keys\[1\] must be a finite number/],
    [() => nw.binnedPredict([1], [0, 1], [1, Infinity], { w: 1 }), 'values', /^values\[1\] must be a finite number/],
    [() => nw.binnedPredict([1], [0, 1], [1], { w: 1 }), 'values', /^values must have the same length as keys/],
  ]) {
    assert.throws(call, (error) => error instanceof nw.NWError && error.parameter === parameter && message.test(error.message),
      `${parameter}: ${message}`);
  }
});

test('binnedLooLoss: looLoss\'s loss and gradient within their bounds, at n = 3000 and at an offset of 1e9', () => {
  const { xTrain, yTrain } = nw.generateData({ nTrain: 3000, seed: 4 });
  for (const [name, y] of [['chapter', yTrain], ['offset', Array.from(yTrain, (v) => v + 1e9)]]) {
    for (const w of [0.7, 6, 30]) {
      for (const leaveOneOut of [true, false]) {
        const binned = nw.binnedLooLoss(xTrain, y, { w, leaveOneOut });
        const exact = nw.looLoss(xTrain, y, { w, leaveOneOut });
        const label = `${name} w = ${w} leaveOneOut ${leaveOneOut}: ${JSON.stringify(binned)} vs ${JSON.stringify(exact)}`;
        assert.ok(Math.abs(binned.loss - exact.loss) <= binned.lossBound + 1e-12 * exact.loss, label);
        assert.ok(Math.abs(binned.grad - exact.grad) <= binned.gradBound + 1e-12 * Math.abs(exact.grad), label);
        if (name === 'chapter') {
          assert.equal(binned.exactRows, 0, label);
          assert.ok(binned.gradBound * w <= 1e-4 * exact.loss && binned.lossBound <= 1e-5 * exact.loss, label);
        }
      }
    }
  }
  assert.throws(() => nw.binnedLooLoss(xTrain, yTrain, { w: 0 }), (e) => e instanceof nw.NWError && e.parameter === 'w');
  assert.throws(() => nw.binnedLooLoss(xTrain, yTrain, { kernel: 'boxcar' }), (e) => e instanceof nw.NWError && e.parameter === 'options');
});

test("attentionBlocks with approximate: 'auto' bins beyond 1e7 pairs, each block and prediction within its bound", () => {
  const data = nw.generateData({ nTrain: 20000, seed: 4 });
  const queries = nw.testGrid(-0.5, 5.5, 600); // (some beyond the keys)
  for (const w of [0.7, 6, 60]) {
    const options = { w, maxBlockRows: 60, maxBlockCols: 80 };
    const exact = nw.attentionBlocks(queries, data.xTrain, data.yTrain, options);
    const binned = nw.attentionBlocks(queries, data.xTrain, data.yTrain, { ...options, approximate: 'auto' });
    assert.equal(exact.approximate, false);
    assert.equal(exact.weightBounds, undefined);
    assert.equal(binned.approximate, true);
    assert.equal(binned.weightBounds.length, exact.weight.length);
    exact.weight.forEach((weight, k) => assert.ok(Math.abs(binned.weight[k] - weight) <= binned.weightBounds[k], `w ${w}, block ${k}: ${binned.weight[k]} vs ${weight} +- ${binned.weightBounds[k]}`));
    exact.predictions.forEach((p, i) => assert.ok(Math.abs(binned.predictions[i] - p) <= binned.predictionBounds[i], `w ${w}, query ${i}`));
    assert.ok(Math.max(...binned.weightBounds) < 1e-6, 'the bounds are small');
  }
  // Within 1e7 pairs, another kernel, or unsorted keys: exact.
  assert.equal(nw.attentionBlocks(queries.subarray(0, 500), data.xTrain, null, { approximate: 'auto' }).approximate, false);
  assert.equal(nw.attentionBlocks(queries, data.xTrain, null, { approximate: 'auto', kernel: 'epanechnikov' }).approximate, false);
  const unsorted = Float64Array.from(data.xTrain).reverse();
  assert.equal(nw.attentionBlocks(queries, unsorted, null, { approximate: 'auto' }).approximate, false);
  assert.throws(() => nw.attentionBlocks(queries, data.xTrain, null, { approximate: 'yes' }), { code: 'unknown-value', parameter: 'approximate' });
});
