// A Session's lines and weights (a base class of Session, as SessionCriteria is of this): the three
// estimators' predictions at the test queries, kept until their inputs change, the heatmaps' blocks and a
// query's weights, all computed by the module. Its methods read the Session's nw, data, objective,
// trainer and remembered values. Large data of your own may have binned lines (model/large_data.js).
import { EXACT_LINE_MAX_PAIRS } from './large_data.js';
import { SessionCriteria } from './session_criteria.js';

class SessionLines extends SessionCriteria {
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
      : this.blockLine(w) ?? (this.binsLines ? this.binnedLine(w) : this.nw.predict(data.xTest, data.xTrain, data.yTrain, { w, kernel, estimator }))));
  }

  // The module's approximate option for this data: 'auto' for your own (large data get binned heatmaps,
  // lines and epochs where the module finds them cheaper: blocks beyond 1e7 pairs, the same as
  // EXACT_LINE_MAX_PAIRS), 'never' for generated data.
  get approximation() { return this.data.yTruth ? 'never' : 'auto'; }

  // Whether lines not given by a heatmap's pass come from binned sums: your own data's Gaussian
  // Nadaraya-Watson lines where the exact ones would visit more than EXACT_LINE_MAX_PAIRS pairs.
  get binsLines() {
    const { data } = this;
    return !data.yTruth && this.kernel === 'gaussian' && this.estimator === 'nadarayaWatson'
      && data.xTest.length * data.xTrain.length > EXACT_LINE_MAX_PAIRS;
  }

  // The same predictions as a heatmap's binned pass gives (one block: nothing else is computed).
  binnedLine(w) {
    return this.blocks(w, { maxCells: { rows: 1, cols: 1 }, withPredictions: true }).predictions;
  }

  // Each prediction's bound (|binned - exact| <= bound) for a line from binned sums, or null for an exact line.
  boundsOf(line) {
    return (line && this.lineBounds.get(line)) ?? null;
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
    const blocks = this.nw.attentionBlocks(data.xTest, data.xTrain, withPredictions ? data.yTrain : null, {
      w, kernel, maxBlockRows: maxCells.rows, maxBlockCols: maxCells.cols, approximate: this.approximation,
    });
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
    if (blocks.predictionBounds) this.lineBounds.set(blocks.predictions, blocks.predictionBounds);
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

export { SessionLines };
