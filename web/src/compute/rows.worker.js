// A worker of the row pool in the browser (started by row_pool.js, bundled as dist/rows_worker.js, a
// classic script: it needs importScripts for nw.js). The work itself is row_work.js's.
/* global importScripts, createNW */
import { rowWork } from './row_work.js';

importScripts('nw.js');
const handle = rowWork(createNW(), (message) => self.postMessage(message));
self.onmessage = async ({ data: message }) => {
  const answer = await handle(message);
  if (answer) self.postMessage(answer.reply, answer.transfer);
};
