// The exercises as a reader clicks them, one after another: each must show what it shows on a fresh
// page (its settings, its data and the w its training reaches), whatever came before it. The numbers its
// text quotes are checked against these settings in tests/page/exercises.test.mjs.
import assert from 'node:assert/strict';
import { exercises, exerciseSettings } from '../../web/src/model/exercises.js';
import { translator } from '../../web/src/i18n/all.js';
import { Session } from '../../web/src/model/session.js';
import { createNW } from '../module/module.mjs';
import { inEachBrowser } from './browser.mjs';

const nw = await createNW();
const en = translator('en');

// What an exercise shows on a fresh page, computed here through the page's own Session: its settings
// and w at the start and after each epoch it trains.
function expected(exercise) {
  const settings = exerciseSettings(exercise);
  const session = new Session(nw);
  session.generate(settings);
  if (exercise.then === 'train') for (let i = 0; i < settings.epochs; i++) session.step();
  if (exercise.then === 'converge') session.trainUntilSettled(session.maxEpochs);
  return { settings, ws: [...session.ws] };
}

// A walk through the exercises that clicks every one straight after every other (each ordered pair once):
// an Euler circuit of the complete directed graph (Hierholzer's algorithm).
function everyPairOnce(count) {
  const unused = Array.from({ length: count }, (_, a) => Array.from({ length: count }, (_, b) => b).filter((b) => b !== a));
  const stack = [0];
  const walk = [];
  while (stack.length > 0) {
    const at = stack.at(-1);
    if (unused[at].length > 0) stack.push(unused[at].shift());
    else walk.push(stack.pop());
  }
  return walk.reverse();
}

// The click applies the settings and starts any training in its handler, so once it has returned the
// page is busy until the exercise has finished.
// (By its place in the list: "Train to convergence" is also the name of a training button.)
async function clickExercise(page, exercise) {
  await page.locator('#exerciseList button').nth(exercises.indexOf(exercise)).click();
  await page.waitForFunction(() => !nwPage.debug.busy, null, { timeout: 60_000 });
  return page.evaluate(() => ({ settings: nwPage.debug.settings, ws: [...nwPage.debug.session.ws] }));
}

function assertShows(shown, exercise, context) {
  const { settings, ws } = expected(exercise);
  const name = `${en(exercise.title)} ${context}`;
  assert.deepEqual({ ...shown.settings, trained: 0 }, { ...settings, trained: 0 }, `${name}: settings`);
  assert.equal(shown.settings.trained, ws.length - 1, `${name}: epochs trained`);
  assert.equal(shown.ws.length, ws.length, `${name}: epochs`);
  shown.ws.forEach((w, i) => assert.ok(Math.abs(w - ws[i]) <= 1e-12 * Math.abs(ws[i]), `${name}: w after ${i} epochs: ${w} vs ${ws[i]}`));
}

inEachBrowser('exercises', (env) => {
  const { test, open } = env;

  test('every exercise shows what it shows on a fresh page, straight after every other one', async () => {
    const walk = everyPairOnce(exercises.length);
    assert.equal(walk.length, exercises.length * (exercises.length - 1) + 1);
    const page = await open(env.server.url);
    for (let i = 0; i < walk.length; i++) {
      const exercise = exercises[walk[i]];
      const shown = await clickExercise(page, exercise);
      assertShows(shown, exercise, i === 0 ? 'on a fresh page' : `after ${en(exercises[walk[i - 1]].title)}`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('"More data" after "No leave-one-out": Train trains with leave-one-out, as its text says', async () => {
    const page = await open(env.server.url);
    const [noLoo, moreData] = ['exercise.noLoo.title', 'exercise.moreData.title'].map((key) => exercises.find((e) => e.title === key));
    await clickExercise(page, noLoo);
    await clickExercise(page, moreData);
    assert.equal(await page.label('Leave one out').isChecked(), true);
    // With the keyboard: scrolled from the exercises up to Train, the figures drawn on the way can move
    // it under a pointer's click.
    await page.evaluate(() => document.getElementById('train').focus());
    await page.raw.keyboard.press('Enter');
    await page.waitForFunction(() => !nwPage.debug.busy && nwPage.debug.session.epoch > 0, null, { timeout: 60_000 });
    assertShows(await page.evaluate(() => ({ settings: nwPage.debug.settings, ws: [...nwPage.debug.session.ws] })), { ...moreData, then: 'train' }, 'then Train');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
