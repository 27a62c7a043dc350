// The page's drag preview scheduler (web/src/compute/heatmap_client.js) with a scripted stand-in for Worker and
// timers fired by hand, so that every order of replies can be played out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeatmapClient } from '../../web/src/compute/heatmap_client.js';

// Timers the test fires by hand: { ms, fire } for each pending one.
const timers = new Set();
const fakeTimers = {
  setTimeout: (fire, ms) => {
    const timer = { fire, ms };
    timers.add(timer);
    return timer;
  },
  clearTimeout: (timer) => timers.delete(timer),
};


class ScriptedWorker {
  static last = null;
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.terminated = false;
    ScriptedWorker.last = this;
  }
  postMessage(message) { this.sent.push(message); }
  terminate() { this.terminated = true; }
  reply(message) { this.onmessage({ data: message }); }
}

// A preview with recorded outcomes; computeHere answers with the request's w doubled.
function makePreview(WorkerClass = ScriptedWorker) {
  const log = [];
  const preview = new HeatmapClient({
    startWorker: (url) => new WorkerClass(url),
    timers: fakeTimers,
    computeHere: (request) => {
      if (request.w < 0) throw new Error('w must be at least 0');
      return { predictions: [request.w * 2], where: 'here' };
    },
    onResult: (request, blocks) => log.push({ w: request.w, blocks, sentBefore: ScriptedWorker.last?.sent.length }),
    onError: (request, message) => log.push({ w: request.w, error: message }),
  });
  return { preview, log, worker: ScriptedWorker.last };
}

const request = (w) => ({ w, kernel: 'gaussian', maxCells: 16, xTest: [0], xTrain: [0, 1], yTrain: [1, 2], generation: 3 });

test('a drag sends one request at a time; only the newest waiting w follows, sent before the reply is drawn', () => {
  const { preview, log, worker } = makePreview();
  assert.equal(preview.where, 'worker');
  assert.equal(worker.url, 'heatmap_worker.js');
  preview.request(request(1));
  preview.request(request(2));
  preview.request(request(3));
  assert.equal(worker.sent.length, 1, 'w = 2 and 3 wait while w = 1 is computed');
  assert.deepEqual(Object.keys(worker.sent[0]).sort(), ['approximate', 'id', 'kernel', 'maxCells', 'w', 'xTest', 'xTrain', 'yTrain']);
  worker.reply({ id: worker.sent[0].id, blocks: { predictions: [10] } });
  assert.equal(worker.sent.length, 2);
  assert.equal(worker.sent[1].w, 3, 'w = 2 was replaced by the newer w = 3');
  assert.deepEqual(log[0].blocks, { predictions: [10] });
  assert.equal(log[0].w, 1);
  assert.equal(log[0].sentBefore, 2, 'the next request left before this one was drawn');
  worker.reply({ id: worker.sent[0].id, blocks: { predictions: [99] } });
  assert.equal(log.length, 1, 'a reply to an older request is ignored');
  worker.reply({ id: worker.sent[1].id, blocks: { predictions: [30] } });
  assert.deepEqual(log.map((entry) => entry.w), [1, 3]);
  preview.request(request(4));
  assert.equal(worker.sent.length, 3, 'with nothing in flight a request leaves at once');
});

test('an error from the worker is reported with its request, and the drag goes on', () => {
  const { preview, log, worker } = makePreview();
  preview.request(request(1));
  preview.request(request(2));
  worker.reply({ id: worker.sent[0].id, error: 'w must be a finite number, got NaN' });
  assert.deepEqual(log, [{ w: 1, error: 'w must be a finite number, got NaN' }]);
  assert.equal(worker.sent.length, 2);
  assert.equal(preview.where, 'worker');
});

test('a worker whose module cannot load hands the newest request, and all later ones, to the page', () => {
  const { preview, log, worker } = makePreview();
  preview.request(request(1));
  preview.request(request(2));
  worker.reply({ id: worker.sent[0].id, unavailable: 'no WebAssembly' });
  assert.equal(worker.terminated, true);
  assert.equal(preview.where, 'page');
  assert.deepEqual(log.map((entry) => [entry.w, entry.blocks.where]), [[2, 'here']]);
  preview.request(request(5));
  assert.deepEqual(log.at(-1).blocks.predictions, [10]);
});

