// The consistency figure's worker (started by consistency_run.js, which may start two): computes one
// point per request { n, seed } with its own copy of the module and posts it back ({ point } or
// { error }), so the page stays responsive while the largest n take seconds; the page cancels by
// terminating it. Bundled as a classic script (it needs importScripts for nw.js).
/* global importScripts, createNW */
import { consistencyPoint } from '../model/consistency_point.js';

importScripts('nw.js');
const ready = createNW();

self.onmessage = async ({ data: { n, seed } }) => {
  try {
    const nw = await ready;
    self.postMessage({ point: consistencyPoint(nw, n, seed) });
  } catch (error) {
    self.postMessage({ error: String(error && error.message) });
  }
};
