// "Design your own attention pooling" under Node: what its computation (compute/design_work.js) answers
// is the module's own training, predictions and weights, and every claim its sentences make is checked
// against the module's weights, computed here independently of the page's code (argmax of scoringWeights
// rows, a fresh Trainer), in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { designWork } from '../../web/src/compute/design_work.js';
import { scoringBlocksInRanges } from '../../web/src/compute/stepped_blocks.js';
import { describeDesign, designNotice, featureCheckText } from '../../web/src/figures/design_text.js';
import { LANGUAGES, translator } from '../../web/src/i18n/all.js';
import { afterDesignEdit, designRequest, maxDesignEpochs, recommendedLr } from '../../web/src/model/design.js';
import { defaults } from '../../web/src/model/settings.js';
import { Session } from '../../web/src/model/session.js';
import { createNW } from '../module/module.mjs';

const nw = await createNW();
const en = translator('en');
const CELLS = { rows: 512, cols: 512 };

// The page's data for settings s (its Session generates them), and the request design_work answers.
function setUp(changes = {}) {
  const s = { ...defaults(), ...changes };
  const session = new Session(nw);
  session.generate(s);
  return { s, data: session.data, request: (to, more = {}) => designRequest(session.data, { ...s, ...more, designTrained: to }, CELLS) };
}

// Each query's key of largest weight, from the full weight matrix (the first of equal ones).
function argmaxKeys(data, scoring, parameters) {
  const { rows, cols, data: weights } = nw.scoringWeights(data.xTest, data.xTrain, { scoring, parameters });
  return Array.from({ length: rows }, (_, r) => {
    let best = 0;
    for (let c = 1; c < cols; c++) if (weights[r * cols + c] > weights[r * cols + best]) best = c;
    return best;
  });
}

const meanDistance = (data, peaks) => peaks.reduce((sum, k, r) => sum + Math.abs(data.xTest[r] - data.xTrain[k]), 0) / peaks.length;

test('the design trains as a fresh Trainer does, and starts again when asked for an earlier epoch', () => {
  const { s, data, request } = setUp();
  const work = designWork(nw);
  const reply = work(request(5));
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { scoring: 'additive', hidden: 8, seed: s.seed, optimizer: 'adam', lr: 0.05 });
  const start = nw.scoringPredict(data.xTest, data.xTrain, data.yTrain, { scoring: 'additive', parameters: trainer.parameters });
  assert.equal(reply.testMses[0], nw.meanSquaredError(start, data.yTruth), 'the test MSE at the start');
  assert.equal(designWork(nw)(request(0)).testMses[0], reply.testMses[0], 'the same, untrained');
  const losses = Array.from({ length: 5 }, () => trainer.step());
  assert.deepEqual([...reply.losses], losses);
  assert.deepEqual(reply.parameters, trainer.parameters);
  const options = { scoring: 'additive', parameters: trainer.parameters };
  trainer.delete();
  assert.deepEqual(reply.blocks.predictions, nw.scoringPredict(data.xTest, data.xTrain, data.yTrain, options));
  assert.equal(reply.testMses.length, 6);
  assert.equal(reply.testMses[5], nw.meanSquaredError(reply.blocks.predictions, data.yTruth));
  const earlier = work(request(2));
  assert.deepEqual([...earlier.losses], losses.slice(0, 2));
  assert.equal(earlier.epoch, 2);
});

test('the Gaussian beside it is the chapter\'s, trained as step 3 trains it', () => {
  const { s, data, request } = setUp();
  const reply = designWork(nw)(request(0));
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: s.lr });
  for (let e = 0; e < s.epochs; e++) trainer.step();
  assert.equal(reply.gaussian.w, trainer.w);
  assert.deepEqual(reply.gaussian.predictions, nw.predict(data.xTest, data.xTrain, data.yTrain, { w: trainer.w }));
  trainer.delete();
});

