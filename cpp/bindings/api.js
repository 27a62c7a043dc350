// The public JavaScript API over the Embind glue (appended to the module with --post-js): turns
// { error } results into thrown NWError and gives the trainer JS getters. Conversions only, no math.
class NWError extends Error {
  constructor(message) {
    super(message);
    this.name = 'NWError';
  }
}

function unwrapResult(result) {
  if (result.error !== undefined) throw new NWError(result.error);
  return result.value;
}

class Trainer {
  constructor(xTrain, yTrain, options) {
    this._raw = unwrapResult(Module['rawCreateTrainer'](xTrain, yTrain, options));
  }
  // One epoch; returns the loss before the step.
  step() { return unwrapResult(this._raw.step()); }
  get w() { return this._raw.w(); }
  get epoch() { return this._raw.epoch(); }
  // Frees the C++ trainer (it holds a copy of the training data in wasm memory).
  delete() {
    if (this._raw) this._raw.delete();
    this._raw = null;
  }
}

Module['NWError'] = NWError;
Module['Trainer'] = Trainer;
Module['generateData'] = (options) => unwrapResult(Module['rawGenerateData'](options));
Module['target'] = (x) => unwrapResult(Module['rawTarget'](x));
Module['averagePool'] = (values) => unwrapResult(Module['rawAveragePool'](values));
Module['meanSquaredError'] = (predicted, truth) => unwrapResult(Module['rawMeanSquaredError'](predicted, truth));
Module['predict'] = (queries, keys, values, options) =>
  unwrapResult(Module['rawPredict'](queries, keys, values, options));
Module['attentionWeights'] = (queries, keys, options) =>
  unwrapResult(Module['rawAttentionWeights'](queries, keys, options));
Module['looLoss'] = (xTrain, yTrain, options) => unwrapResult(Module['rawLooLoss'](xTrain, yTrain, options));
Module['selectBandwidth'] = (xTrain, yTrain, options) => unwrapResult(Module['rawSelectBandwidth'](xTrain, yTrain, options));
Module['testGrid'] = (xMin, xMax, n) => unwrapResult(Module['rawTestGrid'](xMin, xMax, n));
Module['kernelValue'] = (kernel, d) => unwrapResult(Module['rawKernelValue'](kernel, d));
// The kernel names, in the core's order.
Module['kernelNames'] = () => Module['rawKernelNames']();
Module['attentionBlocks'] = (queries, keys, values, options) =>
  unwrapResult(Module['rawAttentionBlocks'](queries, keys, values, options));
