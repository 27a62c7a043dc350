// "Train to convergence", in slices: epochs run for at most SLICE_MS, then the browser gets the thread
// back (to paint, to take a click on Cancel) before the next slice, so no task is long however many
// epochs it takes. A run that fits in its first slice (the chapter's 50 samples) finishes at once.
// With many samples over http each epoch's rows come from the row pool (epoch_rows.js) and the page's
// thread only sums them; if the pool stops, the run goes on here in slices.
import { poolStopped } from './epoch_rows.js';

const SLICE_MS = 40;

class Converger {
  // session: the page's Session; epochRows: an EpochRows (or null: every epoch here);
  // onProgress({ epoch, maxEpochs, elapsed }) after each unfinished slice (or pooled epoch);
  // onDone({ outcome: 'settled' | 'limit' | 'cancelled' | 'failed', epochs, problem }) once.
  constructor({ session, epochRows = null, onProgress, onDone }) {
    Object.assign(this, { session, epochRows, onProgress, onDone });
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
    if (session.epoch >= run.maxEpochs) return this.finish(run, 'limit');
    const pending = this.epochRows ? this.epochRows.request(session) : null;
    if (pending) {
      pending.then(({ request, rows }) => this.stepWith(run, request, rows), (error) => this.pooledFailed(run, error));
      return undefined;
    }
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

  // An epoch from the pool's rows; then the next.
  stepWith(run, request, rows) {
    if (this.run !== run) return undefined; // cancelled while the rows were computed
    if (!this.session.fits(request)) return this.slice(run); // (the session moved on: ask again)
    let settled;
    try {
      settled = this.session.settlingStep(rows);
    } catch (error) {
      return this.finish(run, 'failed', error.message);
    }
    if (settled) return this.finish(run, 'settled');
    this.onProgress({ epoch: this.session.epoch, maxEpochs: run.maxEpochs, elapsed: performance.now() - run.started });
    return this.slice(run);
  }

  pooledFailed(run, error) {
    if (this.run !== run) return undefined;
    if (poolStopped(error)) return this.slice(run); // the pool is gone: on with epochs here
    return this.finish(run, 'failed', error.message);
  }

  finish(run, outcome, problem = null) {
    this.run = null;
    this.onDone({ outcome, epochs: this.session.epoch - run.startEpoch, problem });
  }
}

export { Converger };
