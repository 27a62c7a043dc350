// "Train to convergence", in slices: epochs run for at most SLICE_MS, then the browser gets the thread
// back (to paint, to take a click on Cancel) before the next slice, so no task is long however many
// epochs it takes. The first slice comes in the task after start; a run that fits in it (the chapter's
// 50 samples) ends in the next task, where the page is drawn.
// With many samples over http each epoch's rows come from the row pool (epoch_rows.js) and the page's
// thread only sums them; if the pool stops, the run goes on here in slices.
import { problemText } from '../i18n/problem_text.js';
import { SLICE_MS } from './budget.js';
import { poolStopped } from './epoch_rows.js';

class Converger {
  // session: the page's Session; epochRows: an EpochRows (or null: every epoch here);
  // onProgress({ epoch, maxEpochs, elapsed }) after each unfinished slice (or pooled epoch);
  // onDone({ outcome: 'settled' | 'limit' | 'cancelled' | 'superseded' | 'failed', epochs, problem, replay })
  // once.
  constructor({ session, epochRows = null, onProgress, onDone }) {
    Object.assign(this, { session, epochRows, onProgress, onDone });
    this.run = null;
  }

  get running() { return this.run !== null; }

  get replaying() { return this.run !== null && this.run.replay; }

  // replay: run exactly to maxEpochs (a link's or a data change's trained epochs), not until w settles.
  start(maxEpochs, { replay = false } = {}) {
    this.cancel();
    const run = { maxEpochs, replay, started: performance.now(), startEpoch: this.session.epoch, epochMs: 0 };
    this.run = run;
    // Every slice in a task of its own, the first too: the click that starts a run (an exercise's) has
    // drawn its new settings in this task, and both together took 50 to 60 ms at 50 samples.
    setTimeout(() => this.slice(run), 0);
  }

  // Stops the run after the epoch under way (the session keeps every epoch done so far). outcome:
  // 'cancelled' (the reader's Cancel) or 'superseded' (new settings replace the run's).
  cancel(outcome = 'cancelled') {
    const { run } = this;
    if (!run) return;
    this.finish(run, outcome);
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
        if (session.epoch >= run.maxEpochs) return this.finishLater(run, 'limit');
        const epochStart = performance.now();
        const settled = this.stepOnce(run);
        run.epochMs = performance.now() - epochStart;
        if (settled) return this.finishLater(run, 'settled');
        if (performance.now() - sliceStart + run.epochMs > SLICE_MS) break;
      }
    } catch (error) {
      return this.finish(run, 'failed', this.problem(error));
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
      settled = this.stepOnce(run, rows);
    } catch (error) {
      return this.finish(run, 'failed', this.problem(error));
    }
    if (settled) return this.finish(run, 'settled');
    this.onProgress({ epoch: this.session.epoch, maxEpochs: run.maxEpochs, elapsed: performance.now() - run.started });
    return this.slice(run);
  }

  // What the reader is told of a failed epoch (a step that diverged names the epoch it was).
  problem(error) {
    return problemText(error, { t: this.session.t, epoch: this.session.epoch + 1, w: String(this.session.learnedW) });
  }

  // One epoch; whether the run is done because w settled (never for a replay).
  stepOnce(run, rows = null) {
    if (!run.replay) return this.session.settlingStep(rows);
    this.session.step(rows);
    return false;
  }

  pooledFailed(run, error) {
    if (this.run !== run) return undefined;
    if (poolStopped(error)) return this.slice(run); // the pool is gone: on with epochs here
    return this.finish(run, 'failed', this.problem(error));
  }

  // After a slice's epochs, the end (whose onDone draws the page) in a task of its own.
  finishLater(run, outcome) {
    setTimeout(() => {
      if (this.run === run) this.finish(run, outcome);
    }, 0);
  }

  finish(run, outcome, problem = null) {
    this.run = null;
    this.onDone({ outcome, epochs: this.session.epoch - run.startEpoch, problem, replay: run.replay });
  }
}

export { Converger };
