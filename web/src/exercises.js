// The chapter's exercises as one-click set-ups, each saying what the reader should see. Every number an
// explanation quotes is computed from the module by tests/js/exercises.test.mjs for these settings, so
// an exercise that quotes numbers pins the data (the chapter's) and whatever else they depend on.

// The chapter's data: 50 samples, 50 test points, noise 0.5, seed 1.
const chapterData = { data: 'generated', nTrain: 50, nTest: 50, noiseSd: 0.5, seed: 1 };
// The loss the quoted numbers are for: the summed squared error.
const summedLoss = { loss: 'squared' };

// settings: changes to apply; then: 'train' to run the epochs afterwards, 'converge' to train until
// w settles.
const exercises = [
  {
    title: 'More data',
    settings: { ...chapterData, ...summedLoss, nTrain: 500, kernel: 'gaussian', w: 1, trained: 0 },
    explanation: 'Ten times the data at the same w = 1, and the nonparametric line is no closer to the truth '
      + '(test MSE 0.42, against 0.32 with 50 samples): w = 1 always averages over the same width, so its '
      + 'bias stays. The estimator is consistent only if w grows with the data: the leave-one-out best w is '
      + '3.25 for 50 samples and 7.70 for 500, where the test MSE falls from 0.045 to 0.006. Set w to 7.7 '
      + 'and the line hugs the truth.',
  },
  {
    title: 'A sharper w',
    settings: { ...chapterData, ...summedLoss, kernel: 'gaussian', w: 10, attend: 'nonparametric' },
    explanation: 'A large w attends only to the nearest keys: the heatmap becomes a thin diagonal and the line '
      + 'bends towards nearby points, noise included. Here w = 10 still beats the chapter\'s w = 1 (test MSE '
      + '0.039 against 0.318), whose window is far too wide for this curve; at w = 30, the slider\'s end, the '
      + 'line follows the noise more and the test MSE rises to 0.092.',
  },
  {
    title: 'Another kernel',
    settings: { ...chapterData, ...summedLoss, kernel: 'epanechnikov', w: 2, lr: 0.5, loo: 'on', epochs: 5, trained: 0 },
    then: 'train',
    explanation: 'The epanechnikov kernel gives zero weight beyond distance 1/w: the heatmap gets hard edges. '
      + 'Its loss is steep at small w, and the chapter\'s learning rate 0.5 throws w from 0.47 to 63.74 in '
      + 'one step, where each query sees only its nearest keys and the loss is almost flat, so w stays '
      + 'there: loss 30.81, against 15.59 at the best w = 1.70 (the star on the landscape). With a learning '
      + 'rate of 0.01 (then Reset and Train) five epochs reach w = 1.72 and a loss of 15.59.',
  },
  {
    title: 'No leave-one-out',
    settings: { ...chapterData, ...summedLoss, loo: 'off', kernel: 'gaussian', lr: 0.5, epochs: 30, trained: 0 },
    then: 'train',
    explanation: 'Each query also sees its own key, so a larger w always fits the training data better: the '
      + 'first step throws w from 0.47 to 21.74 and every later one raises it (23.69 after 30 epochs). The '
      + 'training loss keeps falling (54.06 before the first step, 4.94 before the last) and would reach 0 '
      + 'only as w grows without bound, while the test MSE creeps up after the first step (0.078 to 0.082): '
      + 'the loss rewards memorising the training points.',
  },
  {
    title: 'Train to convergence',
    settings: { loo: 'on', kernel: 'gaussian', lr: 0.5, trained: 0 },
    then: 'converge',
    explanation: 'Gradient descent on the leave-one-out loss settles at its minimiser, the star on the landscape.',
  },
];

export { exercises };
