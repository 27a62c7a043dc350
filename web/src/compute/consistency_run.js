// Runs the consistency figure's computation: in a Worker where the page can start one (over http), else
// on the page's thread one n per task (a page opened from file://), yielding to the browser between them.
// Reports each point as it comes, and can be cancelled at any time (the worker is terminated; on the
// page's thread, no further n is started).
import { CONSISTENCY_NS, consistencyPoint } from '../model/consistency_point.js';
import { inSandbox } from '../embed/sandbox.js';

// Beside index.html in dist/ (bundled from web/src/compute/consistency.worker.js).
const WORKER_URL = 'consistency_worker.js';
// A worker that has not sent its first point by then (loading the module and n = 50 take well under a
// second) is given up for the page's thread: some browsers start a worker from file:// that never runs.
const FIRST_REPLY_TIMEOUT_MS = 5000;

class ConsistencyRun {
  // nw: the page's module (for the page's thread); onPoint(point, index), onDone(where), onError(message).
  // startWorker stands in for the browser's Worker (tests replace it).
  constructor({ nw, seed, onPoint, onDone, onError, ns = CONSISTENCY_NS, startWorker = (url) => new Worker(url) }) {
    Object.assign(this, { nw, seed, onPoint, onDone, onError, ns, startWorker });
    this.count = 0;
    this.cancelled = false;
    this.worker = null;
    this.where = 'page';
  }

  start() {
    try {
      if (inSandbox()) throw new Error('a sandboxed frame cannot start a worker');
      this.worker = this.startWorker(WORKER_URL);
    } catch {
      this.worker = null; // file:// pages may not start workers
    }
    if (!this.worker) {
      this.runHere();
      return;
    }
    this.where = 'worker';
    this.worker.onmessage = ({ data }) => this.receive(data);
    // A worker that cannot load (no worker script, a blocked module) leaves the work to the page's thread.
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.giveUpWorker();
    };
    this.firstReplyTimer = setTimeout(() => this.giveUpWorker(), FIRST_REPLY_TIMEOUT_MS);
    this.worker.postMessage({ ns: this.ns.slice(this.count), seed: this.seed });
  }

  giveUpWorker() {
    if (this.cancelled || !this.worker) return;
    this.stopWorker();
    this.where = 'page';
    this.runHere();
  }

  receive(data) {
    clearTimeout(this.firstReplyTimer);
    if (this.cancelled) return;
    if (data.error !== undefined) {
      this.stopWorker();
      this.onError(data.error);
    } else if (data.done) {
      this.stopWorker();
      this.onDone(this.where);
    } else {
      this.onPoint(data.point, this.count++);
    }
  }

  // One n per task, from where the worker (if any) stopped.
  runHere() {
    const next = () => {
      if (this.cancelled) return;
      if (this.count >= this.ns.length) {
        this.onDone(this.where);
        return;
      }
      let point;
      try {
        point = consistencyPoint(this.nw, this.ns[this.count], this.seed);
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
    this.stopWorker();
  }

  stopWorker() {
    clearTimeout(this.firstReplyTimer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }
}

export { ConsistencyRun };
