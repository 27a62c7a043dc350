// The computation of "Design your own attention pooling" (model/design.js says what it asks), whatever
// runs it: the design worker (design.worker.js) at large n, else the page's thread (compute/design_client.js).
// It keeps one training run and trains it on to the epoch asked for (from its start again if the epoch
// is earlier, or the data or the options changed), then answers with everything the figure shows:
//   { key, data: { xTrain, yTrain, xTest, yTruth, w0, seed }, design: { scoring, hidden, optimizer, lr,
//     leaveOneOut, loss }, gaussian: { lr, epochs }, to, maxCells: { rows, cols } }
//   -> { key, epoch, losses, testMses, parameters, blocks, gaussian: { w, predictions, peaks, testMse },
//        featureCheck: { w, rows, cols, largestDifference }, problem }
// losses[i] is the loss before epoch i + 1's step; testMses[i] the test MSE after epoch i (0: the start).
// problem: the module's error ({ message, code, parameter }) that stopped training before `to`, or null.
// Every number is the module's.

import { scoringBlocksInRanges } from './stepped_blocks.js';

// The Gaussian-as-dot-product check looks at this many weights at most (two matrices of them, 3.2 MB each).
const CHECK_CELLS = 200_000;

// Rows of an epoch (or queries of the test predictions) per step: about ROW_STEP_WORK key visits times
// hidden units, a few milliseconds (an additive epoch at 2000 samples and h = 8 visits 32 million).
const ROW_STEP_WORK = 200_000;
const rowsPerStep = (n, design) => Math.max(1, Math.floor(ROW_STEP_WORK / (n * (design.scoring === 'additive' ? design.hidden : 1))));

// A thrown module error as plain data (it crosses to the page in a message).
const asProblem = (error) => ({ message: String(error && error.message), code: error && error.code, parameter: error && error.parameter });

