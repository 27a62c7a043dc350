// Your own data beyond the page's exact limits (up to MAX_OWN_ROWS points). The module has binned sums
// (a grid and an FFT, each result within a stated bound of the exact one) for the Gaussian kernel with
// Nadaraya-Watson pooling alone, so:
// - above EXACT_MAX_TRAIN points only that kernel and estimator are offered: any other would take seconds
//   a line and minutes an epoch (n^2 key pairs at 100,000 points: 1e10);
// - its epochs come from the binned loss and gradient (the module's Trainer with approximate: 'auto',
//   which bins where an exact epoch would visit more than 2e7 key pairs);
// - a line or a heatmap whose exact sums would visit more than EXACT_LINE_MAX_PAIRS (query, key) pairs
//   comes from binned sums, each prediction and each heatmap block with its bound (Session.line,
//   Session.boundsOf, the module's attentionBlocks with approximate: 'auto', whose limit this is too).
// The chapter's generated data never gets there: it has at most EXACT_MAX_TRAIN points and no binned line.

// The most points a CSV may give (a file of up to 5 MB).
const MAX_OWN_ROWS = 100_000;
// The most points any kernel and estimator train and draw on (the generated data's limit too).
const EXACT_MAX_TRAIN = 2000;
// An exact line visits nTest x nTrain pairs: up to this many, about 40 ms here (100 queries of 100,000 keys).
const EXACT_LINE_MAX_PAIRS = 1e7;
// A binned epoch costs about this many key pairs' worth of exact work per training point (20 to 45 ms
// at 100,000 points, as a pass of some 4e6 to 8e6 pairs would), and at least BINNED_EPOCH_MIN_PAIRS (its
// grid and transforms: 34 ms at 5000 points): for the epochs a run may take.
const BINNED_EPOCH_PAIRS_PER_POINT = 60;
const BINNED_EPOCH_MIN_PAIRS = 1e7;

// Whether n training points are beyond the exact limit.
const isLarge = (n) => n > EXACT_MAX_TRAIN;

// The settings with a kernel and estimator that n points can use: s itself, or s with the Gaussian kernel
// and Nadaraya-Watson pooling, and the problem saying why (in t's language).
function largeDataSettings(n, s, t) {
  if (!isLarge(n) || (s.kernel === 'gaussian' && s.estimator === 'nadarayaWatson')) return { settings: s, problem: null };
  return {
    settings: { ...s, kernel: 'gaussian', estimator: 'nadarayaWatson' },
    problem: t('problem.largeDataGaussian', { n: n.toLocaleString(t.lang), max: EXACT_MAX_TRAIN.toLocaleString(t.lang) }),
  };
}

export { BINNED_EPOCH_MIN_PAIRS, BINNED_EPOCH_PAIRS_PER_POINT, EXACT_LINE_MAX_PAIRS, EXACT_MAX_TRAIN, MAX_OWN_ROWS, isLarge, largeDataSettings };
