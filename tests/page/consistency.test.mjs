// The consistency figure's claims, computed from the module as the page computes them (consistency_point.js)
// and checked against what its note says: the chosen w grows with n and its test MSE falls, the fixed w's
// test MSE levels off, the binned sums take over where the exact ones are slow, within their bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW } from '../module/module.mjs';
import { CONSISTENCY_NS, FIXED_W, PAGE_MAX_N, consistencyPoint } from '../../web/src/model/consistency_point.js';
import { consistencyNote } from '../../web/src/figures/consistency.js';
import { ConsistencyRun, workOrder } from '../../web/src/compute/consistency_run.js';
import { WarmWorkers } from '../../web/src/compute/warm_workers.js';

const nw = await createNW();
const points = CONSISTENCY_NS.map((n) => consistencyPoint(nw, n, 1));
const at = (n) => points.find((p) => p.n === n);

// Spearman's rank correlation of two equally long lists without ties.
function rankCorrelation(a, b) {
  const ranks = (xs) => { const order = xs.map((x, i) => [x, i]).sort((p, q) => p[0] - q[0]); const r = []; order.forEach(([, i], k) => { r[i] = k; }); return r; };
  const [ra, rb] = [ranks(a), ranks(b)];
  const n = a.length;
  const d2 = ra.reduce((sum, r, i) => sum + (r - rb[i]) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

test('each point is the module\'s: data from the seed, selectBandwidth\'s w, predict\'s test MSE', () => {
  const data = nw.generateData({ nTrain: 200, seed: 1 });
  const choice = nw.selectBandwidth(data.xTrain, data.yTrain);
  assert.equal(at(200).w, choice.w);
  assert.equal(at(200).selectedMse, nw.meanSquaredError(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: choice.w }), data.yTruth));
  assert.equal(at(200).fixedMse, nw.meanSquaredError(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: FIXED_W }), data.yTruth));
});

test('the chosen w grows with n and its test MSE falls; the fixed w levels off far above it', () => {
  assert.ok(points.every((p) => p.atLimit === 'none' && p.selectedMse !== null));
  const ws = points.map((p) => p.w);
  assert.ok(ws.at(-1) > 5 * ws[0], `w from ${ws[0]} to ${ws.at(-1)}`);
  assert.ok(rankCorrelation(CONSISTENCY_NS, ws) >= 0.85, `w rises with n overall: ${ws.join(', ')}`);
  for (const [small, large] of [[100, 1000], [1000, 10000], [10000, 100000], [100000, 200000]]) {
    assert.ok(at(large).selectedMse < at(small).selectedMse, `test MSE falls from n = ${small} to ${large}`);
  }
  assert.ok(at(100000).selectedMse < at(50).selectedMse / 20);
  const level = points.filter((p) => p.n >= 1000).map((p) => p.fixedMse);
  assert.ok(Math.max(...level) / Math.min(...level) < 1.1, `the fixed w's test MSE levels off: ${level.join(', ')}`);
  assert.ok(Math.min(...level) > 100 * at(100000).selectedMse);
});

test('the binned loss is used only where the exact one is slow, and within its stated bound', () => {
  for (const p of points) assert.equal(p.approximate, p.n >= 10000, `n = ${p.n}`);
  for (const p of points.filter((q) => q.approximate)) assert.ok(p.lossBound > 0 && p.lossBound < 1e-5 * p.loss);
  // The bound holds against the exact loss at the chosen w (n = 10,000: about a second of exact sums).
  const data = nw.generateData({ nTrain: 10000, seed: 1 });
  const exact = nw.looLoss(data.xTrain, data.yTrain, { w: at(10000).w }).loss;
  assert.ok(Math.abs(at(10000).loss - exact) <= at(10000).lossBound, `${at(10000).loss} vs ${exact}`);
});

test('the note says what the points show, with their numbers', () => {
  const note = consistencyNote(points, { seed: 1, where: 'worker', done: true });
  const [first, last] = [points[0], points.at(-1)];
  assert.ok(note.includes(`w grows from ${first.w.toPrecision(4)} (n = 50) to ${last.w.toPrecision(4)} (n = ${last.n.toLocaleString('en-US')})`), note);
  assert.ok(note.includes(`the test MSE falls from ${first.selectedMse.toPrecision(3)} to ${last.selectedMse.toPrecision(3)}`), note);
  const level = points.filter((p) => p.n >= 1000).map((p) => p.fixedMse);
  assert.ok(note.includes(`between ${Math.min(...level).toPrecision(3)} and ${Math.max(...level).toPrecision(3)} for every n from 1,000 on`), note);
  const bound = Math.max(...points.filter((p) => p.approximate).map((p) => p.lossBound / p.loss));
  assert.ok(note.includes(`From n = 10,000 on`) && note.includes(`within ${bound.toExponential(0)} of the exact one`), note);
  assert.ok(note.endsWith('computed in workers.'));
  const partial = consistencyNote(points.slice(0, 3), { seed: 4, where: 'page', done: false });
  assert.ok(partial.includes("seed 4; computed on the page's thread") && partial.endsWith(`So far 3 of the ${CONSISTENCY_NS.length} sizes.`), partial);
  assert.ok(!partial.includes('binned'));
  assert.equal(consistencyNote([], { seed: 1, where: 'page', done: false }), '');
});

