// The consistency figure's worker (started by consistency_run.js, which may start two): says
// { ready: true } once its copy of the module has loaded, then computes one point per request
// { n, seed } and posts it back ({ point } or { error }), so the page stays responsive while the largest
// n take seconds; the page cancels by terminating it. Bundled as a classic script (it needs importScripts
// for nw.js).
/* global importScripts, createNW */
import { consistencyPoint } from '../model/consistency_point.js';

importScripts('nw.js');
const ready = createNW();
ready.then(() => self.postMessage({ ready: true }), () => {}); // a failed load answers the first request

self.onmessage = async ({ data: { n, seed } }) => {
  try {
    const nw = await ready;
    self.postMessage({ point: consistencyPoint(nw, n, seed) });
  } catch (error) {
    self.postMessage({ error: String(error && error.message) });
  }
};
