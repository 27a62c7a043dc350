// One point of the consistency figure, for the page's thread and its worker alike: n training samples of
// the chapter's data (from the page's seed), and the test MSE of Nadaraya-Watson pooling at the fixed w and
// at the w that selectBandwidth chooses for those n. Everything is computed by the module.

// The sample sizes, log-spaced from the chapter's 50 to 1,000,000 (#31: Compute to the last point within
// 4 s in Chromium on two cores; see docs/performance.md for the times measured). The 1,000,000 point alone
// takes about 2.3 s in Node (generateData 0.2 s, selectBandwidth 1.9 s, two predicts 0.2 s), more in a
// worker beside another; the other worker goes through the rest meanwhile (consistency_run.js).
export const CONSISTENCY_NS = [50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000];
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