test('the page\'s check: the chapter\'s weights are those of the dot product of its features', () => {
  const { data, request } = setUp();
  const reply = designWork(nw)(request(0));
  const { w, largestDifference } = reply.featureCheck;
  const direct = nw.attentionWeights(data.xTest, data.xTrain, { w });
  const { dim, queryFeatures, keyFeatures } = nw.gaussianFeatures(data.xTest, data.xTrain, { w });
  const viaFeatures = nw.dotProductWeights(queryFeatures, keyFeatures, { dim });
  let largest = 0;
  for (let i = 0; i < direct.data.length; i++) largest = Math.max(largest, Math.abs(direct.data[i] - viaFeatures.data[i]));
  // Relative to each row's largest weight, at most the absolute difference over the smallest row maximum.
  assert.ok(largestDifference <= 1e-9, `the two forms agree: ${largestDifference}`);
  assert.ok(largestDifference >= largest, 'relative to row maxima (each at most 1) it is at least the absolute difference');
  for (const lang of LANGUAGES) assert.ok(featureCheckText(reply, data, translator(lang)).includes(largestDifference.toExponential(1)), lang);
});

test('at 2000 x 2000 the check looks at evenly spaced queries (200,000 weights) and says so', () => {
  const { data, request } = setUp({ nTrain: 2000, nTest: 2000 });
  const reply = designWork(nw)(request(0));
  assert.deepEqual([reply.featureCheck.rows, reply.featureCheck.cols], [100, 2000]);
  // (Step 3's lr sends w to about 813 at this size: features near w^2 k = 3e6 lose a few more digits.)
  assert.ok(reply.featureCheck.largestDifference <= 1e-7, `${reply.featureCheck.largestDifference}`);
  assert.match(featureCheckText(reply, data, en), /for 100 evenly spaced of the 2000 queries and every key: the 100 × 2000 weights/);
});

test('the dot product\'s sentence: every query above 0 looks at the largest key (s > 0) or the smallest (s < 0)', () => {
  for (const [optimizer, epochs, sign] of [['sgd', 20, 1], ['adam', 50, -1]]) {
    const { s, data } = setUp();
    const settings = afterDesignEdit({ ...s, scoring: 'dotProduct', optimizer }, 'scoring');
    const reply = designWork(nw)(designRequest(data, { ...settings, designTrained: epochs }, CELLS));
    assert.equal(Math.sign(reply.parameters.s), sign, `${optimizer}: s = ${reply.parameters.s}`);
    const peaks = argmaxKeys(data, 'dotProduct', reply.parameters);
    const end = sign > 0 ? Math.max(...data.xTrain) : Math.min(...data.xTrain);
    const above = data.xTest.filter((q) => q > 0).length;
    const atEnd = peaks.filter((k, r) => data.xTest[r] > 0 && data.xTrain[k] === end).length;
    assert.equal(atEnd, above, 'the claim "for every query above 0" holds');
    const text = designNotice(reply, data, settings, en);
    assert.match(text, new RegExp(`${atEnd} of those ${above} queries put their largest weight on the ${sign > 0 ? 'largest' : 'smallest'} key, x = ${end.toFixed(2)}`));
    assert.match(text, new RegExp(`s = ${reply.parameters.s.toFixed(4)}`));
  }
});

