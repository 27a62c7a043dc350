// The estimators for the current settings, all computed by the WebAssembly module (no math here):
// the data, a trainer for the parametric w with its history, predictions and attention weights.
(function (NWPage) {
  'use strict';

  class Session {
    constructor(nw) {
      this.nw = nw;
      this.data = null;
      this.trainer = null;
      this.losses = [];  // loss before each epoch's step
      this.ws = [];      // w at the start (index 0) and after each epoch
    }

    // New data for these settings; training starts again from the data's w0.
    generate(settings) {
      const data = this.nw.generateData({
        nTrain: settings.nTrain, nTest: settings.nTest, noiseSd: settings.noiseSd, seed: settings.seed,
      });
      this.data = data;
      this.resetTraining(settings.lr);
    }

    resetTraining(lr) {
      const trainer = new this.nw.Trainer(this.data.xTrain, this.data.yTrain, { w0: this.data.w0, lr });
      if (this.trainer) this.trainer.delete();
      this.trainer = trainer;
      this.losses = [];
      this.ws = [trainer.w];
    }

    // One epoch; throws NWError (keeping w) if the step diverges.
    step() {
      const loss = this.trainer.step();
      this.losses.push(loss);
      this.ws.push(this.trainer.w);
      return loss;
    }

    get epoch() { return this.trainer.epoch; }
    get learnedW() { return this.trainer.w; }

    predictions(w) {
      const { xTest, xTrain, yTrain } = this.data;
      const average = new Float64Array(xTest.length).fill(this.nw.averagePool(yTrain));
      return {
        average,
        nonparametric: this.nw.predict(xTest, xTrain, yTrain, { w }),
        parametric: this.nw.predict(xTest, xTrain, yTrain, { w: this.learnedW }),
      };
    }

    testErrors(predictions) {
      const truth = this.data.yTruth;
      return {
        average: this.nw.meanSquaredError(predictions.average, truth),
        nonparametric: this.nw.meanSquaredError(predictions.nonparametric, truth),
        parametric: this.nw.meanSquaredError(predictions.parametric, truth),
      };
    }

    // Rows = test inputs (queries), columns = training inputs (keys), both sorted.
    weights(w) {
      return this.nw.attentionWeights(this.data.xTest, this.data.xTrain, { w });
    }

    // One query's weights over the training points.
    queryWeights(query, w) {
      return this.nw.attentionWeights([query], this.data.xTrain, { w }).data;
    }
  }

  NWPage.Session = Session;
})((window.NWPage = window.NWPage || {}));
