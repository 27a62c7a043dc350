// The validation table of docs/api.md, row by row: every invalid input is an NWError naming the
// parameter, with its code and parameter in data, every example message of the table is what the module
// throws (with the table's code), and a million of them leave the module correct and its memory unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertContract, sources } from './contract.mjs';
import { createNW } from './module.mjs';

const nw = await createNW();
const x = [0, 1, 2];
const y = [1, 3, 2];
const x4 = [0, 1, 2, 3];
const y4 = [1, 0, 2, 1];
const detached = new Float64Array([1, 2]);
structuredClone(detached.buffer, { transfer: [detached.buffer] });
const sparse = new Array(2 ** 29);
const throwingEntry = Object.defineProperty([1, 2], 1, { get() { throw new Error('entry'); } });
const live = new nw.Trainer(x, y);
const deleted = new nw.Trainer(x, y);
deleted.delete();
const diverging = new nw.Trainer(x4, [0, 5, -5, 0], { w0: 1, lr: 1e308 });
// Trainers of other scorings, made once (a call that made one each time would grow the heap until GC).
const dotTrainer = new nw.Trainer(x4, [0, 5, -5, 0], { scoring: 'dotProduct' });
const additiveTrainer = new nw.Trainer(x4, [0, 5, -5, 0], { scoring: 'additive' });

// [label, call, message, code, parameter]

