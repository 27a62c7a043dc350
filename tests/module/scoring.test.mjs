// The scoring functions through the module: the gaussian scoring is the chapter's trainer, Gaussian
// pooling is dot-product attention on features, and a Trainer's parameters are copies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW } from './module.mjs';

const nw = await createNW();
const data = nw.generateData({ seed: 1 });

test('the gaussian scoring trains exactly as the chapter\'s Trainer', () => {
  const chapter = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0 });
  const scored = new nw.Trainer(data.xTrain, data.yTrain, { scoring: 'gaussian', w0: data.w0, optimizer: 'sgd' });
  for (let epoch = 0; epoch < 5; epoch++) assert.equal(scored.step(), chapter.step());
  assert.equal(scored.w, chapter.w);
  assert.deepEqual(scored.parameters, { w: chapter.w });
  assert.equal(scored.scoring, 'gaussian');
  chapter.delete();
  scored.delete();
});

test('Gaussian pooling is the dot product of [q, 1] and [w^2 k, -w^2 k^2 / 2], at the chapter\'s and a trained w', () => {
  for (const w of [1, data.w0, 16.15]) {
    const { dim, queryFeatures, keyFeatures } = nw.gaussianFeatures(data.xTest, data.xTrain, { w });
    assert.equal(dim, 2);
    assert.deepEqual(Array.from(queryFeatures.subarray(0, 4)), [data.xTest[0], 1, data.xTest[1], 1]);
    assert.deepEqual(Array.from(keyFeatures.subarray(0, 2)), [w * w * data.xTrain[0], -(w * w * data.xTrain[0]) * data.xTrain[0] / 2]);
    const dot = nw.dotProductWeights(queryFeatures, keyFeatures, { dim }).data;
    const gaussian = nw.attentionWeights(data.xTest, data.xTrain, { w }).data;
    let worst = 0;
    gaussian.forEach((g, i) => { if (g > 1e-300) worst = Math.max(worst, Math.abs(dot[i] - g) / g); });
    assert.ok(worst < 1e-10, `w = ${w}: largest relative difference ${worst}`);
  }
});

test('a trainer\'s parameters are a fresh copy, shaped by its scoring', () => {
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { scoring: 'additive', hidden: 3, seed: 7 });
  const first = trainer.parameters;
  assert.deepEqual(Object.keys(first), ['wq', 'wk', 'b', 'v']);
  for (const values of Object.values(first)) assert.ok(values instanceof Float64Array && values.length === 3);
  first.wq[0] = 1234;
  assert.notEqual(trainer.parameters.wq[0], 1234);
  // v is drawn within 1/sqrt(h), the others within 1, as nn.Linear draws them.
  assert.ok(Array.from(first.v).every((v) => Math.abs(v) <= 1 / Math.sqrt(3)));
  assert.ok([...first.wk, ...first.b].every((v) => Math.abs(v) <= 1));
  // The same seed, the same start; another seed, another.
  const again = new nw.Trainer(data.xTrain, data.yTrain, { scoring: 'additive', hidden: 3, seed: 7 });
  const other = new nw.Trainer(data.xTrain, data.yTrain, { scoring: 'additive', hidden: 3, seed: 8 });
  assert.deepEqual(again.parameters.v, trainer.parameters.v);
  assert.notDeepEqual(other.parameters.v, trainer.parameters.v);
  for (const t of [trainer, again, other]) t.delete();
  const dot = new nw.Trainer(data.xTrain, data.yTrain, { scoring: 'dotProduct', s0: 0.25 });
  assert.deepEqual(dot.parameters, { s: 0.25 });
  dot.delete();
});

test('the scaled dot product cannot attend to nearby keys: every query above 0 looks at the largest key', () => {
  const { rows, cols, data: weights } = nw.scoringWeights(data.xTest, data.xTrain, { scoring: 'dotProduct', parameters: { s: 1 } });
  const largest = data.xTrain.indexOf(Math.max(...data.xTrain));
  for (let r = 1; r < rows; r++) {
    const row = weights.subarray(r * cols, (r + 1) * cols);
    assert.equal(row.indexOf(Math.max(...row)), largest, `query ${data.xTest[r]}`);
  }
});

test('scoringBlocks: block maxima of scoringWeights, its predictions and each query\'s peak', () => {
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { scoring: 'additive', hidden: 4, seed: 2, optimizer: 'adam', lr: 0.05 });
  for (let e = 0; e < 5; e++) trainer.step();
  const options = { scoring: 'additive', parameters: trainer.parameters };
  trainer.delete();
  const full = nw.scoringWeights(data.xTest, data.xTrain, options);
  const blocks = nw.scoringBlocks(data.xTest, data.xTrain, data.yTrain, { ...options, maxBlockRows: 9, maxBlockCols: 11 });
  assert.deepEqual([blocks.rowStep, blocks.colStep, blocks.blockRows, blocks.blockCols], [6, 5, 9, 10]);
  for (let b = 0; b < blocks.weight.length; b++) {
    const [br, bc] = [Math.floor(b / blocks.blockCols), b % blocks.blockCols];
    let largest = 0;
    for (let r = br * 6; r < Math.min(50, br * 6 + 6); r++) for (let c = bc * 5; c < bc * 5 + 5; c++) largest = Math.max(largest, full.data[r * 50 + c]);
    assert.equal(blocks.weight[b], largest);
    assert.equal(full.data[blocks.row[b] * 50 + blocks.col[b]], largest);
  }
  assert.deepEqual(blocks.predictions, nw.scoringPredict(data.xTest, data.xTrain, data.yTrain, options));
  for (let r = 0; r < 50; r++) {
    const row = full.data.subarray(r * 50, (r + 1) * 50);
    assert.equal(blocks.peaks[r], row.indexOf(Math.max(...row)));
  }
  assert.equal(nw.scoringBlocks(data.xTest, data.xTrain, null, options).predictions, undefined);
  assert.throws(() => nw.scoringBlocks(data.xTest, data.xTrain, null, { ...options, maxBlockRows: 0 }), { parameter: 'maxBlockRows' });
  assert.throws(() => nw.scoringBlocks(data.xTest, data.xTrain, [], options), { parameter: 'values' });
});

test('an epoch from scoringLooRows in ranges, carried over, is step()\'s bit for bit (dotProduct and additive, both losses)', () => {
  const d = nw.generateData({ nTrain: 97, nTest: 5, seed: 4 });
  for (const [scoring, start] of [['additive', { hidden: 6, seed: 2 }], ['dotProduct', {}]]) {
    for (const loss of ['squared', 'halfSquared']) {
      const options = { scoring, optimizer: 'adam', lr: 0.05, loss, ...start };
      const whole = new nw.Trainer(d.xTrain, d.yTrain, options);
      const inRanges = new nw.Trainer(d.xTrain, d.yTrain, options);
      for (let epoch = 0; epoch < 3; epoch++) {
        const parameters = inRanges.parameters;
        let sums = {};
        for (let begin = 0; begin < 97; begin += 10) {
          sums = nw.scoringLooRows(d.xTrain, d.yTrain, { scoring, parameters, rowBegin: begin, rowEnd: Math.min(97, begin + 10), ...sums });
        }
        assert.equal(inRanges.stepWithSums(sums.lossSum, sums.gradSum), whole.step(), `${scoring} ${loss} epoch ${epoch + 1}: the loss`);
        assert.deepEqual(inRanges.parameters, whole.parameters, `${scoring} ${loss}: the parameters`);
      }
      whole.delete();
      inRanges.delete();
    }
  }
});
