// Writes the inputs of the PyTorch reference (scoring_torch.py): for three seeds, the chapter's data
// and, for each case, the scoring, its start (from the module's own seeded start), the optimizer, the
// learning rate and the loss. tests/module/scoring_torch.test.mjs checks the module still makes the
// same inputs before it compares with the reference's numbers.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

export const EPOCHS = 20;
// [scoring, optimizer, lr, loss, leaveOneOut]
export const CASES = [
  ['gaussian', 'sgd', 0.5, 'squared', true],
  ['gaussian', 'adam', 0.1, 'halfSquared', true],
  ['dotProduct', 'sgd', 0.001, 'squared', true],
  ['dotProduct', 'adam', 0.05, 'halfSquared', true],
  ['additive', 'sgd', 0.01, 'squared', true],
  ['additive', 'adam', 0.05, 'squared', true],
  ['additive', 'adam', 0.02, 'halfSquared', false],
];
export const SEEDS = [1, 2, 3];

// The inputs, made by the module nw.
export function referenceInputs(nw) {
  const runs = [];
  for (const seed of SEEDS) {
    const data = nw.generateData({ seed });
    for (const [scoring, optimizer, lr, loss, leaveOneOut] of CASES) {
      const start = scoring === 'gaussian' ? { w0: data.w0 } : scoring === 'additive' ? { seed, hidden: 8 } : {};
      const trainer = new nw.Trainer(data.xTrain, data.yTrain, { scoring, ...start });
      const parameters = Object.fromEntries(Object.entries(trainer.parameters).map(([key, value]) => [key, typeof value === 'number' ? value : Array.from(value)]));
      trainer.delete();
      runs.push({ seed, scoring, optimizer, lr, loss, leaveOneOut, epochs: EPOCHS, xTrain: Array.from(data.xTrain), yTrain: Array.from(data.yTrain), parameters });
    }
  }
  return runs;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // (the module to use may be given: node scoring_inputs.mjs path/to/nw.js)
  const nw = await createRequire(import.meta.url)(process.argv[2] ?? '../../dist/nw.js')();
  writeFileSync(new URL('./scoring_inputs.json', import.meta.url), `${JSON.stringify(referenceInputs(nw))}\n`);
}
