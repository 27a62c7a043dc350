// A pool of workers, one per core, that split a computation's rows between them: predictions of the
// test inputs, and the leave-one-out loss's rows (summed by this page's module, nw.sumLooRows, into
// exactly what nw.looLoss gives). Each worker has its own module and a copy of the data, sent once per
// data change (setData); a request sends only its options and row range. Results equal the single-
// thread answer bit for bit: a row's value does not depend on which worker computes it.
// Where workers cannot start (file://, a sandboxed frame) the pool is not made (createRowPool gives null).
import { inSandbox } from '../embed/sandbox.js';

// Beside index.html in dist/ (bundled from web/src/compute/rows.worker.js).
const WORKER_URL = 'rows_worker.js';
// Workers that have not all said they are ready by then (loading the module) are taken for dead (a
// page from file:// in Firefox starts workers that never run), and the pool with them.
const READY_TIMEOUT_MS = 5000;
const MAX_WORKERS = 4;

// Thrown (as a rejection) by every request once a worker has failed to start, load or answer.
class PoolUnavailable extends Error {}

// Row ranges [begin, end) splitting n rows into `parts` consecutive ranges of nearly equal size.
function splitRows(n, parts) {
  return Array.from({ length: parts }, (_, k) => [Math.floor((n * k) / parts), Math.floor((n * (k + 1)) / parts)]);
}

function concat(arrays) {
  const out = new Float64Array(arrays.reduce((sum, a) => sum + a.length, 0));
  let offset = 0;
  for (const a of arrays) {
    out.set(a, offset);
    offset += a.length;
  }
  return out;
}

class RowPool {
  // nw: this thread's module (it sums the loss's rows). workers: objects with postMessage(message,
  // transfer), terminate(), and onmessage/onerror the pool sets (browser Workers, or adapters).
  constructor({ nw, workers, timers = { setTimeout: (...a) => setTimeout(...a), clearTimeout: (id) => clearTimeout(id) } }) {
    this.nw = nw;
    this.timers = timers;
    this.broken = null; // why the pool stopped, once it has
    this.readyCount = 0;
    this.whenReady = new Promise((resolve, reject) => { this.settleReady = { resolve, reject }; });
    this.whenReady.catch(() => {}); // (a pool may stop before anyone waits for it)
    this.workers = workers.map((worker, index) => {
      const entry = { worker, pending: new Map() };
      worker.onmessage = (event) => this.receive(entry, event.data);
      worker.onerror = (event) => {
        if (event && event.preventDefault) event.preventDefault();
        this.fail(`row worker ${index} failed: ${(event && event.message) || 'no reason given'}`);
      };
      worker.onmessageerror = () => this.fail(`row worker ${index} could not read a message`);
      return entry;
    });
    this.readyTimer = this.timers.setTimeout(() => this.fail(`the row workers were not ready in ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    this.version = 0;
    this.rows = { xTrain: 0, xTest: 0 };
    this.nextId = 1;
  }

  get size() { return this.workers.length; }

  // Every worker has loaded its module (and none has failed): requests start at once.
  get ready() { return !this.broken && this.readyCount === this.workers.length; }

  // Sends the data to every worker (copies of Float64Arrays); later requests compute on it.
  setData({ xTrain, yTrain, xTest }) {
    this.version += 1;
    const message = { type: 'data', version: this.version, xTrain: Float64Array.from(xTrain), yTrain: Float64Array.from(yTrain), xTest: Float64Array.from(xTest) };
    this.rows = { xTrain: message.xTrain.length, xTest: message.xTest.length };
    if (!this.broken) for (const { worker } of this.workers) worker.postMessage(message);
  }

  // The predictions at every xTest: options as nw.predict's ({ w, kernel, estimator }).
  async predict(options) {
    const parts = await this.run('predict', options, 'xTest');
    return concat(parts.map((part) => part.predictions));
  }

  // Every row of the leave-one-out loss (options as nw.looLossRows's, without the row range), for
  // nw.sumLooRows or a Trainer's stepWithRows.
  async looRows(options) {
    const parts = await this.run('looRows', options, 'xTrain');
    return { lossRows: concat(parts.map((part) => part.lossRows)), gradRows: concat(parts.map((part) => part.gradRows)) };
  }

  // nw.looLoss(xTrain, yTrain, options) of the pool's data, bit for bit.
  async looLoss({ loss, ...options } = {}) {
    const { lossRows, gradRows } = await this.looRows(options);
    return this.nw.sumLooRows(lossRows, gradRows, { w: options.w ?? 1, ...(loss === undefined ? {} : { loss }) });
  }

  terminate(reason = 'the row pool was closed') {
    this.fail(reason);
  }

  // Sends each worker its share of the rows of the newest data's `inputs` (xTrain or xTest), once all
  // are ready; resolves to their replies in order.
  async run(type, options, inputs) {
    if (!this.ready) await this.whenReady;
    if (this.broken) throw new PoolUnavailable(this.broken);
    const { version } = this;
    const ranges = splitRows(this.rows[inputs], this.workers.length);
    // Fewer rows than workers (5 test points in 16 slices): a worker with no rows is not asked, since
    // the module refuses an empty set of queries.
    const asked = this.workers.map((entry, k) => [entry, ranges[k]]).filter(([, [begin, end]]) => end > begin);
    return Promise.all(asked.map(([entry, [rowBegin, rowEnd]]) => new Promise((resolve, reject) => {
      const id = this.nextId++;
      entry.pending.set(id, { resolve, reject });
      entry.worker.postMessage({ type, id, version, options, rowBegin, rowEnd });
    })));
  }

  receive(entry, reply) {
    if (reply.ready) {
      this.readyCount += 1;
      if (this.ready) {
        this.timers.clearTimeout(this.readyTimer);
        this.settleReady.resolve();
      }
      return;
    }
    if (reply.unavailable !== undefined) {
      this.fail(`a row worker could not load the module: ${reply.unavailable}`);
      return;
    }
    const request = entry.pending.get(reply.id);
    if (!request) return;
    entry.pending.delete(reply.id);
    if (reply.error !== undefined) {
      request.reject(new Error(reply.error));
    } else {
      request.resolve(reply);
    }
  }

  // Stops every worker and rejects what they still owe: the callers compute on the page's thread.
  fail(reason) {
    if (this.broken) return;
    this.broken = reason;
    this.timers.clearTimeout(this.readyTimer);
    this.settleReady.reject(new PoolUnavailable(reason));
    for (const entry of this.workers) {
      entry.worker.terminate();
      for (const { reject } of entry.pending.values()) reject(new PoolUnavailable(reason));
      entry.pending.clear();
    }
  }
}

// A pool of browser Workers, one per core (at most MAX_WORKERS, at least 1), or null where none can start.
function createRowPool(nw, { size = Math.min(MAX_WORKERS, Math.max(1, globalThis.navigator?.hardwareConcurrency || 2)) } = {}) {
  if (typeof Worker !== 'function' || inSandbox()) return null; // Firefox reports a sandboxed frame's attempt as an error
  const workers = [];
  try {
    for (let i = 0; i < size; i++) workers.push(new Worker(WORKER_URL));
  } catch {
    for (const worker of workers) worker.terminate();
    return null; // a page from file:// may not start workers
  }
  return new RowPool({ nw, workers });
}

export { RowPool, PoolUnavailable, createRowPool, splitRows };
