// The row pool (web/src/row_pool.js) over Node's worker threads (bench/node_row_pool.mjs, the same pool
// and worker code as the page's): results equal one thread's bit for bit for any number of workers,
// kernel and estimator; the module's row functions behind it; and a pool whose worker fails, hangs or
// cannot load the module rejects with PoolUnavailable so its callers compute on the page's thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW } from '../module/module.mjs';
import { createNodeRowPool } from '../../bench/node_row_pool.mjs';
import { PoolUnavailable, RowPool, splitRows } from '../../web/src/compute/row_pool.js';

const nw = await createNW();
const sameBits = (a, b) => a.length === b.length && Array.prototype.every.call(a, (v, i) => Object.is(v, b[i]));

test('splitRows covers every row once, in order, in nearly equal ranges', () => {
  for (const [n, parts] of [[0, 2], [1, 3], [7, 2], [4096, 2], [1001, 4]]) {
    const ranges = splitRows(n, parts);
    assert.equal(ranges.length, parts);
    assert.equal(ranges[0][0], 0);
    assert.equal(ranges.at(-1)[1], n);
    for (let k = 1; k < parts; k++) assert.equal(ranges[k][0], ranges[k - 1][1]);
    const sizes = ranges.map(([a, b]) => b - a);
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1);
  }
});

test('looLossRows in ranges, summed by sumLooRows, is looLoss bit for bit; stepWithRows is step', () => {
  const d = nw.generateData({ nTrain: 777, nTest: 5, seed: 9 });
  for (const kernel of nw.kernelNames()) {
    for (const estimator of ['nadarayaWatson', 'localLinear']) {
      for (const w of [0, 0.6, 3, 40]) {
        const whole = nw.looLoss(d.xTrain, d.yTrain, { w, kernel, estimator, loss: 'halfSquared' });
        const a = nw.looLossRows(d.xTrain, d.yTrain, { w, kernel, estimator, rowEnd: 300 });
        const b = nw.looLossRows(d.xTrain, d.yTrain, { w, kernel, estimator, rowBegin: 300 });
        const summed = nw.sumLooRows([...a.lossRows, ...b.lossRows], [...a.gradRows, ...b.gradRows], { w, loss: 'halfSquared' });
        assert.ok(Object.is(summed.loss, whole.loss) && Object.is(summed.grad, whole.grad), `${kernel} ${estimator} w ${w}`);
      }
    }
  }
  const alone = new nw.Trainer(d.xTrain, d.yTrain, { w0: d.w0 });
  const withRows = new nw.Trainer(d.xTrain, d.yTrain, { w0: d.w0 });
  for (let epoch = 0; epoch < 4; epoch++) {
    const { lossRows, gradRows } = nw.looLossRows(d.xTrain, d.yTrain, { w: withRows.w });
    assert.ok(Object.is(withRows.stepWithRows(lossRows, gradRows), alone.step()));
    assert.ok(Object.is(withRows.w, alone.w));
  }
  alone.delete();
  withRows.delete();
});

test('the row functions name what is wrong', () => {
  const x = [0, 1, 2, 3];
  const y = [1, 0, 1, 0];
  const throwsWith = (f, pattern) => assert.throws(f, (error) => error instanceof nw.NWError && pattern.test(error.message));
  throwsWith(() => nw.looLossRows(x, y, { rowBegin: 3, rowEnd: 2 }), /^rowBegin and rowEnd must satisfy 0 <= rowBegin <= rowEnd <= xTrain.length \(4\), got 3 and 2$/);
  throwsWith(() => nw.looLossRows(x, y, { rowEnd: 5 }), /^rowEnd must be an integer from 0 to 4, got 5$/);
  throwsWith(() => nw.looLossRows(x, y, { rowBegin: NaN }), /^rowBegin must be an integer/);
  throwsWith(() => nw.looLossRows(x, y, { loss: 'squared' }), /unknown option 'loss'/);
  throwsWith(() => nw.sumLooRows([1, 2], [1]), /^gradRows must have the same length as lossRows \(2\), got 1$/);
  throwsWith(() => nw.sumLooRows([-1], [0]), /^lossRows\[0\] must be a finite number >= 0, got -1$/);
  throwsWith(() => nw.sumLooRows([1], [NaN]), /^gradRows\[0\] must not be NaN$/);
  throwsWith(() => nw.sumLooRows('1', [1]), /lossRows/);
  const trainer = new nw.Trainer(x, y, { w0: 1 });
  throwsWith(() => trainer.stepWithRows([1], [1]), /^lossRows must have one row per training point \(4\), got 1$/);
  assert.equal(trainer.w, 1);
  assert.equal(trainer.epoch, 0);
  trainer.delete();
});

