// The scoring functions and their training against a float64 PyTorch transcription (issue 30): the
// numbers tests/reference/scoring_torch.py wrote with autograd and torch.optim, kept in the repository
// (scripts/torch_reference.sh writes them again where python3-torch is installed). Losses, gradients
// and the parameters after each of 20 epochs, three seeds, every scoring with SGD and Adam, both losses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createNW } from './module.mjs';
import { referenceInputs } from '../reference/scoring_inputs.mjs';

const nw = await createNW();
const read = (name) => JSON.parse(readFileSync(new URL(`../reference/${name}`, import.meta.url), 'utf8'));
const inputs = read('scoring_inputs.json');
const reference = read('scoring_torch.json');
const RELATIVE = 1e-9;

// Each number of a parameters-shaped object ({ w }, { s }, { wq, wk, b, v }), flat.
const flat = (parameters) => Object.values(parameters).flatMap((value) => (typeof value === 'number' ? [value] : Array.from(value)));

// Within RELATIVE of the reference, relative to the largest magnitude of the group (a gradient entry
// near zero has no relative precision of its own to compare).
function assertNear(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: as many values`);
  const scale = Math.max(...expected.map(Math.abs), Number.MIN_VALUE);
  actual.forEach((value, i) => {
    assert.ok(Math.abs(value - expected[i]) <= RELATIVE * scale, `${what}[${i}]: ${value} vs PyTorch's ${expected[i]} (scale ${scale})`);
  });
}

test('the module still makes the inputs the reference was computed from', () => {
  assert.deepEqual(referenceInputs(nw), inputs);
});

test('losses, gradients and 20 epochs agree with PyTorch within 1e-9 (relative)', () => {
  assert.equal(reference.length, inputs.length);
  for (const [index, run] of inputs.entries()) {
    const torch = reference[index];
    const what = `seed ${run.seed}, ${run.scoring} with ${run.optimizer} (lr ${run.lr}, ${run.loss}, leaveOneOut ${run.leaveOneOut})`;
    assert.deepEqual([torch.seed, torch.scoring, torch.optimizer], [run.seed, run.scoring, run.optimizer], `${what}: the reference's run`);
    const trainer = new nw.Trainer(run.xTrain, run.yTrain, { scoring: run.scoring, parameters: run.parameters, optimizer: run.optimizer, lr: run.lr, loss: run.loss, leaveOneOut: run.leaveOneOut });
    for (const [epoch, expected] of torch.epochs.entries()) {
      const at = trainer.parameters;
      const { loss, grad } = nw.scoringLooLoss(run.xTrain, run.yTrain, { scoring: run.scoring, parameters: at, loss: run.loss, leaveOneOut: run.leaveOneOut });
      assertNear([loss], [expected.loss], `${what}, epoch ${epoch + 1}: loss`);
      assertNear(flat(grad), flat(expected.grad), `${what}, epoch ${epoch + 1}: gradient`);
      assert.equal(trainer.step(), loss, `${what}, epoch ${epoch + 1}: step() returns the loss before the step`);
      assertNear(flat(trainer.parameters), flat(expected.parameters), `${what}, epoch ${epoch + 1}: parameters after the step`);
    }
    trainer.delete();
  }
});

test('the additive trainer learns: 20 epochs of Adam take a tenth off its loss on every seed', () => {
  for (const run of inputs.filter((r) => r.scoring === 'additive' && r.optimizer === 'adam')) {
    const torch = reference[inputs.indexOf(run)];
    assert.ok(torch.epochs.at(-1).loss < 0.9 * torch.epochs[0].loss, `seed ${run.seed}: ${torch.epochs[0].loss} -> ${torch.epochs.at(-1).loss}`);
  }
});
