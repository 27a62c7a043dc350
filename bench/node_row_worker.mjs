// A worker of the row pool in Node (a worker thread started by node_row_pool.mjs): the same work as
// the browser's (web/src/row_work.js) on the module built for Node.
import { parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { rowWork } from '../web/src/compute/row_work.js';

const handle = rowWork(createRequire(import.meta.url)('../dist/nw.js')(), (message) => parentPort.postMessage(message));
parentPort.on('message', async (message) => {
  const answer = await handle(message);
  if (answer) parentPort.postMessage(answer.reply, answer.transfer);
});
