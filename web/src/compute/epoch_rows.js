// Training epochs computed by the row pool (row_pool.js) where it runs (over http) and an epoch is
// large enough to be worth a round trip: the workers compute the leave-one-out loss's rows, and the
// page's thread only sums them (Session.step(rows): the same w as a step here, bit for bit), and where
// the step would compute the current w's line for its test MSE, the workers predict it too. Where the
// pool cannot run (file://) or is not ready yet, the same rows are computed on the page's thread in
// slices (sliced_rows.js); for small data request() gives null and the caller steps at once.
import { WORKER_MIN_PAIRS } from './budget.js';
import { PoolUnavailable } from './row_pool.js';

// An epoch of n training points visits about n^2 key pairs; below WORKER_MIN_PAIRS (n < 500) it takes
// under a millisecond or two here, less than the round trip to the workers.

class EpochRows {
  // createPool: makes the pool (or null where workers cannot start); called once, for the first
  // session large enough (see prepare), so a page that never trains on many samples starts no workers.
  // createSliced: makes the pool's stand-in on the page's thread (sliced_rows.js), for when the pool is
  // not there or not ready yet, so that even then no epoch is one long task; null: such epochs are one.
  constructor({ createPool = null, createSliced = null } = {}) {
    this.createPool = createPool;
    this.createSliced = createSliced;
    this.pool = null; // used once its workers are ready
    this.sliced = null;
    this.sentData = null; // the session data the pool holds
    this.slicedData = null; // and the sliced stand-in
  }

  // Whether the session's epochs are worth computing in the pool.
  wanted(session) {
    const n = session.data.xTrain.length;
    // (Binned epochs, large data of your own, are not summed from rows: see Session.trainsApproximately.)
    return session.canTrain && !session.trainsApproximately && n * n >= WORKER_MIN_PAIRS;
  }

  // Starts the pool for a session that will want it (after a render), so its workers load the module
  // before the reader presses Train; until they are ready epochs run on the page's thread.
  prepare(session) {
    if (this.pool || !this.createPool || !session.data || !this.wanted(session)) return;
    const { createPool } = this;
    this.createPool = null;
    this.pool = createPool();
  }

  // A promise of { request, rows } for the session's next epoch (Session.epochRowsRequest), or null.
  // It rejects with PoolUnavailable if the pool stops (the caller then steps here) and with the
  // module's error otherwise.
  request(session) {
    this.prepare(session);
    if (!this.wanted(session)) return null;
    let { pool } = this;
    if (pool && pool.ready) {
      if (this.sentData !== session.data) pool.setData(session.data);
      this.sentData = session.data;
    } else {
      if (!this.sliced && this.createSliced) this.sliced = this.createSliced();
      pool = this.sliced;
      if (!pool) return null;
      if (this.slicedData !== session.data) pool.setData(session.data);
      this.slicedData = session.data;
    }
    const request = session.epochRowsRequest();
    // The w being left needs its line for the test MSE: the workers compute it beside the rows.
    const line = session.parametricLineWanted() ? session.lineOptions() : null;
    return Promise.all([pool.looRows(request.options), line && pool.predict(line)])
      .then(([rows, predictions]) => ({ request, rows: predictions ? { ...rows, line: { w: line.w, predictions } } : rows }));
  }
}

const poolStopped = (error) => error instanceof PoolUnavailable;

export { EpochRows, poolStopped };
