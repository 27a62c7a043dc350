// The chapter's exercises as one-click set-ups, each saying what the reader should see. Every number an
// explanation quotes is computed from the module by tests/page/exercises.test.mjs for these settings.
// An exercise starts from the page's defaults (exerciseSettings), so what the reader set before, another
// exercise included, cannot change what it shows; its settings name what it changes from them.
import { defaults } from './settings.js';

// title, explanation: dictionary keys (i18n/en.js, zh.js); settings: what it changes from the defaults
// (the chapter's data, kernel, estimator, loss and training); then: 'train' to run the epochs
// afterwards, 'converge' to train until w settles.
const exercises = [
  {
    title: 'exercise.moreData.title',
    settings: { nTrain: 500 },
    explanation: 'exercise.moreData.text',
  },
  {
    title: 'exercise.sharperW.title',
    settings: { w: 10 },
    explanation: 'exercise.sharperW.text',
  },
  {
    title: 'exercise.anotherKernel.title',
    settings: { kernel: 'epanechnikov', w: 2 },
    then: 'train',
    explanation: 'exercise.anotherKernel.text',
  },
  {
    title: 'exercise.noLoo.title',
    settings: { loo: 'off', epochs: 30 },
    then: 'train',
    explanation: 'exercise.noLoo.text',
  },
  {
    title: 'exercise.converge.title',
    settings: {},
    then: 'converge',
    explanation: 'exercise.converge.text',
  },
];

// The settings an exercise shows: the page's defaults with the exercise's changes.
const exerciseSettings = (exercise) => ({ ...defaults(), ...exercise.settings });

export { exercises, exerciseSettings };
