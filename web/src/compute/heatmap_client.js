// Heatmap blocks (and the predictions of the same pass) computed in a Worker where the page can start one
// (over http), so the page's thread only draws; where it cannot (a page opened from file://) or the
// worker fails, on the page's thread instead. Used for the preview shown while "Distance scale w" is
// dragged, and for the heatmaps of a render with many samples. One request is in flight at a time; each
// request has a slot (what it is for: 'drag', a heatmap), and a newer request waits, replacing any older
// waiting one of its slot, so a fast drag never queues. Waiting slots are sent in the order they came.
import { inSandbox } from '../embed/sandbox.js';

// Beside index.html in dist/ (bundled from web/src/compute/heatmap.worker.js).
const WORKER_URL = 'heatmap_worker.js';
// A worker that has not answered a request by then (its first includes loading the module) is
// given up for the page's thread, so a hung or silently dead worker cannot stop the previews.
const REPLY_TIMEOUT_MS = 5000;

class HeatmapClient {
  // computeHere(request) returns the blocks on the page's thread; onResult(request, blocks) and
  // onError(request, message) receive each outcome. startWorker and timers stand in for the browser's
  // Worker and timers (the tests replace them to play out every order of events).
  constructor({
    computeHere, onResult, onError,
    startWorker = (url) => {
      // Firefox reports a sandboxed frame's attempt as an error, so it is not made.
      if (inSandbox()) throw new Error('a sandboxed frame cannot start a worker');
      return new Worker(url);
    },
    timers = { setTimeout: (...args) => setTimeout(...args), clearTimeout: (id) => clearTimeout(id) },
  }) {
    this.computeHere = computeHere;
    this.timers = timers;
    this.onResult = onResult;
    this.onError = onError;
    this.inFlight = null;
    this.waiting = new Map(); // slot -> the newest request not yet sent
    this.here = new Map(); // slot -> a request left by a stopped worker, still to compute on the page
    this.nextId = 1;
    this.replyTimer = null;
    this.worker = null;
    try {
      this.worker = startWorker(WORKER_URL);
      this.worker.onmessage = (event) => this.finish(event.data);
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.stopWorker();
      };
      this.worker.onmessageerror = () => this.stopWorker();
    } catch {
      this.worker = null; // file:// pages may not start workers
    }
  }

  // 'worker' or 'page': where previews are computed now.
  get where() { return this.worker ? 'worker' : 'page'; }

  // request: { w, kernel, maxCells, xTest, xTrain, yTrain, approximate = 'never' (see nw.attentionBlocks),
  // slot = 'drag' } plus anything the caller wants back.
  request(request) {
    const slot = request.slot ?? 'drag';
    if (!this.worker) {
      this.here.delete(slot); // (a newer request of its slot replaces one still to compute)
      this.runHere(request);
    } else if (this.inFlight) {
      this.waiting.delete(slot); // (re-added last: the newest request of any slot goes after the others)
      this.waiting.set(slot, request);
    } else {
      this.inFlight = { ...request, id: this.nextId++ };
      const { id, w, kernel, maxCells, xTest, xTrain, yTrain, approximate = 'never' } = this.inFlight;
      this.worker.postMessage({ id, w, kernel, maxCells, xTest, xTrain, yTrain, approximate });
      this.replyTimer = this.timers.setTimeout(() => this.stopWorker(), REPLY_TIMEOUT_MS);
    }
  }

  finish(reply) {
    const request = this.inFlight;
    if (!request || reply.id !== request.id) return;
    this.timers.clearTimeout(this.replyTimer);
    if (reply.unavailable !== undefined) {
      this.stopWorker();
      return;
    }
    this.inFlight = null;
    this.sendWaiting(); // the worker computes the next preview while this one is drawn
    if (reply.error !== undefined) {
      this.onError(request, reply.error);
    } else {
      this.onResult(request, reply.blocks);
    }
  }

  // From now on previews are computed on the page: the newest request of each slot not yet shown, the
  // first at once and each other in a task of its own (several large heatmaps would make one long task).
  stopWorker() {
    this.timers.clearTimeout(this.replyTimer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    const requests = [...(this.inFlight ? [this.inFlight] : []), ...this.waiting.values()];
    this.inFlight = null;
    this.waiting.clear();
    // The newest request of each slot, the in-flight one's replaced by its slot's waiting one if any.
    for (const request of requests) this.here.set(request.slot ?? 'drag', request);
    this.runNextHere();
  }

  runNextHere() {
    const next = this.here.entries().next();
    if (next.done) return;
    const [slot, request] = next.value;
    this.here.delete(slot);
    this.runHere(request);
    if (this.here.size) this.timers.setTimeout(() => this.runNextHere(), 0);
  }

  sendWaiting() {
    const [next] = this.waiting.values();
    if (!next) return;
    this.waiting.delete(next.slot ?? 'drag');
    this.request(next);
  }

  runHere(request) {
    let blocks;
    try {
      blocks = this.computeHere(request);
    } catch (error) {
      this.onError(request, error.message);
      return;
    }
    this.onResult(request, blocks);
  }
}

export { HeatmapClient };
