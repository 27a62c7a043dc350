// The estimators for the current settings, all computed by the WebAssembly module (no math here):
// the data and a trainer for the parametric w with its history (its lines and weights are
// session_lines.js's; the criteria it is judged by, for the landscape and the notes, session_criteria.js's).
import { t as pageT } from '../i18n/i18n.js';
import { problemText } from '../i18n/problem_text.js';
import { BINNED_EPOCH_MIN_PAIRS, BINNED_EPOCH_PAIRS_PER_POINT, isLarge, largeDataSettings } from './large_data.js';
import { BOUNDARY_MARGIN } from './session_criteria.js';
import { SessionLines } from './session_lines.js';

// A Trainer for data of your own starts here (generated data carry the chapter's random w0).
const OWN_DATA_W0 = 1;
// A shared link replays its trained epochs; each costs about nTrain^2 kernel evaluations.
const MAX_REPLAY_WORK = 2e8;
// "Train to convergence" stops when an epoch moves w by less than this, relatively.
const SETTLED = 1e-9;

class Session extends SessionLines {
  // t: the language of the problems it reports (the page's, or a <nw-figure>'s).
  constructor(nw, { t = pageT } = {}) {
    super();
    this.nw = nw;
    this.t = t;
    this.data = null;       // { xTrain, yTrain, xTest, yTruth (null for your own data), w0 }
    this.objective = null;  // { kernel, estimator, leaveOneOut, loss }
    this.trainer = null;    // null when the kernel cannot be trained
    this.losses = [];       // training loss before each epoch's step
    this.ws = [];           // w at the start (index 0) and after each epoch
    this.testMseCache = []; // the parametric estimator's test MSE at ws[0..] so far (see testMses)
    this.remembered = {}; // name -> { inputs, value }: the last predictions (see remember)
    this.blockLines = []; // predictions that came with heatmap passes (see rememberBlockPredictions)
    this.lineBounds = new WeakMap(); // a binned line's predictions -> their bounds (see boundsOf)
    this.setAside = null; // the kernel and estimator large data ruled out, to come back after (see fitToData)
  }

  // New generated data for these settings; training starts again from the data's w0.
  generate(settings) {
    this.data = this.nw.generateData({
      nTrain: settings.nTrain, nTest: settings.nTest, noiseSd: settings.noiseSd, seed: settings.seed,
    });
    this.resetTraining(settings);
  }

  // Your own (x, y) pairs, sorted by x; the queries are a grid over their range.
  useOwnData(points, settings) {
    const order = Array.from(points.x.keys()).sort((a, b) => points.x[a] - points.x[b]);
    const xTrain = Float64Array.from(order, (i) => points.x[i]);
    const yTrain = Float64Array.from(order, (i) => points.y[i]);
    const xMax = xTrain[xTrain.length - 1] > xTrain[0] ? xTrain[xTrain.length - 1] : xTrain[0] + 1;
    const xTest = this.nw.testGrid(xTrain[0], xMax, settings.nTest);
    this.data = { xTrain, yTrain, xTest, yTruth: null, w0: OWN_DATA_W0 };
    this.resetTraining(settings);
  }

  // The settings with a kernel and estimator the data can use (model/large_data.js), training again
  // when they changed, and the problem saying why (null when they fit). The kernel and estimator the
  // reader last asked for while large data ruled them out are kept while the data stay large, and come
  // back with restore (the reader's own data action: Clear my data, a smaller file; not an exercise, a
  // link or a session file, which say what they want) once the data are small again.
  fitToData(settings, { restore = false } = {}) {
    const n = this.data.xTrain.length;
    if (!isLarge(n)) {
      const aside = restore ? this.setAside : null;
      this.setAside = null;
      const restored = { ...settings, ...aside };
      if (restored.kernel !== settings.kernel || restored.estimator !== settings.estimator) this.resetTraining(restored);
      return { settings: restored, problem: null };
    }
    const fitted = largeDataSettings(n, settings, this.t);
    if (fitted.problem) {
      this.setAside = { kernel: settings.kernel, estimator: settings.estimator };
      this.resetTraining(fitted.settings);
    }
    return fitted;
  }

