// The module's first calls in a page are slow: V8 compiles each WebAssembly function, and Embind's
// JavaScript for each binding, when it is first called, and installs the faster tier's code later on
// the page's thread. The first render made those first calls and took 85-146 ms in one task on this
// 2-core machine (55-80 ms once they had been made). warmUpModule makes them on eight points, in a task
// of its own between the module's and the first render's, with the functions and options that render
// uses (generated data, a Nadaraya-Watson line, its error, a query's weights, heatmap blocks, a trainer).
function warmUpModule(nw) {
  const data = nw.generateData({ nTrain: 8, nTest: 8, seed: 1 });
  const line = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 1 });
  nw.meanSquaredError(line, data.yTruth);
  nw.attentionWeights([0.5], data.xTrain, { w: 1 });
  nw.attentionBlocks(data.xTest, data.xTrain, data.yTrain, { w: 1, maxBlockRows: 8, maxBlockCols: 8 });
  new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0 }).delete();
}

export { warmUpModule };
