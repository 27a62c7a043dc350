// The chapter's exercises as one-click set-ups, each saying what the reader should see. Every number an
// explanation quotes is computed from the module by tests/page/exercises.test.mjs for these settings, so
// an exercise that quotes numbers pins the data (the chapter's) and whatever else they depend on.

// The chapter's data: 50 samples, 50 test points, noise 0.5, seed 1.
const chapterData = { data: 'generated', nTrain: 50, nTest: 50, noiseSd: 0.5, seed: 1 };
// The loss the quoted numbers are for: the summed squared error.
const summedLoss = { loss: 'squared' };
// And the chapter's estimator (a weighted mean, not the local-linear option).
const chapterEstimator = { estimator: 'nadarayaWatson' };

// title, explanation: dictionary keys (i18n/en.js, zh.js); settings: changes to apply; then: 'train' to
// run the epochs afterwards, 'converge' to train until w settles.
const exercises = [
  {
    title: 'exercise.moreData.title',
    settings: { ...chapterData, ...summedLoss, ...chapterEstimator, nTrain: 500, kernel: 'gaussian', w: 1, trained: 0 },
    explanation: 'exercise.moreData.text',
  },
  {
    title: 'exercise.sharperW.title',
    settings: { ...chapterData, ...summedLoss, ...chapterEstimator, kernel: 'gaussian', w: 10, attend: 'nonparametric' },
    explanation: 'exercise.sharperW.text',
  },
  {
    title: 'exercise.anotherKernel.title',
    settings: { ...chapterData, ...summedLoss, ...chapterEstimator, kernel: 'epanechnikov', w: 2, lr: 0.5, loo: 'on', epochs: 5, trained: 0 },
    then: 'train',
    explanation: 'exercise.anotherKernel.text',
  },
  {
    title: 'exercise.noLoo.title',
    settings: { ...chapterData, ...summedLoss, ...chapterEstimator, loo: 'off', kernel: 'gaussian', lr: 0.5, epochs: 30, trained: 0 },
    then: 'train',
    explanation: 'exercise.noLoo.text',
  },
  {
    title: 'exercise.converge.title',
    settings: { loo: 'on', kernel: 'gaussian', lr: 0.5, trained: 0 },
    then: 'converge',
    explanation: 'exercise.converge.text',
  },
];

export { exercises };
