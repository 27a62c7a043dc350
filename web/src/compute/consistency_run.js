// Runs the consistency figure's computation: in Workers where the page can start them (over http), one n
// per request, two at a time on a machine with two cores or more; else on the page's thread one n per
// task (a page opened from file://), yielding to the browser between them, up to PAGE_MAX_N. Reports
// each point as it comes (not in the order of n when workers share the sizes), and can be cancelled at
// any time (the workers are terminated; on the page's thread, no further n is started).
import { CONSISTENCY_NS, PAGE_MAX_N, consistencyPoint } from '../model/consistency_point.js';
import { inSandbox } from '../embed/sandbox.js';

// Beside index.html in dist/ (bundled from web/src/compute/consistency.worker.js).
export const WORKER_URL = 'consistency_worker.js';
// A worker that has not said it is ready by then (its module loads well within a second) is given up
// for the other or the page's thread: some browsers start a worker from file:// that never runs. Not
// its first point: a worker's first n may be the largest, which takes seconds.
const FIRST_REPLY_TIMEOUT_MS = 5000;
const MAX_WORKERS = 2;
// How many workers a run starts (and how many are worth warming for one).
export const workerCount = () => Math.min(MAX_WORKERS, Math.max(1, globalThis.navigator?.hardwareConcurrency || 1));
// The browser's Worker, but for a sandboxed frame, which may not load one from its server.
export function startBrowserWorker(url) {
  if (inSandbox()) throw new Error('a sandboxed frame cannot start a worker');
  return new Worker(url);
}

// The order in which workers take the sizes: the largest first (it takes about as long as all the others
// together, so one worker starts it while the other goes through the rest), then the small ones from the
// smallest (their points appear at once), then the others from the largest down, so that the last ones
// are short enough for whichever worker is free: with the small ones last instead, one worker went on
// alone with 200,000 for a second after the other had finished 500,000.
const SMALL_FRACTION = 50; // of the largest n: "small"
export function workOrder(ns) {
  const ascending = [...ns].sort((a, b) => a - b);
  if (ascending.length < 2) return ascending;
  const largest = ascending.pop();
  const small = ascending.filter((n) => n <= largest / SMALL_FRACTION);
  const rest = ascending.filter((n) => n > largest / SMALL_FRACTION).reverse();
  return [largest, ...small, ...rest];
}

class ConsistencyRun {
  // nw: the page's module (for the page's thread); onPoint(point, index), onDone(where), onError(message).
  // startWorker stands in for the browser's Worker (tests replace it); workers: how many to start;
  // warm: a WarmWorkers whose waiting workers are taken before any is started.
  constructor({
    nw, seed, onPoint, onDone, onError, ns = CONSISTENCY_NS,
    startWorker = startBrowserWorker,
    workers = workerCount(),
    warm = null,
  }) {
    Object.assign(this, { nw, seed, onPoint, onDone, onError, startWorker, warm, workerCount: workers });
    this.queue = workOrder(ns);
    this.count = 0;
    this.cancelled = false;
    this.workers = new Map(); // worker -> { n in flight, timer until its first reply }
    this.where = 'page';
  }

  start() {
    for (let i = 0; i < this.workerCount; i++) {
      const warmed = this.warm?.take();
      if (warmed) {
        this.addWorker(warmed.worker, warmed.ready);
        continue;
      }
      try {
        this.addWorker(this.startWorker(WORKER_URL));
      } catch {
        break; // file:// pages may not start workers
      }
    }
    if (this.workers.size === 0) {
      this.runHere();
      return;
    }
    this.where = 'worker';
    for (const worker of [...this.workers.keys()]) this.dispatch(worker);
  }

  // How many points the run gives when it is not cancelled: the page's thread stops at PAGE_MAX_N.
  get total() {
    return this.count + (this.where === 'page' ? this.queue.filter((n) => n <= PAGE_MAX_N).length
      : this.queue.length + [...this.workers.values()].filter((state) => state.n !== null).length);
  }

  // ready: the worker has said so already (a warmed one): no timeout for its first reply.
  addWorker(worker, ready = false) {
    const state = { n: null, timer: ready ? null : setTimeout(() => this.giveUp(worker), FIRST_REPLY_TIMEOUT_MS) };
    this.workers.set(worker, state);
    worker.onmessage = ({ data }) => this.receive(worker, data);
    // A worker that cannot load (no worker script, a blocked module) leaves its work to the others.
    worker.onerror = (event) => {
      event.preventDefault();
      this.giveUp(worker);
    };
  }

  // The next size to a worker, or, with none left, the worker stopped (and the run done with the last).
  dispatch(worker) {
    const state = this.workers.get(worker);
    state.n = this.queue.shift() ?? null;
    if (state.n !== null) {
      worker.postMessage({ n: state.n, seed: this.seed });
      return;
    }
    this.stopWorker(worker);
    if (this.workers.size === 0) this.onDone(this.where);
  }

  receive(worker, data) {
    const state = this.workers.get(worker);
    if (this.cancelled || !state) return;
    clearTimeout(state.timer);
    if (data.ready) return;
    if (data.error !== undefined) {
      this.stopAll();
      this.onError(data.error);
      return;
    }
    state.n = null;
    this.onPoint(data.point, this.count++);
    if (!this.cancelled) this.dispatch(worker);
  }

  // A worker that failed or never answered: its size goes back to the queue, for the other worker or,
  // with none left, for the page's thread.
  giveUp(worker) {
    const state = this.workers.get(worker);
    if (this.cancelled || !state) return;
    if (state.n !== null) this.queue.unshift(state.n);
    this.stopWorker(worker);
    if (this.workers.size > 0) return;
    this.where = 'page';
    this.runHere();
  }

  // One n per task, from the smallest left, up to PAGE_MAX_N: a larger n would hold the page for seconds.
  runHere() {
    this.queue = this.queue.filter((n) => n <= PAGE_MAX_N).sort((a, b) => a - b);
    const next = () => {
      if (this.cancelled) return;
      const n = this.queue.shift();
      if (n === undefined) {
        this.onDone(this.where);
        return;
      }
      let point;
      try {
        point = consistencyPoint(this.nw, n, this.seed);
      } catch (error) {
        this.onError(error.message);
        return;
      }
      this.onPoint(point, this.count++);
      setTimeout(next, 0);
    };
    setTimeout(next, 0);
  }

  cancel() {
    this.cancelled = true;
    this.stopAll();
  }

  stopWorker(worker) {
    clearTimeout(this.workers.get(worker)?.timer);
    worker.terminate();
    this.workers.delete(worker);
  }

  stopAll() {
    for (const worker of [...this.workers.keys()]) this.stopWorker(worker);
  }
}

export { ConsistencyRun };