test('the additive sentence: the distance from a query to its largest weight, and the test MSE against the Gaussian\'s', () => {
  const { s, data } = setUp();
  const work = designWork(nw);
  for (const epochs of [0, 3, 50]) {
    const reply = work(designRequest(data, { ...s, designTrained: epochs }, CELLS));
    const distance = meanDistance(data, argmaxKeys(data, 'additive', reply.parameters));
    const gaussianDistance = meanDistance(data, argmaxKeys(data, 'gaussian', { w: reply.gaussian.w }));
    const mse = nw.meanSquaredError(nw.scoringPredict(data.xTest, data.xTrain, data.yTrain, { scoring: 'additive', parameters: reply.parameters }), data.yTruth);
    const gaussianMse = nw.meanSquaredError(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: reply.gaussian.w }), data.yTruth);
    const text = designNotice(reply, data, s, en);
    assert.ok(text.includes(`lies ${distance.toFixed(3)} from it on average (the Gaussian beside it: ${gaussianDistance.toFixed(3)})`), `${epochs}: ${text}`);
    assert.ok(text.includes(`Its test MSE, ${mse.toFixed(3)}, is ${mse < gaussianMse ? 'lower' : 'higher'} than the Gaussian's ${gaussianMse.toFixed(3)}.`), `${epochs}: ${text}`);
    assert.ok(text.startsWith(epochs === 0 ? 'Untrained' : `After epoch ${epochs},`), text);
    // The text alternatives carry the same numbers.
    const described = describeDesign(reply, data, en);
    assert.ok(described.weights.includes(`lies ${distance.toFixed(3)} from it`), described.weights);
    assert.ok(described.predictions.includes(`(test MSE ${mse.toFixed(3)})`) && described.predictions.includes(`(test MSE ${gaussianMse.toFixed(3)})`), described.predictions);
    // The same numbers in Chinese.
    const zh = designNotice(reply, data, s, translator('zh'));
    for (const number of [distance.toFixed(3), gaussianDistance.toFixed(3), mse.toFixed(3), gaussianMse.toFixed(3)]) assert.ok(zh.includes(number), `zh: ${number}`);
  }
});

test('additive attention without its bias cannot peak at q = k: the text\'s reason, from the module\'s weights', () => {
  // b = 0 and W_k = -W_q: a(q, k) = v . tanh(W_q (q - k)) is odd in q - k and 0 at q = k, so the weight of
  // k = q is the geometric mean of those at q - d and q + d: never above both.
  const parameters = { wq: [1.3, -0.4, 2.2], wk: [-1.3, 0.4, -2.2], b: [0, 0, 0], v: [0.9, -1.7, 0.6] };
  for (const q of [0.3, 1.7, 4.2]) {
    for (const d of [0.05, 0.4, 1.5]) {
      const { data: [left, middle, right] } = nw.scoringWeights([q], [q - d, q, q + d], { scoring: 'additive', parameters });
      assert.ok(Math.abs(middle * middle - left * right) <= 1e-12 * middle * middle, `q ${q}, d ${d}: middle^2 = left right`);
      assert.ok(middle <= Math.max(left, right) * (1 + 1e-12), `q ${q}, d ${d}: k = q is not the peak`);
    }
  }
});

test('a new scoring or optimizer starts untrained with its own learning rate; other design changes start again too', () => {
  const s = { ...defaults(), designTrained: 7 };
  assert.deepEqual(afterDesignEdit({ ...s, scoring: 'dotProduct' }, 'scoring'), { ...s, scoring: 'dotProduct', designLr: 0.05, designTrained: 0 });
  assert.equal(afterDesignEdit({ ...s, optimizer: 'sgd' }, 'optimizer').designLr, recommendedLr('additive', 'sgd'));
  assert.equal(afterDesignEdit({ ...s, hidden: 4 }, 'hidden').designTrained, 0);
  assert.equal(afterDesignEdit({ ...s, designEpochs: 9 }, 'designEpochs').designTrained, 7);
  assert.equal(afterDesignEdit({ ...s, w: 2 }, 'w').designTrained, 7);
});

test('a link replays at most a few seconds of design epochs: 5000 at 50 samples, 50 at 500, 20 at 2000', () => {
  assert.deepEqual([50, 500, 2000].map(maxDesignEpochs), [5000, 50, 20]);
  const { request } = setUp({ nTrain: 500 });
  assert.equal(request(99999).to, 50);
});

