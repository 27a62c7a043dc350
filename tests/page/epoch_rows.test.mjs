// Training epochs from the row pool (web/src/epoch_rows.js) over Node's worker threads: "Train to
// convergence" (the Converger) reaches the same w and test MSE, epoch by epoch and bit for bit, as on
// the page's thread (the pool computing each epoch's test MSE line too), and so does the pool's
// stand-in in slices on this thread (no pool, or not ready yet); a cancel while rows are on their way keeps the epochs done; a pool that stops mid-run leaves
// the run to the page's thread; small data never goes to the pool, nor starts it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Converger } from '../../web/src/compute/converger.js';
import { EpochRows } from '../../web/src/compute/epoch_rows.js';
import { createSlicedRows } from '../../web/src/compute/sliced_rows.js';
import { Session } from '../../web/src/model/session.js';
import { defaults } from '../../web/src/model/settings.js';
import { createNodeRowPool } from '../../bench/node_row_pool.mjs';
import { createNW } from '../module/module.mjs';

const nw = await createNW();
// 600 samples: 360,000 key pairs an epoch, enough to go to the pool; a small lr so the run is long.
const settings = { ...defaults(), nTrain: 600, nTest: 40, lr: 0.002 };

// The module, counting the lines (predict, localLinear) computed through it.
function countingLines() {
  const counted = { lines: 0 };
  counted.nw = new Proxy(nw, {
    get(target, key) {
      if (key !== 'predict' && key !== 'localLinear') return target[key];
      return (...args) => { counted.lines += 1; return target[key](...args); };
    },
  });
  return counted;
}

function started(extra = {}, module = nw) {
  const session = new Session(module);
  session.generate({ ...settings, ...extra });
  return session;
}

// Runs "Train to convergence" to its end: { outcome, epochs, progress (how many reports) }.
function converge(session, epochRows, maxEpochs, { cancelAfter = Infinity } = {}) {
  return new Promise((resolve) => {
    let progress = 0;
    const converger = new Converger({
      session,
      epochRows,
      onProgress: () => {
        progress += 1;
        if (session.epoch >= cancelAfter) converger.cancel();
      },
      onDone: (result) => resolve({ ...result, progress }),
    });
    converger.start(maxEpochs);
  });
}

test('with the pool, "Train to convergence" takes the same epochs as the page\'s thread, bit for bit', async () => {
  const pool = createNodeRowPool(nw, 2);
  try {
    await pool.whenReady; // (before that, epochs run here)
    for (const extra of [{}, { estimator: 'localLinear' }, { kernel: 'epanechnikov', lr: 0.0005 }]) {
      const here = started(extra);
      const counted = countingLines();
      const pooled = started(extra, counted.nw);
      const epochRows = new EpochRows();
      epochRows.pool = pool;
      const a = await converge(here, null, 40);
      const b = await converge(pooled, epochRows, 40);
      assert.equal(counted.lines, 0, 'each epoch\'s test MSE line came from the pool too');
      const testMses = pooled.testMses;
      assert.equal(testMses.length, pooled.ws.length);
      testMses.forEach((mse, i) => assert.ok(Object.is(mse, here.testMses[i]), `${JSON.stringify(extra)} test MSE at epoch ${i}`));
      assert.equal(b.outcome, a.outcome);
      assert.ok(pooled.epoch > 5, `${pooled.epoch} epochs`);
      assert.equal(pooled.ws.length, here.ws.length);
      pooled.ws.forEach((w, i) => assert.ok(Object.is(w, here.ws[i]), `${JSON.stringify(extra)} w after epoch ${i}`));
      pooled.losses.forEach((loss, i) => assert.ok(Object.is(loss, here.losses[i])));
      assert.equal(epochRows.sentData, pooled.data, 'the data went to the pool');
      assert.ok(b.progress >= pooled.epoch - 1, 'progress is reported after each unfinished epoch');

      // Without a ready pool, the same rows in slices on this thread, each in a task of its own.
      const countedHere = countingLines();
      const sliced = started(extra, countedHere.nw);
      let tasks = 0;
      const slicedRows = new EpochRows({ createSliced: () => createSlicedRows(nw, { defer: (fn) => { tasks += 1; setTimeout(fn, 0); } }) });
      const c = await converge(sliced, slicedRows, 40);
      assert.equal(c.outcome, a.outcome);
      assert.equal(countedHere.lines, 0, 'the lines came in slices too');
      assert.deepEqual(sliced.ws, here.ws);
      sliced.ws.forEach((w, i) => assert.ok(Object.is(w, here.ws[i]), `sliced: w after epoch ${i}`));
      sliced.testMses.forEach((mse, i) => assert.ok(Object.is(mse, here.testMses[i]), `sliced: test MSE at epoch ${i}`));
      assert.ok(tasks >= 16 * sliced.epoch, `${tasks} tasks for ${sliced.epoch} epochs: at least 16 each`);
    }
  } finally {
    pool.terminate();
  }
});

