// What one worker of the row pool (row_pool.js) does with each message, whatever starts it (a browser
// Worker, rows.worker.js; a Node worker thread, bench/node_row_worker.mjs). It keeps the pool's data,
// sent once per data change, and computes the rows it is asked for with its own copy of the module:
//   { type: 'data', version, xTrain, yTrain, xTest }                 -> no reply
//   { type: 'predict', id, version, options, rowBegin, rowEnd }     -> { id, predictions } (xTest rows)
//   { type: 'looRows', id, version, options, rowBegin, rowEnd }     -> { id, lossRows, gradRows }
// A failure replies { id, error } (the module's message), or { id, unavailable } if the module did
// not load. Each reply lists the buffers it can hand over without a copy. Once the module has loaded
// the worker says { ready: true } unasked (or { unavailable } if it cannot), through `post`, so the
// page knows the pool can take work before it sends any.

export function rowWork(ready, post) {
  ready.then(() => post({ ready: true }), (error) => post({ unavailable: String(error && error.message) }));
  let data = null;
  return async (message) => {
    if (message.type === 'data') {
      data = message;
      return null;
    }
    const current = data; // as of this message: a newer data message may come while the module loads
    let nw;
    try {
      nw = await ready;
    } catch (error) {
      return { reply: { id: message.id, unavailable: String(error && error.message) }, transfer: [] };
    }
    try {
      if (!current || current.version !== message.version) throw new Error(`row pool: data version ${message.version} was never sent`);
      const { options, rowBegin, rowEnd } = message;
      if (message.type === 'predict') {
        const predictions = nw.predict(current.xTest.subarray(rowBegin, rowEnd), current.xTrain, current.yTrain, options);
        return { reply: { id: message.id, predictions }, transfer: [predictions.buffer] };
      }
      const { lossRows, gradRows } = nw.looLossRows(current.xTrain, current.yTrain, { ...options, rowBegin, rowEnd });
      return { reply: { id: message.id, lossRows, gradRows }, transfer: [lossRows.buffer, gradRows.buffer] };
    } catch (error) {
      return { reply: { id: message.id, error: String(error && error.message) }, transfer: [] };
    }
  };
}
