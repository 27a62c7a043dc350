// The Trainer against the chapter's own training loop (re-implemented in float64 in chapter_reference.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW, assertClose } from './module.mjs';
import { chapterTraining } from './chapter_reference.mjs';

const nw = await createNW();

// loss 'squared' is the later PyTorch listing (the plain sum); 'halfSquared' the MXNet listing and the
// PyTorch listing of mid-2021 (each squared error halved).
for (const loss of ['squared', 'halfSquared']) {
  for (const seed of [1, 2, 3]) {
    test(`seed ${seed}, loss ${loss}: per-epoch losses and final w match the chapter's loop to 1e-9`, () => {
      const data = nw.generateData({ seed });
      const reference = chapterTraining(Array.from(data.xTrain), Array.from(data.yTrain), data.w0, 0.5, 5, { halved: loss === 'halfSquared' });
      const options = loss === 'squared' ? { w0: data.w0, lr: 0.5 } : { w0: data.w0, lr: 0.5, loss };
      const trainer = new nw.Trainer(data.xTrain, data.yTrain, options);
      try {
        const losses = reference.losses.map(() => trainer.step());
        reference.losses.forEach((expected, epoch) => assertClose(losses[epoch], expected, 1e-9, `epoch ${epoch + 1} loss`));
        assertClose(trainer.w, reference.w, 1e-9, 'final w');
        assert.equal(trainer.epoch, 5);
      } finally {
        trainer.delete();
      }
    });
  }
}

test('the two losses train differently: halving the loss halves each step', () => {
  const data = nw.generateData({ seed: 1 });
  const [sum, half] = ['squared', 'halfSquared'].map((loss) => new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, loss }));
  const sumLoss = sum.step();
  assert.equal(half.step(), sumLoss / 2);
  assert.ok(Math.abs(half.w - data.w0) < Math.abs(sum.w - data.w0) * 0.51, 'a shorter step');
  sum.delete();
  half.delete();
  const best = nw.selectBandwidth(data.xTrain, data.yTrain, { loss: 'halfSquared' });
  assert.equal(best.w, nw.selectBandwidth(data.xTrain, data.yTrain).w);
  assert.equal(nw.looLoss(data.xTrain, data.yTrain, { w: 2, loss: 'halfSquared' }).loss, nw.looLoss(data.xTrain, data.yTrain, { w: 2 }).loss / 2);
  assert.throws(() => nw.looLoss(data.xTrain, data.yTrain, { loss: 'mean' }), { name: 'NWError', message: "loss must be one of squared, halfSquared, got 'mean'" });
  assert.throws(() => nw.looLoss(data.xTrain, data.yTrain, { loss: 2 }), { name: 'NWError', message: 'loss must be a string, got number' });
  assert.throws(() => nw.predict([1], data.xTrain, data.yTrain, { loss: 'squared' }), { name: 'NWError', message: /unknown option 'loss'/ });
});

test('looLoss is the chapter objective and its derivative at several w', () => {
  const data = nw.generateData({ seed: 4, nTrain: 30 });
  for (const w of [0.2, 1, 3, 12]) {
    const { losses } = chapterTraining(Array.from(data.xTrain), Array.from(data.yTrain), w, 0, 1);
    const result = nw.looLoss(data.xTrain, data.yTrain, { w });
    assertClose(result.loss, losses[0], 1e-12, `loss at w=${w}`);
    // One step with lr = 1 moves w by exactly -grad.
    const stepped = chapterTraining(Array.from(data.xTrain), Array.from(data.yTrain), w, 1, 1).w;
    assertClose(result.grad, w - stepped, 1e-9, `grad at w=${w}`);
  }
});