export function designWork(nw) {
  let run = null; // { key, trainer, losses, testMses }
  let gaussian = null; // { key, w, ... }: the chapter's Gaussian beside the design, trained as step 3 trains it

  const testMse = (data, predictions) => (data.yTruth ? nw.meanSquaredError(predictions, data.yTruth) : null);

  function startRun(key, data, design) {
    if (run) run.trainer.delete();
    run = null;
    const { scoring, hidden, optimizer, lr, leaveOneOut, loss } = design;
    const start = scoring === 'additive' ? { hidden, seed: data.seed } : scoring === 'gaussian' ? { w0: data.w0 } : {};
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { scoring, optimizer, lr, leaveOneOut, loss, ...start });
    run = { key, trainer, losses: [], testMses: [] }; // (epoch 0's test MSE: see the request's handler)
  }

  // Trains the chapter's way (its Trainer, step 3's learning rate and epochs, from the data's w0),
  // yielding after each epoch (up to 500 of them, 20 ms each at 2000 samples).
  function* gaussianBeside(key, data, design, chapter) {
    if (gaussian && gaussian.key === key) return gaussian;
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: chapter.lr, leaveOneOut: design.leaveOneOut, loss: design.loss });
    let problem = null;
    let w;
    try {
      for (let e = 0; e < chapter.epochs; e++) {
        trainer.step();
        yield;
      }
    } catch (error) {
      problem = asProblem(error);
    } finally {
      w = trainer.w;
      trainer.delete(); // (also when the work is dropped)
    }
    const blocks = nw.scoringBlocks(data.xTest, data.xTrain, data.yTrain, { scoring: 'gaussian', parameters: { w }, maxBlockRows: 1, maxBlockCols: 1 });
    yield;
    gaussian = { key, w, predictions: blocks.predictions, peaks: blocks.peaks, testMse: testMse(data, blocks.predictions), problem, featureCheck: featureCheck(data, w) };
    return gaussian;
  }

  // The chapter's weights at w against those of the dot product of the features [q, 1] and
  // [w^2 k, -w^2 k^2 / 2]: the largest difference in a cell, relative to its row's largest weight, over
  // every key and evenly spaced queries, at most CHECK_CELLS weights (all of them up to 400 x 500).
  function featureCheck(data, w) {
    const step = Math.ceil((data.xTest.length * data.xTrain.length) / CHECK_CELLS);
    const queries = data.xTest.filter((_, r) => r % step === 0);
    const direct = nw.attentionWeights(queries, data.xTrain, { w });
    const { dim, queryFeatures, keyFeatures } = nw.gaussianFeatures(queries, data.xTrain, { w });
    const viaFeatures = nw.dotProductWeights(queryFeatures, keyFeatures, { dim });
    const { rows, cols } = direct;
    let largestDifference = 0;
    for (let r = 0; r < rows; r++) {
      let rowMax = 0;
      for (let c = 0; c < cols; c++) rowMax = Math.max(rowMax, direct.data[r * cols + c]);
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c;
        largestDifference = Math.max(largestDifference, Math.abs(direct.data[i] - viaFeatures.data[i]) / rowMax);
      }
    }
    return { w, rows, cols, largestDifference };
  }

  // One epoch of the run's trainer, a range of `rows` rows at a time for the scorings whose epoch can
  // be long (the gaussian's takes a few milliseconds even at 2000 samples): the same step bit for bit.
  function* epoch(data, design, rows) {
    const { trainer } = run;
    const n = data.xTrain.length;
    if (design.scoring === 'gaussian' || rows >= n) return trainer.step();
    const parameters = trainer.parameters;
    let sums = {};
    for (let begin = 0; begin < n; begin += rows) {
      sums = nw.scoringLooRows(data.xTrain, data.yTrain, { scoring: design.scoring, parameters, leaveOneOut: design.leaveOneOut, rowBegin: begin, rowEnd: Math.min(n, begin + rows), ...sums });
      yield;
    }
    return trainer.stepWithSums(sums.lossSum, sums.gradSum);
  }

  // The work for one request, in steps: it yields after each range of rows of an epoch (and of the
  // test predictions) and before the figure's own pass, so that whoever runs it can give the thread back
  // between steps, or drop it for a newer request (the training run is whole at every yield: an epoch's
  // sums are kept apart until its step, and its loss and test MSE are kept with the step).
  function* steps(message) {
    const { key, data, design, chapter, to, maxCells } = message;
    if (!run || run.key !== key.design || run.trainer.epoch > to) startRun(key.design, data, design);
    let problem = null;
    const options = { scoring: design.scoring };
    const rows = rowsPerStep(data.xTrain.length, design);
    function* predictAt() {
      const parameters = run.trainer.parameters;
      const predictions = new Float64Array(data.xTest.length);
      for (let begin = 0; begin < data.xTest.length; begin += rows) {
        const queries = data.xTest.slice(begin, begin + rows);
        predictions.set(nw.scoringPredict(queries, data.xTrain, data.yTrain, { ...options, parameters }), begin);
        yield;
      }
      return testMse(data, predictions);
    }
    // The test MSE at the run's epoch if it is owed: at the start, or where a dropped work stepped and
    // stopped before its predictions (untrained and asked for no epoch, the blocks' pass gives it).
    if (run.testMses.length === run.trainer.epoch && (to > 0 || run.trainer.epoch > 0)) run.testMses.push(yield* predictAt());
    while (run.trainer.epoch < to) {
      yield;
      try {
        run.losses.push(yield* epoch(data, design, rows));
      } catch (error) {
        problem = asProblem(error);
        break;
      }
      run.testMses.push(yield* predictAt());
    }
    yield;
    const parameters = run.trainer.parameters;
    const blockOptions = { ...options, parameters, maxBlockRows: maxCells.rows, maxBlockCols: maxCells.cols };
    // (The gaussian's pass is the chapter's heatmap's, a few tens of milliseconds at 2000 x 2000.)
    const blocks = design.scoring === 'gaussian' ? nw.scoringBlocks(data.xTest, data.xTrain, data.yTrain, blockOptions)
      : yield* scoringBlocksInRanges(nw, data.xTest, data.xTrain, data.yTrain, blockOptions, rows);
    // (Untrained, the blocks' pass gave the start's predictions.)
    if (run.testMses.length === 0) run.testMses.push(testMse(data, blocks.predictions));
    const beside = yield* gaussianBeside(key.gaussian, data, design, chapter);
    return {
      key,
      epoch: run.trainer.epoch,
      losses: Float64Array.from(run.losses),
      testMses: run.testMses.slice(),
      parameters,
      blocks,
      gaussian: { w: beside.w, predictions: beside.predictions, peaks: beside.peaks, testMse: beside.testMse },
      featureCheck: beside.featureCheck,
      problem, // (the Gaussian's own, if its training failed, is step 3's to say)
    };
  }

  // The whole request at once.
  const handle = (message) => {
    const work = steps(message);
    for (;;) {
      const { done, value } = work.next();
      if (done) return value;
    }
  };
  handle.steps = steps;
  // Frees the training run's wasm memory (the work can still be asked again: it starts a new run).
  handle.dispose = () => {
    if (run) run.trainer.delete();
    run = null;
  };
  return handle;
}

export { asProblem };
