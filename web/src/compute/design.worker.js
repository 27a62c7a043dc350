// The design worker (started by design_client.js, bundled as dist/design_worker.js, a classic script: it
// needs importScripts for nw.js): trains and draws "Design your own attention pooling" at large n with
// its own copy of the module, so that an additive epoch (0.7 s at 2000 samples) never holds the page's
// thread. The work itself is design_work.js's; each message is one request, answered { id, reply } or
// { id, error } (or { id, unavailable } if the module did not load).
/* global importScripts, createNW */
import { asProblem, designWork } from './design_work.js';

importScripts('nw.js');
const ready = createNW().then((nw) => designWork(nw));

self.onmessage = async ({ data: { id, request } }) => {
  let work;
  try {
    work = await ready;
  } catch (error) {
    self.postMessage({ id, unavailable: String(error && error.message) });
    return;
  }
  try {
    const reply = work(request);
    const { blocks } = reply;
    const arrays = [blocks.weight, blocks.row, blocks.col, blocks.fallbackRows, blocks.predictions, blocks.peaks, reply.losses];
    self.postMessage({ id, reply }, arrays.map((array) => array.buffer));
  } catch (error) {
    self.postMessage({ id, error: asProblem(error) });
  }
};
