// One point of the consistency figure, for the page's thread and its worker alike: n training samples of
// the chapter's data (from the page's seed), and the test MSE of Nadaraya-Watson pooling at the fixed w and
// at the w that selectBandwidth chooses for those n. Everything is computed by the module.

// The sample sizes, log-spaced from the chapter's 50 to 500,000: 2.7 to 2.9 s in Chromium on two cores
// (#31's goal: 4 s). 1,000,000 is not among them: with it the figure takes 4.3 to 5.0 s, its point alone 2.7 s
// in Node (generateData 0.2 s, selectBandwidth 2.3 s, two predicts 0.2 s), more in a worker beside another.
export const CONSISTENCY_NS = [50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000];
// The largest n computed on the page's thread (where no worker can be started): 100,000 holds the page
// for about half a second.
export const PAGE_MAX_N = 100000;
// The chapter's nonparametric pooling: w = 1 for every n.
export const FIXED_W = 1;

// { n, fixedMse, w, atLimit, selectedMse, approximate, lossBound, loss }. selectedMse is null when the
// best w is the limit w -> infinity (predict takes finite w only).
export function consistencyPoint(nw, n, seed) {
  const data = nw.generateData({ nTrain: n, seed });
  const testMse = (w) => nw.meanSquaredError(nw.predict(data.xTest, data.xTrain, data.yTrain, { w }), data.yTruth);
  const choice = nw.selectBandwidth(data.xTrain, data.yTrain);
  return {
    n,
    fixedMse: testMse(FIXED_W),
    w: choice.w,
    atLimit: choice.atLimit,
    selectedMse: choice.atLimit === 'infinity' ? null : testMse(choice.w),
    approximate: choice.approximate,
    lossBound: choice.lossBound,
    loss: choice.loss,
  };
}