const invalidCalls = [
  // arrays
  ['empty queries', () => nw.predict([], x, y), /^queries must not be empty$/, 'empty', 'queries'],
  ['empty keys', () => nw.attentionWeights([1], []), /^keys must not be empty$/, 'empty', 'keys'],
  ['empty values', () => nw.averagePool([]), /^values must not be empty$/, 'empty', 'values'],
  ['mismatched keys and values', () => nw.predict([1], [1, 2], [1]), /^values must have the same length as keys \(2\), got 1$/, 'length-mismatch', 'values'],
  ['mismatched training arrays', () => nw.looLoss([0, 1, 2], [1, 2]), /^yTrain must have the same length as xTrain \(3\), got 2$/, 'length-mismatch', 'yTrain'],
  ['NaN in keys', () => nw.predict([1], [1, NaN], [1, 2]), /^keys\[1\] must be a finite number, got NaN$/, 'not-finite', 'keys'],
  ['Infinity in queries', () => nw.predict([Infinity], x, y), /^queries\[0\] must be a finite number, got Infinity$/, 'not-finite', 'queries'],
  ['-Infinity in yTrain', () => nw.looLoss(x, [1, -Infinity, 2]), /^yTrain\[1\] must be a finite number, got -Infinity$/, 'not-finite', 'yTrain'],
  ['non-numeric entry', () => nw.predict([1], ['a'], [1]), /^keys\[0\] must be a finite number, got string$/, 'wrong-type', 'keys'],
  ['a number for an array', () => nw.predict(3, x, y), /^queries must be an array or typed array of numbers, got number$/, 'wrong-type', 'queries'],
  ['a string for an array', () => nw.averagePool('123'), /^values must be an array or typed array of numbers, got string$/, 'wrong-type', 'values'],
  ['null for an array', () => nw.looLoss(null, y), /^xTrain must be an array or typed array of numbers, got object$/, 'wrong-type', 'xTrain'],
  ['a missing array', () => nw.attentionWeights([1]), /^keys must be an array or typed array of numbers, got undefined$/, 'wrong-type', 'keys'],
  ['an array-like object', () => nw.predict({ length: 1, 0: 1 }, x, y), /^queries must be an array or typed array/, 'wrong-type', 'queries'],
  ['one training point', () => nw.looLoss([1], [1]), /^xTrain must have at least 2 points/, 'too-few-points', 'xTrain'],
  ['training value beyond 1e100', () => nw.looLoss(x, [1, 1e101, 2]), /^yTrain\[1\] must be at most 1e100 in magnitude/, 'out-of-range', 'yTrain'],
  ['a matrix beyond 2^24 cells', () => nw.attentionWeights(new Float64Array(4097), new Float64Array(4096)), /^queries.length x keys.length must be at most 16777216 cells/, 'too-large', 'queries'],
  // sizes and data options
  ['nTrain of 0', () => nw.generateData({ nTrain: 0 }), /^nTrain must be an integer from 1 to 1000000, got 0$/, 'out-of-range', 'nTrain'],
  ['negative nTrain', () => nw.generateData({ nTrain: -5 }), /^nTrain must be an integer from 1 to 1000000, got -5$/, 'out-of-range', 'nTrain'],
  ['nTrain of 1e9', () => nw.generateData({ nTrain: 1e9 }), /^nTrain must be an integer from 1 to 1000000, got 1000000000$/, 'out-of-range', 'nTrain'],
  ['fractional nTest', () => nw.generateData({ nTest: 2.5 }), /^nTest must be an integer from 1 to 1000000, got 2.5$/, 'out-of-range', 'nTest'],
  ['NaN nTest', () => nw.generateData({ nTest: NaN }), /^nTest must be an integer from 1 to 1000000, got NaN$/, 'not-finite', 'nTest'],
  ['negative noise', () => nw.generateData({ noiseSd: -1 }), /^noiseSd must be a finite number >= 0, got -1$/, 'out-of-range', 'noiseSd'],
  ['infinite noise', () => nw.generateData({ noiseSd: Infinity }), /^noiseSd must be a finite number >= 0, got Infinity$/, 'not-finite', 'noiseSd'],
  ['xMin below 0', () => nw.generateData({ xMin: -1 }), /^xMin must be a number from 0 to 1e6/, 'out-of-range', 'xMin'],
  ['xMin = xMax', () => nw.generateData({ xMin: 2, xMax: 2 }), /^xMax must be greater than xMin \(2\)/, 'out-of-range', 'xMax'],
  ['xMin > xMax', () => nw.generateData({ xMin: 3, xMax: 1 }), /^xMax must be greater than xMin \(3\)/, 'out-of-range', 'xMax'],
  ['NaN xMax', () => nw.generateData({ xMax: NaN }), /^xMax must be greater than xMin \(0\) and at most 1e6, got NaN$/, 'not-finite', 'xMax'],
  ['seed beyond 2^53', () => nw.generateData({ seed: 2 ** 60 }), /^seed must be an integer from 0 to 9007199254740991/, 'out-of-range', 'seed'],
  ['negative seed', () => nw.generateData({ seed: -1 }), /^seed must be an integer from 0 to 9007199254740991, got -1$/, 'out-of-range', 'seed'],
  ['fractional seed', () => nw.generateData({ seed: 1.5 }), /^seed must be an integer from 0 to 9007199254740991, got 1.5$/, 'out-of-range', 'seed'],
  ['string seed', () => nw.generateData({ seed: '1' }), /^seed must be a number, got string$/, 'wrong-type', 'seed'],
  ['target below 0', () => nw.target(-1), /^x must be a number from 0 to 1e6/, 'out-of-range', 'x'],
  ['target of NaN', () => nw.target(NaN), /^x must be a number from 0 to 1e6 .*got NaN$/, 'not-finite', 'x'],
  ['target of a string', () => nw.target('1'), /^x must be a number, got string$/, 'wrong-type', 'x'],
  // bandwidth and training options
  ['infinite w', () => nw.predict([1], x, y, { w: Infinity }), /^w must be a finite number, got Infinity$/, 'not-finite', 'w'],
  ['NaN w in looLoss', () => nw.looLoss(x, y, { w: NaN }), /^w must be a finite number, got NaN$/, 'not-finite', 'w'],
  ['null w', () => nw.attentionWeights([1], x, { w: null }), /^w must be a number, got object$/, 'wrong-type', 'w'],
  ['lr of 0', () => new nw.Trainer(x, y, { lr: 0 }), /^lr must be a finite number > 0, got 0$/, 'out-of-range', 'lr'],
  ['negative lr', () => new nw.Trainer(x, y, { lr: -1 }), /^lr must be a finite number > 0, got -1$/, 'out-of-range', 'lr'],
  ['NaN lr', () => new nw.Trainer(x, y, { lr: NaN }), /^lr must be a finite number > 0, got NaN$/, 'not-finite', 'lr'],
  ['infinite w0', () => new nw.Trainer(x, y, { w0: Infinity }), /^w0 must be a finite number, got Infinity$/, 'not-finite', 'w0'],
  // option objects
  ['unknown option W', () => nw.predict([1], x, y, { W: 3 }), /^options: unknown option 'W' \(expected w, kernel, estimator\)$/, 'unknown-option', 'options'],
  ['unknown localLinear option', () => nw.localLinear([1], x, y, { estimator: 'localLinear' }), /^options: unknown option 'estimator' \(expected w, kernel\)$/, 'unknown-option', 'options'],
  ['unknown estimator', () => nw.predict([1], x, y, { estimator: 'll' }), /^estimator must be one of nadarayaWatson, localLinear, got 'll'$/, 'unknown-value', 'estimator'],
  ['estimator as a number', () => nw.looLoss(x, y, { estimator: 1 }), /^estimator must be a string, got number$/, 'wrong-type', 'estimator'],
  ['unknown estimator for selectBandwidth', () => nw.selectBandwidth(x, y, { estimator: 'LocalLinear' }), /^estimator must be one of nadarayaWatson, localLinear, got 'LocalLinear'$/, 'unknown-value', 'estimator'],
  ['unknown criterion', () => nw.selectBandwidth(x, y, { criterion: 'bic' }), /^criterion must be one of looCv, aic, got 'bic'$/, 'unknown-value', 'criterion'],
  ['leaveOneOut with the AIC', () => nw.selectBandwidth(x, y, { criterion: 'aic', leaveOneOut: true }), /^leaveOneOut applies only to criterion looCv/, 'not-applicable', 'leaveOneOut'],
  ['unknown selectBandwidth option', () => nw.selectBandwidth(x, y, { lr: 1 }), /^options: unknown option 'lr' \(expected kernel, leaveOneOut, loss, estimator, criterion, approximate\)$/, 'unknown-option', 'options'],
  ['unknown aicLoss option', () => nw.aicLoss(x, y, { leaveOneOut: false }), /^options: unknown option 'leaveOneOut' \(expected w, kernel, estimator\)$/, 'unknown-option', 'options'],
  ['unknown estimator for a Trainer', () => new nw.Trainer(x, y, { estimator: null }), /^estimator must be a string, got object$/, 'wrong-type', 'estimator'],
  ['unknown data option', () => nw.generateData({ ntrain: 5 }), /^options: unknown option 'ntrain' \(expected nTrain, nTest, noiseSd, xMin, xMax, seed\)$/, 'unknown-option', 'options'],
  ['hidden units beyond 64', () => new nw.Trainer(x, y, { scoring: 'additive', hidden: 65 }), /^hidden must be an integer from 1 to 64, got 65$/, 'out-of-range', 'hidden'],
  ['an option of another scoring', () => new nw.Trainer(x, y, { scoring: 'dotProduct', w0: 2 }), /^w0 applies to the gaussian scoring, not dotProduct$/, 'not-applicable', 'w0'],
  ['a start given twice', () => new nw.Trainer(x, y, { scoring: 'additive', seed: 3, parameters: { wq: [1], wk: [1], b: [0], v: [1] } }), /^seed does not apply when parameters gives the start$/, 'not-applicable', 'seed'],
  ['parameters of another scoring', () => nw.scoringWeights(x, x, { scoring: 'gaussian', parameters: { s: 1 } }), /^parameters of gaussian are \{ w \}, got \{ s \}$/, 'not-applicable', 'parameters'],
  ['additive parameters of two lengths', () => nw.scoringPredict(x, x, y, { scoring: 'additive', parameters: { wq: [1, 2], wk: [1], b: [0, 0], v: [1, 1] } }), /^parameters wq, wk, b and v must have one length h, got 2 \(wq\) and 1 \(wk\)$/, 'length-mismatch', 'parameters'],
  ['no parameters for a scoring function', () => nw.scoringLooLoss(x, y, { scoring: 'dotProduct' }), /^parameters must be given/, 'wrong-type', 'parameters'],
  ['an unknown optimizer', () => new nw.Trainer(x, y, { optimizer: 'rmsprop' }), /^optimizer must be one of sgd, adam, got 'rmsprop'$/, 'unknown-value', 'optimizer'],
  ['an unknown scoring', () => new nw.Trainer(x, y, { scoring: 'cosine' }), /^scoring must be one of gaussian, dotProduct, additive, got 'cosine'$/, 'unknown-value', 'scoring'],
  ['a dot product that overflows', () => nw.scoringWeights([1e200], [1e200, 1], { scoring: 'dotProduct', parameters: { s: 1 } }), /^parameters: a score of dotProduct is not finite/, 'not-finite', 'parameters'],
  ['the w of another scoring', () => dotTrainer.w, /^w: this trainer's scoring is dotProduct; read trainer.parameters$/, 'not-applicable', 'this'],
  ['rows for another scoring', () => additiveTrainer.stepWithRows([1, 1, 1, 1], [0, 0, 0, 0]), /^lossRows: only the gaussian scoring trains from rows, not additive$/, 'not-applicable', 'lossRows'],
  ['scoring rows for the gaussian scoring', () => nw.scoringLooRows(x, y, { scoring: 'gaussian', parameters: { w: 1 } }), /^parameters: the gaussian scoring's rows are looLossRows'/, 'not-applicable', 'parameters'],
  ['a gradient sum of another length', () => nw.scoringLooRows(x, y, { scoring: 'dotProduct', parameters: { s: 1 }, gradSum: [0, 0] }), /^gradSum must have one value per parameter \(1\), got 2$/, 'length-mismatch', 'gradSum'],
  ['a negative loss sum', () => nw.scoringLooRows(x, y, { scoring: 'dotProduct', parameters: { s: 1 }, lossSum: -1 }), /^lossSum must be a finite sum of squares \(at least 0\), got -1$/, 'out-of-range', 'lossSum'],
  ['sums for the gaussian trainer', () => live.stepWithSums(0, [0]), /^lossSum: the gaussian scoring trains from looLossRows' rows/, 'not-applicable', 'lossSum'],
  ['a loss sum as a string', () => additiveTrainer.stepWithSums('1', []), /^lossSum must be a number, got string$/, 'wrong-type', 'lossSum'],
  ['unknown trainer option', () => new nw.Trainer(x, y, { learningRate: 0.1 }), /^options: unknown option 'learningRate' \(expected scoring, w0, s0, hidden, seed, parameters, lr, optimizer, kernel, leaveOneOut, loss, estimator, approximate\)$/, 'unknown-option', 'options'],
  ['unknown kernel', () => nw.predict([1], x, y, { kernel: 'Gauss' }), /^kernel must be one of gaussian, boxcar, constant, epanechnikov, triangular, got 'Gauss'$/, 'unknown-value', 'kernel'],
  ['kernel as a number', () => nw.attentionWeights([1], x, { kernel: 2 }), /^kernel must be a string, got number$/, 'wrong-type', 'kernel'],
  ['leaveOneOut as a string', () => nw.looLoss(x, y, { leaveOneOut: 'no' }), /^leaveOneOut must be true or false, got string$/, 'wrong-type', 'leaveOneOut'],
  ['training boxcar', () => new nw.Trainer(x, y, { kernel: 'boxcar' }), /^kernel: boxcar cannot be trained/, 'not-trainable', 'kernel'],
  ['selecting for constant', () => nw.selectBandwidth(x, y, { kernel: 'constant' }), /^kernel: constant has a loss that is piecewise constant/, 'not-trainable', 'kernel'],
  ['a grid of 0 points', () => nw.testGrid(0, 1, 0), /^n must be an integer from 1 to 1000000, got 0$/, 'out-of-range', 'n'],
  ['an empty grid range', () => nw.testGrid(1, 1, 5), /^xMax must be greater than xMin \(1\), got 1$/, 'out-of-range', 'xMax'],
  ['options as a number', () => nw.predict([1], x, y, 5), /^options must be an object, got number$/, 'wrong-type', 'options'],
  ['options as an array', () => nw.looLoss(x, y, [1]), /^options must be an object, got object$/, 'wrong-type', 'options'],
  // the rest of docs/api.md's examples
  ['text entries', () => nw.averagePool(['1', '2']), /^values\[0\] must be a finite number, got string$/, 'wrong-type', 'values'],
  ['a BigInt64Array', () => nw.averagePool(new BigInt64Array(2)), /^values must be an array or typed array of numbers, got BigInt64Array$/, 'wrong-type', 'values'],
  ['a detached typed array', () => nw.averagePool(detached), /^values must not be a detached Float64Array \(its buffer was transferred\)$/, 'unreadable', 'values'],
  ['a sparse Array of 2^29 entries', () => nw.averagePool(sparse), /^values must have at most 134217728 entries \(the module's memory is 1 GiB\), got 536870912$/, 'too-large', 'values'],
  ['a throwing option getter', () => nw.predict([1], x, y, { get w() { throw new Error('boom'); } }), /^w could not be read: Error: boom$/, 'unreadable', 'w'],
  ['a throwing entry getter', () => nw.predict([1], throwingEntry, [1, 2]), /^keys\[1\] could not be read: Error: entry$/, 'unreadable', 'keys'],
  ['a kernelValue at NaN', () => nw.kernelValue('gaussian', NaN), /^d must be a finite number, got NaN$/, 'not-finite', 'd'],
  ['empty values of attentionBlocks', () => nw.attentionBlocks([1], x, []), /^values must not be empty \(null asks for no predictions\)$/, 'empty', 'values'],
  ['too many blocks', () => nw.attentionBlocks([1], x, null, { maxBlockCols: 4097 }), /^maxBlockCols must be an integer from 1 to 4096, got 4097$/, 'out-of-range', 'maxBlockCols'],
  ['binned sums at w = 0', () => nw.binnedPredict([1], x, y, { w: 0 }), /^w must be nonzero for the binned sums/, 'out-of-range', 'w'],
  ['a kernel for binnedPredict', () => nw.binnedPredict([1], x, y, { kernel: 'gaussian' }), /^options: unknown option 'kernel' \(expected w\)$/, 'unknown-option', 'options'],
  ['a W for binnedPredict', () => nw.binnedPredict([1], x, y, { W: 3 }), /^options: unknown option 'W' \(expected w\)$/, 'unknown-option', 'options'],
  ['rowEnd past the data', () => nw.looLossRows(x4, y4, { rowEnd: 5 }), /^rowEnd must be an integer from 0 to 4, got 5$/, 'out-of-range', 'rowEnd'],
  ['rowBegin after rowEnd', () => nw.looLossRows(x4, y4, { rowBegin: 3, rowEnd: 2 }), /^rowBegin and rowEnd must satisfy 0 <= rowBegin <= rowEnd <= xTrain.length \(4\), got 3 and 2$/, 'out-of-range', 'rowBegin'],
  ['a negative loss row', () => nw.sumLooRows([-1], [0]), /^lossRows\[0\] must be a finite number >= 0, got -1$/, 'out-of-range', 'lossRows'],
  ['a NaN gradient row', () => nw.sumLooRows([1], [NaN]), /^gradRows\[0\] must not be NaN$/, 'not-finite', 'gradRows'],
  ['rows of another length', () => live.stepWithRows([1], [0]), /^lossRows must have one row per training point \(3\), got 1$/, 'length-mismatch', 'lossRows'],
  ['unknown approximation', () => nw.selectBandwidth(x, y, { approximate: 'sometimes' }), /^approximate must be one of auto, never, got 'sometimes'$/, 'unknown-value', 'approximate'],
  ['unknown loss', () => nw.looLoss(x, y, { loss: 'mean' }), /^loss must be one of squared, halfSquared, got 'mean'$/, 'unknown-value', 'loss'],
  ['four points for the AIC', () => nw.selectBandwidth(x4, y4, { criterion: 'aic' }), /^xTrain must have at least 5 points for criterion aic/, 'too-few-points', 'xTrain'],
  ['loss with the AIC', () => nw.selectBandwidth(x, y, { criterion: 'aic', loss: 'squared' }), /^loss applies only to criterion looCv/, 'not-applicable', 'loss'],
  ['an inherited option', () => nw.predict([1], x, y, Object.create({ W: 100 })), /^options: inherited option 'W' \(only the object's own properties are read\)$/, 'unknown-option', 'options'],
  ['a deleted Trainer', () => deleted.step(), /^step: this trainer was deleted; create a new Trainer$/, 'deleted', 'this'],
  ['a step on something else', () => nw.Trainer.prototype.step.call({}), /^step: called on something that is not an nw\.Trainer$/, 'wrong-type', 'this'],
  ['Trainer without new', () => nw.Trainer(x, y), /^Trainer: create one with new: new nw\.Trainer\(xTrain, yTrain, options\)$/, 'wrong-type', 'this'],
  ['a diverging step', () => diverging.step(), /^lr: training diverged at epoch 1 .*w is kept, try a smaller lr$/, 'diverged', 'lr'],
  ['isTrainable of an unknown kernel', () => nw.isTrainable('Gauss'), /^kernel must be one of gaussian, boxcar, constant, epanechnikov, triangular, got 'Gauss'$/, 'unknown-value', 'kernel'],
  ['isTrainable of an unknown estimator', () => nw.isTrainable('gaussian', 'll'), /^estimator must be one of nadarayaWatson, localLinear, got 'll'$/, 'unknown-value', 'estimator'],
  ['isTrainable of a number', () => nw.isTrainable(2), /^kernel must be a string, got number$/, 'wrong-type', 'kernel'],
  ['isTrainable with a null estimator', () => nw.isTrainable('gaussian', null), /^estimator must be a string, got object$/, 'wrong-type', 'estimator'],
];

for (const [name, call, message, code, parameter] of invalidCalls) {
  test(`rejected with an NWError naming the parameter: ${name}`, () => {
    assert.throws(call, (error) => {
      assert.ok(error instanceof nw.NWError, `an NWError, got ${error}`);
      assert.ok(error instanceof Error);
      assert.equal(error.name, 'NWError');
      assert.match(error.message, message);
      assertContract(error, name, { code, parameter });
      return true;
    });
  });
}

// docs/api.md's validation table: [example message, code] of every row, in order.
function documentedExamples() {
  const lines = sources.docs.split('\n');
  const start = lines.indexOf('| input | rule | example message | code |');
  assert.ok(start >= 0, 'docs/api.md has the validation table');
  const examples = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1);
    assert.equal(cells.length, 4, `four cells: ${line}`);
    const messages = [...cells[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const codes = [...cells[3].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    assert.ok(messages.length > 0, `an example: ${line}`);
    assert.equal(codes.length, messages.length, `one code per example: ${line}`);
    messages.forEach((message, i) => examples.push([message, codes[i]]));
  }
  return examples;
}

// An example as a pattern of the whole message: "(...)" stands for a parenthesis and any text after it
// (the table shortens long messages so), "..." for any text.
function examplePattern(example) {
  const escaped = example.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replaceAll('\\(\\.\\.\\.\\)', '\\(.*\\).*').replaceAll('\\.\\.\\.', '.*')}$`);
}

test('every example message of docs/api.md\'s validation table is what the module throws, with the code beside it', () => {
  const thrown = invalidCalls.map(([name, call]) => {
    try {
      call();
    } catch (error) {
      return error;
    }
    assert.fail(`${name} did not throw`);
  });
  const examples = documentedExamples();
  assert.ok(examples.length >= 40, `${examples.length} examples`);
  for (const [example, code] of examples) {
    const pattern = examplePattern(example);
    const matching = thrown.filter((error) => pattern.test(error.message));
    assert.ok(matching.length > 0, `no call in this file throws the documented message '${example}'`);
    assert.ok(matching.some((error) => error.code === code), `'${example}' is documented as ${code}, thrown as ${matching.map((e) => e.code)}`);
  }
});

test('a million errors leave the module correct, its memory unchanged, and its stack intact', () => {
  const expected = {
    prediction: Array.from(nw.predict([0.5, 1.5], x, y, { w: 2 })),
    loss: nw.looLoss(x, y, { w: 2 }),
    data: Array.from(nw.generateData({ seed: 3 }).yTrain),
  };
  const memoryBefore = nw.heapStats().arena;
  let errors = 0;
  for (let i = 0; i < 1_000_000; i++) {
    try {
      invalidCalls[i % invalidCalls.length][1]();
    } catch (error) {
      if (error instanceof nw.NWError) errors++;
    }
  }
  assert.equal(errors, 1_000_000);
  assert.equal(nw.heapStats().arena, memoryBefore, 'no growth of the heap');
  assert.deepEqual(Array.from(nw.predict([0.5, 1.5], x, y, { w: 2 })), expected.prediction);
  assert.deepEqual(nw.looLoss(x, y, { w: 2 }), expected.loss);
  assert.deepEqual(Array.from(nw.generateData({ seed: 3 }).yTrain), expected.data);
});

test('a diverging training run stops with a message and keeps the last finite w', () => {
  const trainer = new nw.Trainer([0, 1, 2, 3], [0, 5, -5, 0], { w0: 1, lr: 1e308 });
  assert.throws(() => trainer.step(), /^NWError: lr: training diverged at epoch 1 .*w is kept, try a smaller lr$/);
  assert.equal(trainer.w, 1);
  assert.equal(trainer.epoch, 0);
  trainer.delete();
});

test('numerical extremes give defined results and never NaN', () => {
  const keys = [0, 1, 2.5, 4];
  const values = [3, -1, 2, 8];
  const mean = nw.averagePool(values);
  for (const p of nw.predict([0.2, 3], keys, values, { w: 0 })) assert.ok(Math.abs(p - mean) < 1e-12, 'w = 0 is average pooling');
  for (const p of nw.predict([0.2, 3], keys, values, { w: 1e-300 })) assert.ok(Math.abs(p - mean) < 1e-12, 'w = 1e-300 too');
  assert.deepEqual(Array.from(nw.predict([0.2, 3], keys, values, { w: 1e300 })), [3, 2], 'w = 1e300 picks the nearest key');
  assert.deepEqual(Array.from(nw.predict([0.2, 3], keys, values, { w: -2 })), Array.from(nw.predict([0.2, 3], keys, values, { w: 2 })));
  const spread = [-1e300, -1, 0, 1e-300, 1e300];
  for (const w of [0, 1e-300, 1, 1e300]) {
    assert.ok(nw.predict(spread, spread, [1, 2, 3, 4, 5], { w }).every(Number.isFinite), `spread inputs, w = ${w}`);
    assert.ok(nw.attentionWeights(spread, spread, { w }).data.every(Number.isFinite));
    assert.ok(!Number.isNaN(nw.looLoss(spread, [1, 2, 3, 4, 5], { w }).grad));
  }
  assert.deepEqual(Array.from(nw.predict([0], [1, 1, 5], [2, 4, 100], { w: 1e9 })), [3], 'duplicate keys share the weight');
  assert.deepEqual(Array.from(nw.predict([-7, 9], [1], [42])), [42, 42], 'a single key');
  assert.deepEqual(nw.looLoss([0, 1], [1, 4], { w: 2 }), { loss: 18, grad: 0 }, 'two points: one key each');
  const data = nw.generateData();
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 1e6 });
  for (let epoch = 0; epoch < 10; epoch++) {
    try {
      assert.ok(Number.isFinite(trainer.step()));
    } catch (error) {
      assert.match(error.message, /^lr: training diverged/);
    }
    assert.ok(Number.isFinite(trainer.w));
  }
  trainer.delete();
});
