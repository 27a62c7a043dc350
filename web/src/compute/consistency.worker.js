// The consistency figure's worker (started by consistency_run.js): computes the points one n at a time
// with its own copy of the module and posts each as it is done, so the page stays responsive for the
// tens of seconds the largest n take; the page cancels by terminating it. A request is { ns, seed }.
// Bundled as a classic script (it needs importScripts for nw.js).
/* global importScripts, createNW */
import { consistencyPoint } from '../model/consistency_point.js';

importScripts('nw.js');
const ready = createNW();

self.onmessage = async ({ data: { ns, seed } }) => {
  try {
    const nw = await ready;
    for (const n of ns) self.postMessage({ point: consistencyPoint(nw, n, seed) });
    self.postMessage({ done: true });
  } catch (error) {
    self.postMessage({ error: String(error && error.message) });
  }
};
