// The row pool's work on the page's own thread, in slices: a RowPool (row_pool.js) whose "workers" are
// tasks here, each computing its share of the rows with the page's module (row_work.js, as a real
// worker does) in a task of its own. An epoch or a line too large for one task (tens of milliseconds
// at 2000 samples) is split into SLICES tasks of a few milliseconds, between which the browser paints
// and takes input; where there are no workers (file://) or until they are ready. The same rows, so the
// same answers bit for bit.
import { RowPool } from './row_pool.js';
import { rowWork } from './row_work.js';

// Each task computes 1/SLICES of the rows: at 2000 x 2000 key pairs, about 250,000 pairs (a few ms).
const SLICES = 16;

// A worker's surface (postMessage, onmessage, terminate) over tasks on this thread.
function taskWorker(nw, defer) {
  let stopped = false;
  const worker = {
    onmessage: null,
    onerror: null,
    terminate: () => { stopped = true; },
  };
  const deliver = (message) => { if (!stopped && worker.onmessage) worker.onmessage({ data: message }); };
  const handle = rowWork(Promise.resolve(nw), (message) => defer(() => deliver(message)));
  worker.postMessage = (message) => defer(async () => {
    if (stopped) return;
    const answer = await handle(message);
    if (answer) deliver(answer.reply);
  });
  return worker;
}

// defer(fn) runs fn in a later task (the tests may pass their own).
function createSlicedRows(nw, { slices = SLICES, defer = (fn) => setTimeout(fn, 0) } = {}) {
  return new RowPool({ nw, workers: Array.from({ length: slices }, () => taskWorker(nw, defer)) });
}

export { createSlicedRows };
