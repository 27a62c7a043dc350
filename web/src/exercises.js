// The chapter's exercises as one-click set-ups, each saying what the reader should see.

// settings: changes to apply; then: 'train' to run the epochs afterwards.
const exercises = [
  {
    title: 'More data',
    settings: { nTrain: 500, data: 'generated', trained: 0 },
    explanation: 'With 10 times the data the nonparametric line hugs the truth: the estimator is consistent.',
  },
  {
    title: 'A sharper w',
    settings: { w: 10, attend: 'nonparametric' },
    explanation: 'A large w attends only to the nearest keys: the line follows the noise and the heatmap becomes a thin diagonal.',
  },
  {
    title: 'Another kernel',
    settings: { kernel: 'epanechnikov', w: 2, trained: 0 },
    explanation: 'The epanechnikov kernel gives zero weight beyond distance 1/w: the heatmap gets hard edges.',
  },
  {
    title: 'No leave-one-out',
    settings: { loo: 'off', kernel: 'gaussian', epochs: 30, trained: 0 },
    then: 'train',
    explanation: 'Each query sees its own key: w runs away, the training loss falls to 0, and the test MSE rises.',
  },
  {
    title: 'Train to convergence',
    settings: { loo: 'on', trained: 0 },
    then: 'converge',
    explanation: 'Gradient descent on the leave-one-out loss settles at its minimiser, the star on the landscape.',
  },
];

export { exercises };