  resetTraining(settings) {
    const objective = { kernel: settings.kernel, estimator: settings.estimator ?? 'nadarayaWatson', leaveOneOut: settings.loo === 'on', loss: settings.loss };
    // (The module says which kernels can be trained: some have no gradient in w.)
    // Your own data may be large enough for binned epochs (model/large_data.js); generated data never.
    const approximate = this.approximation;
    const trainer = this.nw.isTrainable(objective.kernel, objective.estimator)
      ? new this.nw.Trainer(this.data.xTrain, this.data.yTrain, { w0: this.data.w0, lr: settings.lr, ...objective, approximate })
      : null;
    if (this.trainer) this.trainer.delete();
    this.trainer = trainer;
    this.objective = objective;
    this.losses = [];
    this.ws = trainer ? [trainer.w] : [];
    this.testMseCache = [];
  }

  // The parametric estimator's test MSE at each ws[i] (empty without a truth or a trainer). The current
  // w's is computed when first read, so that its line can come from a heatmap's pass computed elsewhere
  // (a worker) rather than from a predict here; each earlier w's was computed before the step left it.
  get testMses() {
    if (!this.trainer || !this.data.yTruth) return [];
    while (this.testMseCache.length < this.ws.length) {
      const w = this.ws[this.testMseCache.length];
      const { data, kernel, estimator } = this;
      const line = Object.is(w, this.learnedW) ? this.line('parametric', w)
        : this.blockLine(w) ?? this.nw.predict(data.xTest, data.xTrain, data.yTrain, { w, kernel, estimator });
      this.testMseCache.push(this.nw.meanSquaredError(line, data.yTruth));
    }
    return this.testMseCache;
  }

  // One epoch; throws NWError (keeping w) if the step diverges. With `rows` (epochRowsRequest's answer,
  // computed elsewhere: the row pool) the epoch only sums them here, to the same w bit for bit.
  // The rows may bring the line of the w being left (rows.line, see parametricLineWanted), computed
  // there too.
  step(rows = null) {
    if (rows && rows.line) this.keepParametricLine(rows.line);
    void this.testMses; // the w being left: its line is at hand now
    const loss = rows ? this.trainer.stepWithRows(rows.lossRows, rows.gradRows) : this.trainer.step();
    this.losses.push(loss);
    this.ws.push(this.trainer.w);
    return loss;
  }

  // Epochs a link may ask to replay (and so epochs that may be trained) for this many samples: an exact
  // epoch visits n^2 key pairs, a binned one about BINNED_EPOCH_PAIRS_PER_POINT n pairs' worth (at least
  // BINNED_EPOCH_MIN_PAIRS); the module bins an epoch only where that is cheaper than the exact one.
  get maxEpochs() {
    const n = this.data.xTrain.length;
    const epochWork = this.trainsApproximately ? Math.max(BINNED_EPOCH_PAIRS_PER_POINT * n, BINNED_EPOCH_MIN_PAIRS) : n * n;
    return Math.max(1, Math.floor(MAX_REPLAY_WORK / epochWork));
  }

  // Whether epochs come from binned sums (large data of your own): each loss is then within
  // trainer.lossBound of the exact one, and epochs are not computed in rows by workers.
  get trainsApproximately() { return Boolean(this.trainer && this.trainer.approximate); }

  // Replays training up to `trained` epochs (a link's or an attribute's), at most maxEpochs; returns
  // why it stopped short, or null. A step that diverges throws NWError (keeping w).
  replay(trained) {
    const { target, problem } = this.replayPlan(trained);
    while (this.epoch < target) this.step();
    return problem;
  }

  // What replay(trained) would do: { target: the epoch it trains to, problem: why not `trained`, or null }.
  replayPlan(trained) {
    if (!this.canTrain) return { target: this.epoch, problem: null };
    const target = Math.min(trained, this.maxEpochs);
    return { target, problem: trained > target ? this.t('problem.replayLimit', { epochs: target, n: this.data.xTrain.length }) : null };
  }

