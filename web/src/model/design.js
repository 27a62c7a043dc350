// "Design your own attention pooling" (the chapter's exercise 4): what its figure asks of the module
// (compute/design_work.js) for the page's data and settings, and the choices that go with a scoring.

// The learning rate a scoring starts with when the reader picks it (or its optimizer): Adam's usual
// 0.05 works for every scoring; plain gradient descent needs the chapter's 0.5 for w, far less for the
// dot product's s (its gradient grows with q k) and for additive attention (at 0.5 its loss thrashes).
const SGD_LR = { gaussian: 0.5, dotProduct: 0.001, additive: 0.01 };
const recommendedLr = (scoring, optimizer) => (optimizer === 'adam' ? 0.05 : SGD_LR[scoring]);

// The most epochs a link replays (and training reaches) for n training samples: an additive epoch costs
// about n^2 h tanh evaluations (0.7 s at 2000 samples), so that a link's replay stays under half a minute.
const maxDesignEpochs = (n) => Math.max(20, Math.min(5000, Math.floor(5000 * (50 / n) ** 2)));

// How many numbers a scoring learns: w, s, or wq, wk, b and v of h each.
const parameterCount = (scoring, hidden) => (scoring === 'additive' ? 4 * hidden : 1);

// Each data set (a Session's data object) gets a number, so that a request's key names it.
const dataIds = new WeakMap();
let lastDataId = 0;
function dataId(data) {
  if (!dataIds.has(data)) dataIds.set(data, ++lastDataId);
  return dataIds.get(data);
}

// The request for design_work.js at settings s: key.design changes when the training run must start
// again, key.gaussian when the chapter's Gaussian beside it must be trained again.
function designRequest(data, s, maxCells) {
  const id = dataId(data);
  const leaveOneOut = s.loo === 'on';
  return {
    key: {
      design: [id, s.scoring, s.scoring === 'additive' ? s.hidden : '', s.optimizer, s.designLr, s.loo, s.loss].join('|'),
      gaussian: [id, s.lr, s.epochs, s.loo, s.loss].join('|'),
    },
    data: { xTrain: data.xTrain, yTrain: data.yTrain, xTest: data.xTest, yTruth: data.yTruth ?? null, w0: data.w0, seed: s.seed },
    design: { scoring: s.scoring, hidden: s.hidden, optimizer: s.optimizer, lr: s.designLr, leaveOneOut, loss: s.loss },
    chapter: { lr: s.lr, epochs: s.epochs },
    to: Math.min(s.designTrained, maxDesignEpochs(data.xTrain.length)),
    maxCells,
  };
}

// Whether two requests ask for the same training and Gaussian (their heatmaps' sizes aside: a resized
// heatmap asks again itself when its blocks no longer fit, see HeatmapChart.resized).
const sameRequest = (a, b) => a !== null && b !== null && a.key.design === b.key.design && a.key.gaussian === b.key.gaussian && a.to === b.to;

// The settings after the reader changed `name` to `next[name]`: a new scoring or optimizer brings its
// own learning rate (the reader may change it afterwards), and a new model starts untrained, so that
// Train shows it learn (a link's designTrained still replays its epochs).
function afterDesignEdit(next, name) {
  if (name === 'scoring' || name === 'optimizer') return { ...next, designLr: recommendedLr(next.scoring, next.optimizer), designTrained: 0 };
  if (name === 'hidden' || name === 'designLr') return { ...next, designTrained: 0 };
  return next;
}

export { afterDesignEdit, designRequest, maxDesignEpochs, parameterCount, recommendedLr, sameRequest };
