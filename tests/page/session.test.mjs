// The page's Session keeps each prediction line until its inputs change: what it returns must always be
// the module's answer for the current data, w, learned w and kernel, whichever path computed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../web/src/model/session.js';
import { defaults } from '../../web/src/model/settings.js';
import { createNW } from '../module/module.mjs';

const nw = await createNW();

function started(settings = {}) {
  const session = new Session(nw);
  session.generate({ ...defaults(), ...settings });
  return session;
}

const direct = (session, w, kernel = session.kernel) => Array.from(nw.predict(session.data.xTest, session.data.xTrain, session.data.yTrain, { w, kernel }));

test('a kept line is the module\'s answer after a new w, an epoch, new data and a new kernel', () => {
  const session = started();
  const first = session.predictions(1);
  assert.deepEqual(Array.from(first.nonparametric), direct(session, 1));
  assert.deepEqual(Array.from(first.parametric), direct(session, session.learnedW));
  assert.equal(session.predictions(1).nonparametric, first.nonparametric, 'the same w: kept, not computed again');

  const other = session.predictions(2);
  assert.deepEqual(Array.from(other.nonparametric), direct(session, 2));
  assert.equal(other.parametric, first.parametric, 'a new w leaves the parametric line as it was');

  session.step();
  const trained = session.predictions(2);
  assert.deepEqual(Array.from(trained.parametric), direct(session, session.learnedW));
  assert.equal(trained.nonparametric, other.nonparametric, 'an epoch leaves the nonparametric line as it was');
  assert.equal(session.testMses[1], nw.meanSquaredError(direct(session, session.learnedW), session.data.yTruth));

  session.resetTraining({ ...defaults(), kernel: 'epanechnikov' });
  assert.deepEqual(Array.from(session.predictions(2).nonparametric), direct(session, 2, 'epanechnikov'));
  session.generate({ ...defaults(), seed: 9 });
  const regenerated = session.predictions(2);
  assert.deepEqual(Array.from(regenerated.nonparametric), direct(session, 2));
  assert.equal(regenerated.average[0], nw.averagePool(session.data.yTrain));
});

test('the heatmap\'s pass gives the line its predictions; another kernel\'s pass does not', () => {
  const session = started();
  const maxCells = { rows: 7, cols: 9 };
  session.blocks(3, { kernel: 'boxcar', maxCells, withPredictions: true });
  assert.deepEqual(Array.from(session.predictions(3).nonparametric), direct(session, 3), 'a boxcar panel leaves the Gaussian line alone');
  const blocks = session.blocks(4, { maxCells, withPredictions: true });
  const line = session.predictions(4).nonparametric;
  assert.equal(line, blocks.predictions, 'the heatmap\'s predictions are the line');
  // attentionBlocks' predictions are predict's, to the last bit.
  assert.deepEqual(Array.from(line), direct(session, 4));
});

test('predictions computed elsewhere (the drag preview\'s worker) are kept only for this session\'s kernel', () => {
  const session = started();
  const maxCells = { rows: 5, cols: 5 };
  const { xTest, xTrain, yTrain } = session.data;
  const fromWorker = nw.attentionBlocks(xTest, xTrain, yTrain, { w: 6, kernel: 'gaussian', maxBlockRows: 5, maxBlockCols: 5 });
  session.rememberBlockPredictions(6, 'gaussian', fromWorker);
  assert.equal(session.predictions(6).nonparametric, fromWorker.predictions);
  const otherKernel = nw.attentionBlocks(xTest, xTrain, yTrain, { w: 7, kernel: 'boxcar', maxBlockRows: 5, maxBlockCols: 5 });
  session.rememberBlockPredictions(7, 'boxcar', otherKernel);
  assert.deepEqual(Array.from(session.predictions(7).nonparametric), direct(session, 7));
  assert.equal(session.blocks(8, { maxCells }).predictions, undefined, 'no predictions asked: nothing kept');
});

test('with local-linear pooling the line and the boundary note share one local-linear pass, exactly predict\'s', () => {
  const settings = { ...defaults(), estimator: 'localLinear' };
  const session = new Session(nw);
  session.generate(settings);
  session.predictions(0.5); // (the parametric line, kept: the counts below are the nonparametric line's)
  const calls = { localLinear: 0, predictLocalLinear: 0 };
  const counted = { ...nw };
  counted.localLinear = (...args) => { calls.localLinear += 1; return nw.localLinear(...args); };
  counted.predict = (...args) => { if (args[3]?.estimator === 'localLinear') calls.predictLocalLinear += 1; return nw.predict(...args); };
  session.nw = counted;
  for (const w of [1, 2.5]) {
    const line = session.predictions(w).nonparametric; // what a render computes, then its note
    const comparison = session.boundaryComparison(w);
    const { data } = session;
    assert.deepEqual(line, nw.predict(data.xTest, data.xTrain, data.yTrain, { w, estimator: 'localLinear' }));
    const nwLine = nw.predict(data.xTest, data.xTrain, data.yTrain, { w });
    assert.equal(comparison.all.localLinear, nw.meanSquaredError(line, data.yTruth));
    assert.equal(comparison.all.nadarayaWatson, nw.meanSquaredError(nwLine, data.yTruth));
  }
  assert.deepEqual(calls, { localLinear: 2, predictLocalLinear: 0 }, 'one pass per w');
  session.nw = nw;
});
