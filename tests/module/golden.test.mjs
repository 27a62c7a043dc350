// The module gives the native build's numbers for seed 1 (golden values written by the native nw_golden).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW, readGolden, assertClose } from './module.mjs';

const nw = await createNW();
const golden = readGolden();

test('seed 1 data is bit-identical to the native build', () => {
  const data = nw.generateData({ seed: 1 });
  for (const name of ['xTrain', 'yTrain', 'xTest', 'yTruth']) {
    assert.deepEqual(Array.from(data[name]), golden[name], name);
  }
  assert.equal(data.w0, golden.w0[0]);
});

test('predictions with w = 1 match the native build to 1e-12', () => {
  const predicted = nw.predict(golden.xTest, golden.xTrain, golden.yTrain, { w: 1 });
  assert.equal(predicted.length, golden.predictW1.length);
  predicted.forEach((p, i) => assertClose(p, golden.predictW1[i], 1e-12, `prediction ${i}`));
});

test('five training epochs match the native build to 1e-12', () => {
  const trainer = new nw.Trainer(golden.xTrain, golden.yTrain, { w0: golden.w0[0], lr: 0.5 });
  golden.trainLosses.forEach((expected, epoch) => assertClose(trainer.step(), expected, 1e-12, `epoch ${epoch + 1}`));
  assertClose(trainer.w, golden.trainedW[0], 1e-12, 'trained w');
  trainer.delete();
});
