// Where "Design your own attention pooling" is computed (design_work.js): on the page's thread while the
// data are small (an additive epoch at the chapter's 50 samples takes half a millisecond), in the design
// worker beyond that (over http). Where no worker can start, or it fails, large data are computed on the
// page's thread too, in slices of about SLICE_MS between which the page paints and takes input (an epoch
// is one slice's step: an additive epoch at 2000 samples takes 0.7 s). Either way the work starts in a
// task after the one that asked (a render's). Only the newest request is wanted: it drops the one under
// way at its next step (a Reset during a long replay does not wait for the replay).
import { asProblem, designWork } from './design_work.js';
import { runInSlices } from './sliced_work.js';
import { inSandbox } from '../embed/sandbox.js';

// Beside index.html in dist/ (bundled from web/src/compute/design.worker.js).
const WORKER_URL = 'design_worker.js';
// Pairs an epoch and its heatmap visit (training keys x keys, plus queries x keys) computed on the page's
// thread: at 200 training samples and 200 queries, an additive epoch and heatmap take about 15 ms.
const HERE_MAX_PAIRS = 2 * 200 * 200;
// A worker that has not loaded its module by then (it says so) is given up for the page's thread. Once
// it has, a request may take as long as its epochs do (0.7 s each at 2000 samples): it is not timed.
const LOAD_TIMEOUT_MS = 20000;

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
    this.inFlight = null; // { id, request, where, small }
    this.nextId = 1;
    this.timer = null;
  }

  get pending() { return this.inFlight !== null; }

  // 'worker' or 'page': where the last request went.
  get where() { return this.lastWhere ?? 'page'; }

  // Whether the request in flight is large enough to take a while (in the worker or in slices here).
  get slow() { return this.inFlight !== null && !this.inFlight.small; }

  request(request) {
    const { xTrain, xTest } = request.data;
    const id = this.nextId++;
    const small = xTrain.length * (xTrain.length + xTest.length) <= HERE_MAX_PAIRS;
    const where = !small && this.startWorker() ? 'worker' : 'page';
    // (The worker drops what it computes for a request no longer wanted.)
    if (this.inFlight?.where === 'worker' && where === 'page' && this.worker) this.worker.postMessage({ id, request: null });
    this.inFlight = { id, request, where, small };
    this.lastWhere = where;
    if (where === 'page') {
      runInSlices(this.here.steps(request), {
        stillWanted: () => this.inFlight?.id === id,
        nextTask: (fn) => setTimeout(fn, 0),
        onDone: (reply) => this.finish({ id, reply }),
        onError: (error) => this.finish({ id, error: asProblem(error) }),
      });
      return;
    }
    if (!this.workerLoaded && this.timer === null) this.timer = setTimeout(() => this.stopWorker(), LOAD_TIMEOUT_MS);
    this.worker.postMessage({ id, request });
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
    this.worker.onmessage = ({ data }) => (data.ready ? this.workerReady() : this.finish(data));
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
    const { request } = this.inFlight;
    this.inFlight = null;
    if (error) this.onError(request, error);
    else this.onReply(request, reply);
  }

  workerReady() {
    clearTimeout(this.timer);
    this.timer = null;
    this.workerLoaded = true;
  }

  // Nothing more will be asked: the page's-thread run is freed, the worker stopped, replies dropped.
  dispose() {
    this.inFlight = null; // (first: a slice under way drops its work)
    this.here.dispose();
    clearTimeout(this.timer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.workerFailed = true;
  }

  // The worker is gone for good: what it had is computed on the page's thread.
  stopWorker() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.workerFailed = true;
    const request = this.inFlight?.where === 'worker' ? this.inFlight.request : null;
    if (request) this.request(request);
  }
}

export { DesignClient };
