// Where "Design your own attention pooling" is computed (design_work.js): on the page's thread while the
// data are small (an additive epoch at the chapter's 50 samples takes half a millisecond), in the design
// worker beyond that (over http; where no worker can start, or it fails, on the page's thread). Either
// way in a task of its own, after the one that asked (a render's). One request is in flight at a time; a
// newer one waits in its place, replacing any older waiting one, so a run of changes computes only the last.
import { asProblem, designWork } from './design_work.js';
import { inSandbox } from '../embed/sandbox.js';

// Beside index.html in dist/ (bundled from web/src/compute/design.worker.js).
const WORKER_URL = 'design_worker.js';
// Pairs an epoch and its heatmap visit (training keys x keys, plus queries x keys) computed on the page's
// thread: at 200 training samples and 200 queries, an additive epoch and heatmap take about 15 ms.
const HERE_MAX_PAIRS = 2 * 200 * 200;
// A worker that has not answered its first request by then (it loads the module) is given up for the
// page's thread. Once it has answered, a request may take as long as its epochs do (1.4 s each at 2000
// samples): it is not timed.
const REPLY_TIMEOUT_MS = 20000;

class DesignClient {
  // onReply(request, reply) and onError(request, error) receive each outcome (error: a module error's
  // { message, code, parameter }).
  // workers false: always on this thread.
  constructor({ nw, onReply, onError, workers = true }) {
    this.here = designWork(nw);
    this.onReply = onReply;
    this.onError = onError;
    this.worker = null;
    this.workerFailed = !workers || inSandbox(); // (Firefox reports a sandboxed frame's attempt as an error)
    this.inFlight = null; // { id, request }
    this.waiting = null;
    this.nextId = 1;
    this.timer = null;
  }

  get pending() { return this.inFlight !== null || this.waiting !== null; }

  // 'worker' or 'page': where the last request went.
  get where() { return this.lastWhere ?? 'page'; }

  request(request) {
    if (this.inFlight) {
      this.waiting = request;
      return;
    }
    const { xTrain, xTest } = request.data;
    this.inFlight = { id: this.nextId++, request };
    if (xTrain.length * (xTrain.length + xTest.length) <= HERE_MAX_PAIRS || !this.startWorker()) {
      this.lastWhere = 'page';
      const { id } = this.inFlight;
      setTimeout(() => this.computeHere(id), 0);
      return;
    }
    this.lastWhere = 'worker';
    if (!this.workerAnswered) this.timer = setTimeout(() => this.stopWorker(), REPLY_TIMEOUT_MS);
    this.worker.postMessage({ id: this.inFlight.id, request });
  }

  // The request in flight (if it is still request `id`), on the page's thread.
  computeHere(id) {
    if (!this.inFlight || this.inFlight.id !== id) return;
    const { request } = this.inFlight;
    try {
      this.finish({ id, reply: this.here(request) });
    } catch (error) {
      this.finish({ id, error: asProblem(error) });
    }
  }

  startWorker() {
    if (this.worker) return true;
    if (this.workerFailed) return false;
    try {
      this.worker = new Worker(WORKER_URL);
    } catch {
      this.workerFailed = true; // (file:// pages may not start workers)
      return false;
    }
    this.worker.onmessage = ({ data }) => this.finish(data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.stopWorker();
    };
    this.worker.onmessageerror = () => this.stopWorker();
    return true;
  }

  finish({ id, reply, error, unavailable }) {
    if (!this.inFlight || this.inFlight.id !== id) return;
    if (unavailable) {
      this.stopWorker();
      return;
    }
    clearTimeout(this.timer);
    if (this.lastWhere === 'worker') this.workerAnswered = true;
    const { request } = this.inFlight;
    this.inFlight = null;
    const next = this.waiting;
    this.waiting = null;
    // A newer request supersedes this reply: it is computed instead.
    if (next) this.request(next);
    else if (error) this.onError(request, error);
    else this.onReply(request, reply);
  }

  // Nothing more will be asked: the page's-thread run is freed, the worker stopped, replies dropped.
  dispose() {
    this.here.dispose();
    clearTimeout(this.timer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.workerFailed = true;
    this.inFlight = null;
    this.waiting = null;
  }

  // The worker is gone for good: what waits (or else what it had) is computed on the page's thread.
  stopWorker() {
    clearTimeout(this.timer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.workerFailed = true;
    const request = this.waiting ?? this.inFlight?.request;
    this.inFlight = null;
    this.waiting = null;
    if (request) this.request(request);
  }
}

export { DesignClient };