  // One epoch for a Train or Step button: { stepped, problem }, where problem says why it did not run
  // (the epoch limit, or a step that diverged and kept w); an untrainable kernel just does not step.
  // With `rows`, the epoch is summed from them (see step).
  tryStep(rows = null) {
    if (!this.canTrain) return { stepped: false, problem: null };
    if (this.epoch >= this.maxEpochs) {
      return { stepped: false, problem: this.t('problem.epochLimit', { epochs: this.maxEpochs, n: this.data.xTrain.length }) };
    }
    try {
      this.step(rows);
    } catch (error) {
      return { stepped: false, problem: problemText(error, { t: this.t, epoch: this.epoch + 1, w: String(this.learnedW) }) };
    }
    return { stepped: true, problem: null };
  }

  // What the next epoch's rows are computed from (nw.looLossRows' options, for the row pool), and the
  // trainer they are for: rows that come back when the trainer or its w has changed are not used.
  epochRowsRequest() {
    const { kernel, estimator, leaveOneOut } = this.objective;
    return { trainer: this.trainer, w: this.learnedW, options: { w: this.learnedW, kernel, estimator, leaveOneOut } };
  }

  // Whether the next step would compute the current w's parametric line here (for its test MSE): then
  // epoch rows computed elsewhere had better bring it (as { w, predictions }, options as predict's).
  parametricLineWanted() {
    return Boolean(this.trainer && this.data.yTruth) && !this.hasLine('parametric', this.learnedW);
  }

  lineOptions() {
    const { kernel, estimator } = this.objective;
    return { w: this.learnedW, kernel, estimator };
  }

  // predictions: the parametric line at w (exactly predict's for the session's data, kernel and
  // estimator), kept as line() would keep it.
  keepParametricLine({ w, predictions }) {
    const { data, kernel, estimator } = this;
    this.remembered.parametric = { inputs: [data, w, kernel, estimator], value: predictions };
  }

  // Whether rows computed for `request` still fit this session's next epoch.
  fits(request) {
    return request.trainer === this.trainer && Object.is(request.w, this.learnedW);
  }

  // One epoch (from `rows` if given, see step); true when it moved w by less than SETTLED relatively
  // (training has settled). Throws NWError (keeping w) if the step diverges.
  settlingStep(rows = null) {
    const before = this.learnedW;
    this.step(rows);
    return Math.abs(this.learnedW - before) <= SETTLED * Math.abs(before);
  }

  // Steps until an epoch settles (true) or the epoch count reaches maxEpochs (false).
  trainUntilSettled(maxEpochs) {
    while (this.epoch < maxEpochs) if (this.settlingStep()) return true;
    return false;
  }

  // The x range every plot of the data shows: training and test inputs together.
  get xRange() {
    const { xTrain, xTest } = this.data;
    return { xMin: Math.min(xTrain[0], xTest[0]), xMax: Math.max(xTrain[xTrain.length - 1], xTest[xTest.length - 1]) };
  }

  // Whose attention the query shows (setting "Show attention of"): 'nonparametric' (at the settings' w)
  // or 'parametric' (at the learned w, which an untrainable kernel does not have). 'auto' shows the
  // nonparametric until the first epoch: until then the parametric w is the random w0.
  attentionShown(settings) {
    if (!this.canTrain || settings.attend === 'nonparametric') return 'nonparametric';
    return settings.attend === 'auto' && this.epoch === 0 ? 'nonparametric' : 'parametric';
  }

  attentionFollowsW(settings) { return this.attentionShown(settings) === 'nonparametric'; }

  // The attend setting once the reader points at a query: on a heatmap's row ('nonparametric' or
  // 'parametric'), that heatmap's attention is shown (the reader is looking at it); elsewhere (null)
  // the setting stays.
  attendPointedAt(settings, heatmap) {
    return heatmap && this.attentionShown(settings) !== heatmap ? heatmap : settings.attend;
  }

  get canTrain() { return this.trainer !== null; }
  get epoch() { return this.trainer ? this.trainer.epoch : 0; }
  get learnedW() { return this.trainer ? this.trainer.w : NaN; }
  get kernel() { return this.objective.kernel; }
  get estimator() { return this.objective.estimator; }
}

export { BOUNDARY_MARGIN, Session };
