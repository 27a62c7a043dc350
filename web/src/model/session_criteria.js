// What a Session (session.js) is judged by beyond its lines, for the loss landscape and the notes: the
// objective L(w), the test MSE and the corrected AIC along w, their minimisers, and the boundary
// comparison of local-linear with Nadaraya-Watson pooling. All computed by the module. A base class of
// Session: its methods read the Session's nw, data, objective, trainer and remember().

// The corrected AIC needs this many training points (the module refuses fewer).
const AIC_MIN_POINTS = 5;
// The boundary note compares the test error of the queries this near either end of the data's x range.
const BOUNDARY_MARGIN = 0.5;

class SessionCriteria {
  // The training objective L(w) at each w.
  objectiveAt(ws) {
    const { xTrain, yTrain } = this.data;
    return ws.map((w) => this.nw.looLoss(xTrain, yTrain, { w, ...this.objective }).loss);
  }

  // The nonparametric estimator's test MSE against the truth at each w (null without a truth).
  testMseAt(ws) {
    const { xTest, xTrain, yTrain, yTruth } = this.data;
    if (!yTruth) return null;
    const { kernel, estimator } = this;
    return ws.map((w) => this.nw.meanSquaredError(this.nw.predict(xTest, xTrain, yTrain, { w, kernel, estimator }), yTruth));
  }

  // Whether the corrected AIC applies beside the objective: a trainable kernel, leave-one-out on (AIC
  // fits each point with its own key in, so it stands beside the leave-one-out criterion only) and the
  // module's minimum of 5 points.
  get hasAic() { return this.canTrain && this.objective.leaveOneOut && this.data.xTrain.length >= AIC_MIN_POINTS; }

  // AICc(w) at each w (Infinity where tr(H) >= n - 2), for the session's kernel and estimator.
  aicAt(ws) {
    const { xTrain, yTrain } = this.data;
    const { kernel, estimator } = this;
    return ws.map((w) => this.nw.aicLoss(xTrain, yTrain, { w, kernel, estimator }).loss);
  }

  // The AICc's minimiser { w, loss, atLimit } as selectBandwidth finds it (searched only where
  // tr(H) < n - 2), or null where the AIC does not apply (see hasAic).
  bestAicBandwidth() {
    if (!this.hasAic) return null;
    return this.nw.selectBandwidth(this.data.xTrain, this.data.yTrain, { kernel: this.kernel, estimator: this.estimator, criterion: 'aic' });
  }

  // How local-linear pooling at w changes the error near the ends of the data: the test MSE of the
  // queries within `margin` of either end of the x range, Nadaraya-Watson's and local-linear's (null
  // without a truth), over all queries too, and the queries whose local design was singular (they
  // predict the Nadaraya-Watson value). Kept while the data, w and kernel stay.
  boundaryComparison(w, margin = BOUNDARY_MARGIN) {
    const { data, kernel } = this;
    return this.remember('boundary', [data, w, kernel, margin], () => {
      const { xTest, xTrain, yTrain, yTruth } = data;
      const local = this.localLinearFit('nonparametric', w);
      const fallbacks = local.fallbackRows.reduce((sum, flag) => sum + (flag ? 1 : 0), 0);
      const { xMin, xMax } = this.xRange;
      const edge = Array.from(xTest.keys()).filter((i) => xTest[i] - xMin <= margin || xMax - xTest[i] <= margin);
      const result = { w, margin, edgeCount: edge.length, fallbacks, total: xTest.length, edge: null, all: null };
      if (!yTruth || edge.length === 0) return result;
      const nadarayaWatson = this.nw.predict(xTest, xTrain, yTrain, { w, kernel, estimator: 'nadarayaWatson' });
      const pick = (values) => Float64Array.from(edge, (i) => values[i]);
      const edgeTruth = pick(yTruth);
      result.edge = { nadarayaWatson: this.nw.meanSquaredError(pick(nadarayaWatson), edgeTruth), localLinear: this.nw.meanSquaredError(pick(local.predictions), edgeTruth) };
      result.all = { nadarayaWatson: this.nw.meanSquaredError(nadarayaWatson, yTruth), localLinear: this.nw.meanSquaredError(local.predictions, yTruth) };
      return result;
    });
  }

  // The objective's minimiser { w, loss, atLimit } as selectBandwidth finds it (null for untrainable kernels).
  bestBandwidth() {
    return this.trainer ? this.nw.selectBandwidth(this.data.xTrain, this.data.yTrain, this.objective) : null;
  }
}

export { BOUNDARY_MARGIN, SessionCriteria };
