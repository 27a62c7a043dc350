// "Train to convergence", in slices: epochs run for at most SLICE_MS, then the browser gets the thread
// back (to paint, to take a click on Cancel) before the next slice, so no task is long however many
// epochs it takes. A run that fits in its first slice (the chapter's 50 samples) finishes at once.

const SLICE_MS = 40;

class Converger {
  // session: the page's Session; onProgress({ epoch, maxEpochs, elapsed }) after each unfinished slice;
  // onDone({ outcome: 'settled' | 'limit' | 'cancelled' | 'failed', epochs, problem }) once.
  constructor({ session, onProgress, onDone }) {
    Object.assign(this, { session, onProgress, onDone });
    this.run = null;
  }

  get running() { return this.run !== null; }

  start(maxEpochs) {
    this.cancel();
    const run = { maxEpochs, started: performance.now(), startEpoch: this.session.epoch, epochMs: 0 };
    this.run = run;
    this.slice(run);
  }

  // Stops the run after the epoch under way (the session keeps every epoch done so far).
  cancel() {
    const { run } = this;
    if (!run) return;
    this.finish(run, 'cancelled');
  }

  slice(run) {
    if (this.run !== run) return;
    const { session } = this;
    const sliceStart = performance.now();
    try {
      for (;;) {
        if (session.epoch >= run.maxEpochs) return this.finish(run, 'limit');
        const epochStart = performance.now();
        const settled = session.settlingStep();
        run.epochMs = performance.now() - epochStart;
        if (settled) return this.finish(run, 'settled');
        if (performance.now() - sliceStart + run.epochMs > SLICE_MS) break;
      }
    } catch (error) {
      return this.finish(run, 'failed', error.message);
    }
    this.onProgress({ epoch: session.epoch, maxEpochs: run.maxEpochs, elapsed: performance.now() - run.started });
    setTimeout(() => this.slice(run), 0);
    return undefined;
  }

  finish(run, outcome, problem = null) {
    this.run = null;
    this.onDone({ outcome, epochs: this.session.epoch - run.startEpoch, problem });
  }
}

export { Converger };