test('a worker that does not answer in time, or sends what cannot be read, is replaced by the page thread', () => {
  timers.clear();
  const { preview, log, worker } = makePreview();
  preview.request(request(1));
  worker.reply({ id: worker.sent[0].id, blocks: { predictions: [10] } });
  assert.equal(timers.size, 0, 'an answered request leaves no timer behind');
  preview.request(request(2));
  preview.request(request(3));
  assert.equal(timers.size, 1);
  const [timer] = timers;
  assert.equal(timer.ms, 5000);
  timer.fire();
  assert.equal(worker.terminated, true);
  assert.equal(preview.where, 'page');
  assert.deepEqual(log.map((entry) => entry.w), [1, 3], 'the newest request is computed on the page');

  const second = makePreview();
  second.preview.request(request(4));
  second.worker.onmessageerror({});
  assert.equal(second.preview.where, 'page');
  assert.deepEqual(second.log.map((entry) => entry.w), [4]);
});

test('a worker script that fails (an error event) is replaced by the page thread, without losing the request', () => {
  const { preview, log, worker } = makePreview();
  preview.request(request(1));
  let prevented = false;
  worker.onerror({ preventDefault: () => { prevented = true; } });
  assert.equal(prevented, true, 'the failure is handled, not reported as an uncaught error');
  assert.equal(preview.where, 'page');
  assert.deepEqual(log.map((entry) => entry.w), [1]);
});

test('where workers cannot start (file://), previews are computed on the page and errors are reported', () => {
  const { preview, log } = makePreview(class { constructor() { throw new Error('SecurityError: origin null'); } });
  assert.equal(preview.where, 'page');
  preview.request(request(2));
  preview.request(request(-1));
  assert.deepEqual(log.map((entry) => entry.blocks?.predictions ?? entry.error), [[4], 'w must be at least 0']);
});

test('requests of different slots (the drag, each heatmap) each keep their newest, sent in the order they came', () => {
  const { preview, log, worker } = makePreview();
  const slotted = (slot, w) => ({ ...request(w), slot });
  preview.request(slotted('nonparametric', 1));
  preview.request(slotted('parametric', 2));
  preview.request(slotted('kernel0', 3));
  preview.request(slotted('parametric', 4)); // replaces w = 2, and goes after kernel0
  preview.request(request(5)); // the drag's
  const answer = () => worker.reply({ id: worker.sent[worker.sent.length - 1].id, blocks: { predictions: [] } });
  for (let i = 0; i < 4; i++) answer();
  assert.deepEqual(worker.sent.map((message) => message.w), [1, 3, 4, 5]);
  assert.deepEqual(log.map((entry) => entry.w), [1, 3, 4, 5]);
  assert.equal(preview.waiting.size, 0);
});

test('when the worker fails, the in-flight request and every waiting slot are computed on the page, the newest of each, one per task', () => {
  const { preview, log, worker } = makePreview();
  preview.request({ ...request(1), slot: 'nonparametric' });
  preview.request({ ...request(2), slot: 'parametric' });
  preview.request({ ...request(3), slot: 'nonparametric' });
  preview.request({ ...request(4), slot: 'kernel0' });
  timers.clear();
  worker.onerror({ preventDefault() {} });
  assert.equal(preview.where, 'page');
  // The first at once, each other in a task of its own (a timer of 0 ms), in the order they came.
  assert.deepEqual(log.map((entry) => [entry.w, entry.blocks.where]), [[3, 'here']]);
  assert.deepEqual([...timers].map((timer) => timer.ms), [0]);
  [...timers][0].fire();
  assert.deepEqual(log.map((entry) => entry.w), [3, 2]);
  // A newer request of a slot still to compute replaces it (computed at once; the old one never).
  preview.request({ ...request(6), slot: 'kernel0' });
  assert.deepEqual(log.map((entry) => entry.w), [3, 2, 6]);
  for (const timer of [...timers]) { timers.delete(timer); timer.fire(); }
  assert.deepEqual(log.map((entry) => entry.w), [3, 2, 6], 'kernel0 at w = 4 is not computed after w = 6');
});
