// The estimators for the current settings, all computed by the WebAssembly module (no math here):
// the data, a trainer for the parametric w with its history, predictions and weights (the criteria it is
// judged by, for the landscape and the notes, are session_criteria.js's).
import { t as pageT } from '../i18n/i18n.js';
import { problemText } from '../i18n/problem_text.js';
import { BOUNDARY_MARGIN, SessionCriteria } from './session_criteria.js';

// A Trainer for data of your own starts here (generated data carry the chapter's random w0).
const OWN_DATA_W0 = 1;
// A shared link replays its trained epochs; each costs about nTrain^2 kernel evaluations.
const MAX_REPLAY_WORK = 2e8;
// "Train to convergence" stops when an epoch moves w by less than this, relatively.
const SETTLED = 1e-9;

class Session extends SessionCriteria {
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

  resetTraining(settings) {
    const objective = { kernel: settings.kernel, estimator: settings.estimator ?? 'nadarayaWatson', leaveOneOut: settings.loo === 'on', loss: settings.loss };
    // (The module says which kernels can be trained: some have no gradient in w.)
    const trainer = this.nw.isTrainable(objective.kernel, objective.estimator)
      ? new this.nw.Trainer(this.data.xTrain, this.data.yTrain, { w0: this.data.w0, lr: settings.lr, ...objective })
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

  // Epochs a link may ask to replay (and so epochs that may be trained) for this many samples.
  get maxEpochs() {
    const n = this.data.xTrain.length;
    return Math.max(1, Math.floor(MAX_REPLAY_WORK / (n * n)));
  }

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

  // Predictions at the test queries; parametric is null when the kernel cannot be trained. Each line
  // is kept until its inputs change: a query moving, a redraw, a new w (parametric line) or an epoch
  // (nonparametric line) do not compute it again (about n^2 kernel evaluations each).
  predictions(w) {
    const { data } = this;
    return {
      average: this.remember('average', [data], () => new Float64Array(data.xTest.length).fill(this.nw.averagePool(data.yTrain))),
      nonparametric: this.line('nonparametric', w),
      parametric: this.trainer ? this.line('parametric', this.learnedW) : null,
    };
  }

  // The predictions at w of the session's kernel and estimator, kept as `name`. A local-linear line
  // comes from its fit (localLinearFit), which the boundary note reads too: one pass for both.
  line(name, w) {
    const { data, kernel, estimator } = this;
    return this.remember(name, [data, w, kernel, estimator], () => (estimator === 'localLinear'
      ? this.localLinearFit(name, w).predictions
      : this.blockLine(w) ?? this.nw.predict(data.xTest, data.xTrain, data.yTrain, { w, kernel, estimator })));
  }

  // Whether line(name, w) is kept (would not be computed again).
  hasLine(name, w) {
    const last = this.remembered[name];
    const inputs = [this.data, w, this.kernel, this.estimator];
    return Boolean(last && last.inputs.every((value, i) => Object.is(value, inputs[i]))) || this.blockLine(w) !== null;
  }

  // The local-linear fit at w, { predictions, fallbackRows } (predictions exactly predict's with that
  // estimator: the module computes both with one function), kept per line name.
  localLinearFit(name, w) {
    const { data, kernel } = this;
    return this.remember(`${name}LocalLinear`, [data, w, kernel], () => this.nw.localLinear(data.xTest, data.xTrain, data.yTrain, { w, kernel }));
  }

  // compute()'s value, kept under `name` while `inputs` stay the same (Object.is, one by one).
  remember(name, inputs, compute) {
    const last = this.remembered[name];
    if (last && last.inputs.every((value, i) => Object.is(value, inputs[i]))) return last.value;
    const value = compute();
    this.remembered[name] = { inputs, value };
    return value;
  }

  // Test MSE of each estimator against the truth; null without a truth (your own data).
  testErrors(predictions) {
    const truth = this.data.yTruth;
    if (!truth) return null;
    const mse = (p) => (p ? this.nw.meanSquaredError(p, truth) : null);
    return { average: mse(predictions.average), nonparametric: mse(predictions.nonparametric), parametric: mse(predictions.parametric) };
  }

  // The weights for a heatmap, rows = test inputs (queries), columns = training inputs (keys), in at
  // most maxCells.rows x maxCells.cols blocks; withPredictions adds the predictions from the same pass.
  // Predictions of the session's own kernel are kept as that w's line (see predictions): the heatmap and
  // the line at one w then cost one pass.
  blocks(w, { kernel = this.kernel, maxCells, withPredictions = false }) {
    const { data } = this;
    const blocks = this.nw.attentionBlocks(data.xTest, data.xTrain, withPredictions ? data.yTrain : null, { w, kernel, maxBlockRows: maxCells.rows, maxBlockCols: maxCells.cols });
    if (withPredictions) this.rememberBlockPredictions(w, kernel, blocks);
    return blocks;
  }

  // Blocks computed elsewhere (the heatmap worker, or a drag preview) for request's data, w and kernel:
  // their predictions are kept as that w's line if they are this session's data's.
  acceptBlocks(request, blocks) {
    if (request.xTrain === this.data.xTrain && request.yTrain === this.data.yTrain) this.rememberBlockPredictions(request.w, request.kernel, blocks);
  }

  // Keeps the predictions that came with blocks (computed here or by a worker from this session's data)
  // as that w's line, when they are of this session's kernel and estimator (blocks are always
  // Nadaraya-Watson's: a local-linear line is computed by predict). The last two are kept: one pass can
  // give the nonparametric line and another the parametric one, and line() takes whichever matches.
  rememberBlockPredictions(w, kernel, blocks) {
    if (kernel !== this.kernel || this.estimator !== 'nadarayaWatson' || !blocks.predictions) return;
    const line = { data: this.data, kernel, w, predictions: blocks.predictions };
    this.blockLines = [line, ...this.blockLines.filter((kept) => !Object.is(kept.w, w))].slice(0, 2);
  }

  // The predictions a heatmap's pass gave at w for the current data and kernel, or null.
  blockLine(w) {
    const line = this.blockLines.find((kept) => kept.data === this.data && kept.kernel === this.kernel && Object.is(kept.w, w));
    return line && this.estimator === 'nadarayaWatson' ? line.predictions : null;
  }

  // One query's weights over the training points.
  queryWeights(query, w) {
    return this.nw.attentionWeights([query], this.data.xTrain, { w, kernel: this.kernel }).data;
  }
}

export { BOUNDARY_MARGIN, Session };