test('fewer test points than slices (5 in 16): an epoch in slices still predicts its test MSE line, as here', async () => {
  const here = started({ nTest: 5 });
  const sliced = started({ nTest: 5 });
  const slicedRows = new EpochRows({ createSliced: () => createSlicedRows(nw) });
  const a = await converge(here, new EpochRows(), 3);
  const b = await converge(sliced, slicedRows, 3);
  assert.equal(b.outcome, a.outcome);
  assert.equal(sliced.epoch, 3);
  sliced.ws.forEach((w, i) => assert.ok(Object.is(w, here.ws[i]), `w after epoch ${i}`));
  sliced.testMses.forEach((mse, i) => assert.ok(Number.isFinite(mse) && Object.is(mse, here.testMses[i]), `test MSE at epoch ${i}`));
});

test('Cancel while an epoch\'s rows are on their way keeps the epochs done and drops the late rows', async () => {
  const pool = createNodeRowPool(nw, 2);
  try {
    await pool.whenReady;
    const session = started();
    const epochRows = new EpochRows();
    epochRows.pool = pool;
    const result = await converge(session, epochRows, 40, { cancelAfter: 3 });
    assert.equal(result.outcome, 'cancelled');
    assert.equal(session.epoch, 3);
    await new Promise((resolve) => setTimeout(resolve, 200)); // any rows still computed arrive
    assert.equal(session.epoch, 3, 'no epoch after the cancel');
    const trainer = new nw.Trainer(session.data.xTrain, session.data.yTrain, { w0: session.data.w0, lr: settings.lr });
    for (let i = 0; i < 3; i++) trainer.step();
    assert.ok(Object.is(session.learnedW, trainer.w));
    trainer.delete();
  } finally {
    pool.terminate();
  }
});

test('a pool that stops mid-run leaves the rest of the run to the page\'s thread; small data stays here', async () => {
  const pool = createNodeRowPool(nw, 2);
  await pool.whenReady;
  const session = started();
  const epochRows = new EpochRows();
  epochRows.pool = pool;
  let asked = 0;
  const counting = { request: (s) => { asked += 1; if (asked === 4) pool.terminate('stopped by the test'); return epochRows.request(s); } };
  const result = await converge(session, counting, 12);
  assert.equal(result.outcome, 'limit');
  assert.equal(session.epoch, 12);
  assert.equal(epochRows.request(session), null, 'a stopped pool is not asked again');
  const here = started();
  await converge(here, null, 12);
  assert.ok(Object.is(session.learnedW, here.learnedW));

  let created = 0;
  let fresh = null;
  const small = new EpochRows({ createPool: () => { created += 1; fresh = createNodeRowPool(nw, 2); return fresh; } });
  small.prepare(started({ nTrain: 50 }));
  assert.equal(created, 0, 'no workers for 50 samples');
  small.prepare(started({ nTrain: 500 }));
  small.prepare(started({ nTrain: 600 }));
  assert.equal(created, 1, 'the pool is started once, for the first large data');
  try {
    assert.equal(small.request(started({ nTrain: 500 })), null, 'a pool not ready yet: each epoch here');
    await fresh.whenReady;
    assert.equal(small.request(started({ nTrain: 50 })), null, '50 samples: each epoch here');
    const pending = small.request(started({ nTrain: 500 }));
    assert.notEqual(pending, null, '500 samples: the pool');
    assert.equal((await pending).rows.lossRows.length, 500);
  } finally {
    fresh.terminate();
  }
});
