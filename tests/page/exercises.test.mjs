// Every claim an exercise makes to the reader, computed from the module through the page's own Session
// with the exercise's settings, and every number it quotes checked at the precision it is quoted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exercises, exerciseSettings } from '../../web/src/model/exercises.js';
import { LANGUAGES, translator } from '../../web/src/i18n/all.js';
import { Session } from '../../web/src/model/session.js';
import { defaults, properties } from '../../web/src/model/settings.js';
import { createNW } from '../module/module.mjs';

const nw = await createNW();
const en = translator('en');
// An exercise by its English title, with its explanation in every language of the page ({ en, zh }):
// each quoted number is checked in each of them.
const exercise = (title) => {
  const found = exercises.find((e) => en(e.title) === title);
  return { ...found, explanation: Object.fromEntries(LANGUAGES.map((lang) => [lang, translator(lang)(found.explanation)])) };
};

// The settings the page shows for the exercise (its changes over the defaults), its data generated and,
// like the page, its epochs trained when it says 'train'.
function run({ settings, then }) {
  const state = exerciseSettings({ settings });
  const session = new Session(nw);
  session.generate(state);
  if (then === 'train') for (let i = 0; i < state.epochs; i++) session.step();
  return { state, session };
}

function testMse(session, w, kernel = session.kernel) {
  const { xTest, xTrain, yTrain, yTruth } = session.data;
  return nw.meanSquaredError(nw.predict(xTest, xTrain, yTrain, { w, kernel }), yTruth);
}

// The explanation quotes `value` rounded to `digits` decimals, in every language.
function quotes(texts, value, digits) {
  const shown = value.toFixed(digits);
  for (const text of Object.values(texts)) {
    assert.ok(new RegExp(`(^|[^0-9.])${shown.replace('.', '\\.')}([^0-9]|$)`).test(text), `"${text}" should quote ${shown}`);
  }
}

test('an exercise names every setting of the page, so nothing the reader set before carries over', () => {
  // The page applies these as a whole (page/controller.js runExercise); tests/e2e/exercises.test.mjs runs
  // every exercise after every other in the browser.
  for (const exercise of exercises) {
    assert.deepEqual(Object.keys(exerciseSettings(exercise)).sort(), properties.map((p) => p.name).sort(), en(exercise.title));
  }
});

test('"More data": at fixed w the error does not fall; with w chosen for n it does', () => {
  const { explanation, settings } = exercise('More data');
  const small = run({ settings: { ...settings, nTrain: 50 } }).session;
  const large = run({ settings }).session;
  assert.equal(exerciseSettings({ settings }).w, 1);
  const [fixedSmall, fixedLarge] = [testMse(small, 1), testMse(large, 1)];
  assert.ok(fixedLarge >= fixedSmall, 'ten times the data at w = 1 is no closer to the truth');
  quotes(explanation, fixedLarge, 2);
  quotes(explanation, fixedSmall, 2);
  const [bestSmall, bestLarge] = [small.bestBandwidth(), large.bestBandwidth()];
  assert.ok(bestLarge.w > 2 * bestSmall.w, 'the best w grows with the data');
  quotes(explanation, bestSmall.w, 2);
  quotes(explanation, bestLarge.w, 2);
  const [tunedSmall, tunedLarge] = [testMse(small, bestSmall.w), testMse(large, bestLarge.w)];
  assert.ok(tunedLarge < tunedSmall / 5 && tunedLarge < fixedLarge / 50, 'and the error falls with it');
  quotes(explanation, tunedSmall, 3);
  quotes(explanation, tunedLarge, 3);
  // "Set w to 7.7": the slider's value (step 0.05) gives the quoted error too.
  const suggested = Number(explanation.en.match(/Set w to ([\d.]+)/)[1]);
  assert.match(explanation.zh, new RegExp(`把 w 设为 ${suggested}`));
  assert.equal(suggested, Math.round(bestLarge.w * 20) / 20);
  quotes(explanation, testMse(large, suggested), 3);
});