test('without a worker the run computes one n per task and stops when cancelled', async () => {
  const seen = [];
  await new Promise((resolve, reject) => {
    const run = new ConsistencyRun({
      nw, seed: 1, ns: [50, 100, 200, 500],
      startWorker: () => { throw new Error('no workers here'); },
      onPoint: (point, index) => { seen.push(point.n); if (index === 1) { run.cancel(); setTimeout(resolve, 50); } },
      onDone: () => reject(new Error('a cancelled run does not finish')),
      onError: reject,
    });
    run.start();
    assert.deepEqual(seen, [], 'the first point waits for its own task');
  });
  assert.deepEqual(seen, [50, 100]);
  const done = await new Promise((resolve, reject) => {
    const run = new ConsistencyRun({ nw, seed: 2, ns: [50, 100], startWorker: () => { throw new Error('none'); }, onPoint: () => {}, onDone: resolve, onError: reject });
    run.start();
  });
  assert.equal(done, 'page');
});

// Stands in for the browser's Worker: says it is ready, then answers each { n } with a point of that n
// after a tick, unless terminated; failAt: n makes it report an error event (logged) for that n instead.
class FakeWorker {
  constructor(log, { failAt = null } = {}) {
    Object.assign(this, { log, failAt, terminated: false, sent: [] });
    setTimeout(() => this.onmessage?.({ data: { ready: true } }), 0);
  }
  postMessage({ n, seed }) {
    this.sent.push(n);
    setTimeout(() => {
      if (this.terminated) return;
      if (n === this.failAt) {
        this.log.push(`failed at ${n}`);
        this.onerror({ preventDefault() {} });
      }
      else this.onmessage({ data: { point: { n, seed } } });
    }, 0);
  }
  terminate() { this.terminated = true; this.log.push('terminated'); }
}

const runWith = (options) => new Promise((resolve, reject) => {
  const points = [];
  const run = new ConsistencyRun({ nw, seed: 5, onPoint: (point) => points.push(point.n), onDone: (where) => resolve({ points, where, run }), onError: reject, ...options });
  run.start();
});

test('workers take the largest n first, then the small ones from the smallest, then the rest from the largest down, each n once', async () => {
  assert.deepEqual(workOrder([50, 500, 100, 200]), [500, 200, 100, 50]);
  assert.deepEqual(workOrder([10, 1000, 20, 50000, 5000]), [50000, 10, 20, 1000, 5000]);
  assert.deepEqual(workOrder([7]), [7]);
  assert.deepEqual([...workOrder(CONSISTENCY_NS)].sort((a, b) => a - b), CONSISTENCY_NS, 'each size once');
  const log = [];
  const started = [];
  const { points, where } = await runWith({
    ns: [50, 100, 200, 5000, 20000],
    workers: 2,
    startWorker: () => { const worker = new FakeWorker(log); started.push(worker); return worker; },
  });
  assert.equal(where, 'worker');
  assert.equal(started.length, 2);
  assert.deepEqual(started[0].sent[0], 20000, 'the largest first');
  assert.deepEqual(started[1].sent[0], 50);
  assert.deepEqual([...points].sort((a, b) => a - b), [50, 100, 200, 5000, 20000], 'each n once');
  assert.deepEqual([...started[0].sent, ...started[1].sent].sort((a, b) => a - b), [50, 100, 200, 5000, 20000]);
  assert.equal(log.filter((entry) => entry === 'terminated').length, 2, 'both workers stopped at the end');
});

