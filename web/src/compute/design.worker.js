// The design worker (started by design_client.js, bundled as dist/design_worker.js, a classic script: it
// needs importScripts for nw.js): trains and draws "Design your own attention pooling" at large n with
// its own copy of the module, so that an additive epoch (0.7 s at 2000 samples) never holds the page's
// thread. The work itself is design_work.js's, run in slices: a newer request (Reset during a long
// replay, another scoring) drops the one under way at its next epoch rather than waiting for its end.
// Each message { id, request } is answered { id, reply } or { id, error } (or { id, unavailable } if
// the module did not load); a request of null only drops the one under way. { ready: true } says the
// module has loaded.
/* global importScripts, createNW */
import { asProblem, designWork } from './design_work.js';
import { messageTask, runInSlices } from './sliced_work.js';

importScripts('nw.js');
const ready = createNW().then((nw) => designWork(nw));
// (Told once: the client gives a worker whose module never loads up for the page's thread, not one
// whose first request is a long replay.)
ready.then(() => self.postMessage({ ready: true }), () => {});
const nextTask = messageTask();
let latest = null; // the newest message: the only one wanted
let running = false;

async function run() {
  running = true;
  let work;
  try {
    work = await ready;
  } catch (error) {
    if (latest) self.postMessage({ id: latest.id, unavailable: String(error && error.message) });
    latest = null;
    running = false;
    return;
  }
  const mine = latest;
  if (!mine.request) {
    next(mine);
    return;
  }
  runInSlices(work.steps(mine.request), {
    stillWanted: () => latest === mine,
    nextTask,
    onDone: (reply) => {
      const { blocks } = reply;
      const arrays = [blocks.weight, blocks.row, blocks.col, blocks.fallbackRows, blocks.predictions, blocks.peaks, reply.losses];
      self.postMessage({ id: mine.id, reply }, arrays.map((array) => array.buffer));
      next(mine);
    },
    onError: (error) => {
      self.postMessage({ id: mine.id, error: asProblem(error) });
      next(mine);
    },
    onDropped: () => next(mine),
  });
}

// After `done` ended (or was dropped): the newest message, if another came meanwhile.
function next(done) {
  if (latest === done) latest = null;
  running = false;
  if (latest) run();
}

self.onmessage = ({ data }) => {
  const wasRunning = running;
  latest = data;
  if (!wasRunning) run();
};
