// The page's row pool (web/src/row_pool.js) with Node worker threads in place of browser Workers, for
// the bench and the tests: the same pool and worker code, one thread per core.
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { RowPool } from '../web/src/compute/row_pool.js';

// A worker thread with the browser Worker's surface the pool uses.
function workerThread() {
  const thread = new Worker(new URL('./node_row_worker.mjs', import.meta.url));
  const adapter = {
    onmessage: null,
    onerror: null,
    postMessage: (message, transfer) => thread.postMessage(message, transfer),
    terminate: () => thread.terminate(),
  };
  thread.on('message', (data) => adapter.onmessage?.({ data }));
  thread.on('error', (error) => adapter.onerror?.({ message: error.message }));
  return adapter;
}

export function createNodeRowPool(nw, size = availableParallelism()) {
  return new RowPool({ nw, workers: Array.from({ length: size }, workerThread) });
}