test('at 300 samples the work steps through ranges of rows (an epoch and the test predictions) and trains as a fresh Trainer does', () => {
  for (const scoring of ['additive', 'dotProduct']) {
    const { s, data } = setUp({ nTrain: 300, nTest: 120 });
    const settings = afterDesignEdit({ ...s, scoring }, 'scoring');
    const steps = designWork(nw).steps(designRequest(data, { ...settings, designTrained: 3 }, CELLS));
    let yields = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) yields++;
    const reply = next.value;
    // (additive, h = 8: 83 rows a step, so 4 steps an epoch and 2 for the 120 queries' predictions)
    assert.ok(yields >= (scoring === 'additive' ? 3 * 4 : 3), `${scoring}: ${yields} steps`);
    const start = scoring === 'additive' ? { hidden: 8, seed: s.seed } : {};
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { scoring, optimizer: settings.optimizer, lr: settings.designLr, ...start });
    const losses = Array.from({ length: 3 }, () => trainer.step());
    assert.deepEqual([...reply.losses], losses, scoring);
    assert.deepEqual(reply.parameters, trainer.parameters, scoring);
    const predictions = nw.scoringPredict(data.xTest, data.xTrain, data.yTrain, { scoring, parameters: trainer.parameters });
    assert.equal(reply.testMses[3], nw.meanSquaredError(predictions, data.yTruth), scoring);
    trainer.delete();
  }
});

test('the heatmap\'s blocks a range of queries at a time are the module\'s bit for bit (ranges of whole block rows, a last one padded)', () => {
  const data = nw.generateData({ nTrain: 61, nTest: 103, seed: 5 });
  const additive = { scoring: 'additive', parameters: { wq: [1, -2, 0.5], wk: [-1, 2, 0.3], b: [0.1, 0, -0.2], v: [1, 0.5, -1] } };
  for (const options of [additive, { scoring: 'dotProduct', parameters: { s: 0.7 } }]) {
    for (const [maxBlockRows, maxBlockCols, rowsPerRange] of [[20, 7, 12], [103, 61, 10], [7, 3, 1], [50, 50, 1000], [4, 61, 2]]) {
      const full = nw.scoringBlocks(data.xTest, data.xTrain, data.yTrain, { ...options, maxBlockRows, maxBlockCols });
      const steps = scoringBlocksInRanges(nw, data.xTest, data.xTrain, data.yTrain, { ...options, maxBlockRows, maxBlockCols }, rowsPerRange);
      let next = steps.next();
      let ranges = 1;
      for (; !next.done; next = steps.next()) ranges++;
      const label = `${options.scoring} ${maxBlockRows} x ${maxBlockCols}, ${rowsPerRange} a range`;
      assert.deepEqual(next.value, full, label);
      if (rowsPerRange < 103 / 2) assert.ok(ranges > 2, `${label}: ${ranges} ranges`);
    }
  }
});

test('work dropped at any step (a resize or a newer request) and asked again gives the same reply as work never dropped', () => {
  const { s, data } = setUp({ nTrain: 300, nTest: 300 });
  const request = designRequest(data, { ...s, designTrained: 2 }, CELLS);
  const reference = designWork(nw)(request);
  const countSteps = () => {
    const steps = designWork(nw).steps(request);
    let count = 0;
    while (!steps.next().done) count++;
    return count;
  };
  const total = countSteps();
  for (let dropAt = 1; dropAt < total; dropAt++) {
    const work = designWork(nw);
    const dropped = work.steps(request);
    for (let i = 0; i < dropAt; i++) dropped.next();
    dropped.return();
    const reply = work(request);
    assert.deepEqual(reply.testMses, reference.testMses, `dropped after step ${dropAt} of ${total}: the test MSE per epoch`);
    assert.deepEqual([...reply.losses], [...reference.losses], `dropped after step ${dropAt}: the losses`);
    assert.deepEqual(reply.parameters, reference.parameters);
    work.dispose();
  }
});