test('"A sharper w": w = 10 beats w = 1 here, and w = 30 is worse than w = 10', () => {
  const { explanation, settings } = exercise('A sharper w');
  const { session } = run({ settings });
  const [chapter, sharp, sharpest] = [testMse(session, 1), testMse(session, exerciseSettings({ settings }).w), testMse(session, 30)];
  assert.ok(sharp < chapter && sharpest > sharp);
  quotes(explanation, sharp, 3);
  quotes(explanation, chapter, 3);
  quotes(explanation, sharpest, 3);
  // "the heatmap becomes a thin diagonal": at w = 10 each query's attention lies on keys near it, at
  // w = 1 mostly elsewhere.
  const nearShare = (w) => {
    const { xTest, xTrain } = session.data;
    const { data } = nw.attentionWeights(xTest, xTrain, { w });
    return Array.from(xTest, (x, r) => xTrain.reduce((sum, key, c) => sum + (Math.abs(key - x) < 0.3 ? data[r * xTrain.length + c] : 0), 0));
  };
  assert.ok(Math.min(...nearShare(10)) > 0.95, 'w = 10: at least 95% of every row within 0.3 of its query');
  const wide = nearShare(1);
  assert.ok(wide.reduce((a, b) => a + b) / wide.length < 0.5, 'w = 1: under half of a row within 0.3, on average');
});

test('"Another kernel": lr 0.5 overshoots onto a nearly flat stretch; lr 0.01 reaches the minimiser', () => {
  const { explanation, settings } = exercise('Another kernel');
  const { session } = run(exercise('Another kernel'));
  const [w0, w1] = session.ws;
  quotes(explanation, w0, 2);
  quotes(explanation, w1, 2);
  assert.ok(w1 > 100 * w0, 'one step throws w far out');
  const end = session.ws.at(-1);
  assert.ok(Math.abs(end - w1) < 0.01 * w1, 'and it stays there');
  const loss = session.objectiveAt([end])[0];
  const best = session.bestBandwidth();
  assert.ok(loss > 1.5 * best.loss);
  quotes(explanation, loss, 2);
  quotes(explanation, best.loss, 2);
  quotes(explanation, best.w, 2);
  const { session: slow } = run({ settings: { ...settings, lr: 0.01 }, then: 'train' });
  quotes(explanation, slow.learnedW, 2);
  quotes(explanation, slow.objectiveAt([slow.learnedW])[0], 2);
  assert.ok(Math.abs(slow.learnedW - best.w) < 0.05 * best.w);
});

test('"No leave-one-out": w only grows, the training loss only falls, the test MSE rises after the first step', () => {
  const { explanation, settings } = exercise('No leave-one-out');
  const { session } = run(exercise('No leave-one-out'));
  const { ws, losses, testMses } = session;
  assert.equal(losses.length, exerciseSettings({ settings }).epochs);
  quotes(explanation, ws[0], 2);
  quotes(explanation, ws[1], 2);
  quotes(explanation, ws.at(-1), 2);
  quotes(explanation, losses[0], 2);
  quotes(explanation, losses.at(-1), 2);
  quotes(explanation, testMses[1], 3);
  quotes(explanation, testMses.at(-1), 3);
  for (let i = 1; i < ws.length; i++) assert.ok(ws[i] > ws[i - 1], `epoch ${i} raises w`);
  for (let i = 1; i < losses.length; i++) assert.ok(losses[i] < losses[i - 1], `epoch ${i + 1} lowers the loss`);
  for (let i = 2; i < testMses.length; i++) assert.ok(testMses[i] > testMses[i - 1], `epoch ${i} raises the test MSE`);
  // "would reach 0 only as w grows": it is above 0 at every w tried, and 0 to the last bit at a huge w.
  const best = session.bestBandwidth();
  assert.equal(best.loss, 0);
  assert.ok(best.w > 100 * ws.at(-1));
  assert.ok(session.objectiveAt([ws.at(-1)])[0] > 0);
});

test('"Train to convergence": w settles at selectBandwidth\'s minimiser on several data sets', () => {
  const { settings, then } = exercise('Train to convergence');
  assert.equal(then, 'converge');
  for (const loss of ['squared', 'halfSquared']) {
    for (const seed of [1, 2, 3]) {
      const session = new Session(nw);
      session.generate({ ...exerciseSettings({ settings }), seed, loss });
      assert.equal(session.trainUntilSettled(5000), true, `seed ${seed}, ${loss}: settles`);
      const best = session.bestBandwidth();
      assert.equal(best.atLimit, 'none');
      assert.ok(Math.abs(session.learnedW - best.w) < 1e-4 * best.w, `seed ${seed}, ${loss}: ${session.learnedW} vs ${best.w}`);
    }
  }
});
