// Workers started before a run needs them, so that it finds their module loaded: in Chromium here a
// consistency worker takes 100 to 500 ms from new Worker to { ready: true }, which the reader would
// otherwise wait for after Compute. take() hands one over with whether it has said so already (its
// first message, which the pool has then received); the taker sets its own handlers. A worker that fails
// while it waits is dropped, and no more are warmed (a page whose workers fail, as some browsers' from
// file://, would start them again each time the figure came near); one that never answers is handed
// over as not ready (the run's timeout gives it up, as it would a worker it started itself).
class WarmWorkers {
  // startWorker(url): a new Worker (the page passes consistency_run.js's, tests a stand-in); it may
  // throw (file:// pages, sandboxed frames).
  constructor(url, { count, startWorker }) {
    Object.assign(this, { url, count, startWorker });
    this.idle = []; // { worker, ready }
    this.failed = false;
  }

  // Starts workers until `count` wait.
  warm() {
    while (!this.failed && this.idle.length < this.count) {
      let worker;
      try {
        worker = this.startWorker(this.url);
      } catch {
        return;
      }
      const entry = { worker, ready: false };
      worker.onmessage = ({ data }) => {
        if (data && data.ready) entry.ready = true;
      };
      worker.onerror = (event) => {
        event.preventDefault();
        this.failed = true;
        this.idle = this.idle.filter((other) => other !== entry);
        worker.terminate();
      };
      this.idle.push(entry);
    }
  }

  // { worker, ready } or null when none waits.
  take() {
    const entry = this.idle.shift();
    if (!entry) return null;
    entry.worker.onmessage = null;
    entry.worker.onerror = null;
    return entry;
  }
}

export { WarmWorkers };