test('a pool of 1, 2 or 3 worker threads predicts and sums the loss exactly as one thread does', async () => {
  const d = nw.generateData({ nTrain: 1003, nTest: 517, seed: 4 });
  for (const size of [1, 2, 3]) {
    const pool = createNodeRowPool(nw, size);
    try {
      pool.setData(d);
      for (const options of [{ w: 1 }, { w: 12, kernel: 'epanechnikov' }, { w: 3, estimator: 'localLinear' }]) {
        assert.ok(sameBits(await pool.predict(options), nw.predict(d.xTest, d.xTrain, d.yTrain, options)), `predict ${size} ${JSON.stringify(options)}`);
        const pooled = await pool.looLoss({ ...options, loss: 'halfSquared' });
        const single = nw.looLoss(d.xTrain, d.yTrain, { ...options, loss: 'halfSquared' });
        assert.ok(Object.is(pooled.loss, single.loss) && Object.is(pooled.grad, single.grad), `looLoss ${size} ${JSON.stringify(options)}`);
      }
      // New data: the next requests compute on it.
      const e = nw.generateData({ nTrain: 60, nTest: 9, seed: 5 });
      pool.setData(e);
      assert.ok(sameBits(await pool.predict({ w: 2 }), nw.predict(e.xTest, e.xTrain, e.yTrain, { w: 2 })));
      // A bad option is the module's error, and the pool stays usable.
      await assert.rejects(pool.predict({ w: NaN }), (error) => !(error instanceof PoolUnavailable) && /^w must be a finite number, got NaN$/.test(error.message));
      const { lossRows } = await pool.looRows({ w: 2 });
      assert.equal(lossRows.length, 60);
    } finally {
      pool.terminate();
    }
  }
});

// A stand-in worker that behaves as the script says: 'silent' never answers, 'unavailable' says the
// module did not load, 'crash' fires an error event; 'ready' says it is ready and then never answers.
function scriptedWorker(behaviour) {
  const worker = {
    terminated: false,
    postMessage() {},
    terminate() { worker.terminated = true; },
  };
  queueMicrotask(() => {
    if (behaviour === 'ready') worker.onmessage({ data: { ready: true } });
    if (behaviour === 'unavailable') worker.onmessage({ data: { unavailable: 'no wasm' } });
    if (behaviour === 'crash') worker.onerror({ message: 'boom', preventDefault() {} });
  });
  return worker;
}

test('a pool whose worker never gets ready, cannot load the module or crashes rejects with PoolUnavailable, for good', async () => {
  const d = nw.generateData({ nTrain: 20, nTest: 4, seed: 1 });
  for (const behaviour of ['silent', 'unavailable', 'crash']) {
    const scheduled = [];
    const timers = { setTimeout: (fn, ms) => { scheduled.push({ fn, ms }); return scheduled.length; }, clearTimeout: (id) => { if (scheduled[id - 1]) scheduled[id - 1].fn = null; } };
    const workers = [scriptedWorker('ready'), scriptedWorker(behaviour)];
    const pool = new RowPool({ nw, workers, timers });
    pool.setData(d);
    const rejected = assert.rejects(pool.predict({ w: 1 }), PoolUnavailable); // waits for the workers to be ready
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(pool.ready, false);
    if (behaviour === 'silent') {
      assert.deepEqual(scheduled.map(({ ms }) => ms), [5000]);
      scheduled[0].fn(); // the ready timeout fires
    }
    await rejected;
    assert.ok(workers.every((w) => w.terminated), behaviour);
    await assert.rejects(pool.looLoss({ w: 1 }), PoolUnavailable);
  }
});