test('a failing worker hands its n to the other; with none left, the page computes the rest up to its limit', async () => {
  const started = [];
  const log = [];
  const shared = await runWith({
    ns: [50, 100, 200],
    workers: 2,
    // The first worker is sent the largest n first, and fails at it.
    startWorker: () => { const worker = new FakeWorker(log, { failAt: started.length === 0 ? 200 : null }); started.push(worker); return worker; },
  });
  assert.deepEqual(log.filter((entry) => entry.startsWith('failed')), ['failed at 200']);
  assert.equal(shared.where, 'worker');
  assert.deepEqual([...shared.points].sort((a, b) => a - b), [50, 100, 200], 'the failed worker\'s n done by the other');
  assert.deepEqual(started[0].sent, [200]);
  assert.ok(started[1].sent.includes(200));

  // One worker, failing at its first n (above PAGE_MAX_N): the page's thread takes over, and stops at PAGE_MAX_N.
  const aloneLog = [];
  const alone = await runWith({
    ns: [50, 100, PAGE_MAX_N, 2 * PAGE_MAX_N],
    workers: 1,
    startWorker: () => new FakeWorker(aloneLog, { failAt: 2 * PAGE_MAX_N }),
  });
  assert.deepEqual(aloneLog.filter((entry) => entry.startsWith('failed')), [`failed at ${2 * PAGE_MAX_N}`]);
  assert.equal(alone.where, 'page');
  assert.deepEqual(alone.points, [50, 100, PAGE_MAX_N], 'the module\'s points, from the smallest, none above the limit');
});

test('Cancel stops every worker and no point comes after it', async () => {
  const log = [];
  const seen = [];
  await new Promise((resolve, reject) => {
    const run = new ConsistencyRun({
      nw, seed: 1, ns: [50, 100, 200, 500, 1000], workers: 2,
      startWorker: () => new FakeWorker(log),
      onPoint: (point, index) => { seen.push(point.n); if (index === 1) { run.cancel(); setTimeout(resolve, 50); } },
      onDone: () => reject(new Error('a cancelled run does not finish')),
      onError: reject,
    });
    run.start();
  });
  assert.equal(seen.length, 2);
  assert.equal(log.filter((entry) => entry === 'terminated').length, 2);
});

test('a worker whose first n takes longer than the ready timeout is not given up once it said it is ready', async () => {
  // A slow worker: ready at once, its one point after 5.2 s (past FIRST_REPLY_TIMEOUT_MS, 5 s).
  class SlowWorker extends FakeWorker {
    postMessage({ n, seed }) {
      this.sent.push(n);
      setTimeout(() => { if (!this.terminated) this.onmessage({ data: { point: { n, seed } } }); }, 5200);
    }
  }
  const { points, where } = await runWith({ ns: [2 * PAGE_MAX_N], workers: 1, startWorker: () => new SlowWorker([]) });
  assert.equal(where, 'worker');
  assert.deepEqual(points, [2 * PAGE_MAX_N]);
});

test('warmed workers: a run takes them first (one that said it is ready has no ready timeout), then starts its own', async () => {
  const log = [];
  const started = [];
  const warm = new WarmWorkers('consistency_worker.js', { count: 2, startWorker: () => { const worker = new FakeWorker(log); started.push(worker); return worker; } });
  warm.warm();
  warm.warm(); // no more than count wait
  assert.equal(started.length, 2);
  await new Promise((resolve) => setTimeout(resolve, 10)); // both say they are ready, to the pool
  // The slow worker's point comes after the ready timeout: a warmed worker that said it is ready keeps it.
  class SlowWorker extends FakeWorker {
    postMessage({ n, seed }) {
      this.sent.push(n);
      setTimeout(() => { if (!this.terminated) this.onmessage({ data: { point: { n, seed } } }); }, 5200);
    }
  }
  const slow = new WarmWorkers('consistency_worker.js', { count: 1, startWorker: () => new SlowWorker(log) });
  slow.warm();
  await new Promise((resolve) => setTimeout(resolve, 10));
  const own = [];
  const { points, where } = await runWith({
    ns: [50, 2 * PAGE_MAX_N], workers: 2, warm: slow,
    startWorker: () => { const worker = new FakeWorker(log); own.push(worker); return worker; },
  });
  assert.equal(where, 'worker');
  assert.deepEqual([...points].sort((a, b) => a - b), [50, 2 * PAGE_MAX_N]);
  assert.equal(own.length, 1, 'one warmed worker taken, one started');
  assert.equal(slow.take(), null, 'the pool gave its worker away');
  // Warmed workers taken by a run: the pool hands over each once, and a failed one never.
  const taken = [warm.take(), warm.take()];
  assert.deepEqual(taken.map((entry) => entry.ready), [true, true]);
  assert.equal(warm.take(), null);
  const failing = new WarmWorkers('consistency_worker.js', { count: 1, startWorker: () => new FakeWorker(log) });
  failing.warm();
  failing.idle[0].worker.onerror({ preventDefault() {} });
  assert.equal(failing.take(), null);
  failing.warm();
  assert.equal(failing.take(), null, 'after a failure no more are warmed');
  const none = new WarmWorkers('consistency_worker.js', { count: 2, startWorker: () => { throw new Error('file://'); } });
  none.warm();
  assert.equal(none.take(), null, 'where no worker can start, none waits');
});
