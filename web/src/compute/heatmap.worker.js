// The heatmap worker (started by heatmap_client.js): computes one w's predictions and heatmap
// blocks with its own copy of the module, so that while "Distance scale w" is dragged the page's thread only
// draws. Each message is a request { id, xTest, xTrain, yTrain, w, kernel, maxCells: { rows, cols }, approximate }.
// Bundled as a classic script, since module workers cannot call importScripts and nw.js is a classic script.
/* global importScripts, createNW */
importScripts('nw.js');
const ready = createNW();

self.onmessage = async ({ data: request }) => {
  let nw;
  try {
    nw = await ready;
  } catch (error) {
    self.postMessage({ id: request.id, unavailable: String(error && error.message) });
    return;
  }
  try {
    const { xTest, xTrain, yTrain, w, kernel, maxCells, approximate } = request;
    const blocks = nw.attentionBlocks(xTest, xTrain, yTrain, { w, kernel, maxBlockRows: maxCells.rows, maxBlockCols: maxCells.cols, approximate });
    // The arrays are the module's copies (not views of its memory): moved to the page, not copied, which
    // at a heatmap's full resolution saved the page's thread some milliseconds a preview.
    const arrays = [blocks.weight, blocks.row, blocks.col, blocks.fallbackRows, blocks.predictions, blocks.weightBounds, blocks.predictionBounds].filter(Boolean);
    self.postMessage({ id: request.id, blocks }, arrays.map((array) => array.buffer));
  } catch (error) {
    self.postMessage({ id: request.id, error: error.message });
  }
};
