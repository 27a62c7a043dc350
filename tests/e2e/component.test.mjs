// <nw-figure>, the element a lesson places inline: one WebAssembly module for all of a page's figures,
// styles kept apart both ways, attributes checked like URL values, nw-change after a reader's edit, and
// the example tutorial's figures over http and from file://. The lessons are small pages served beside
// a copy of dist/.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, inEachBrowser, lessonSite } from './browser.mjs';
import { addFigure, figureDrawn } from './figures.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();

// Counts the WebAssembly instances this window creates (the figures' module and anything else).
const COUNT_INSTANCES = `window.wasmInstances = 0;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = function (...args) {
  return instantiate.apply(this, args).then((result) => { window.wasmInstances += 1; return result; });
};
window.changes = [];
document.addEventListener('nw-change', (event) => window.changes.push(event.detail.settings));
window.errors = [];
document.addEventListener('nw-error', (event) => window.errors.push(event.detail));`;

// A lesson whose own styles would break any figure they reached: hidden canvases, red text, big buttons.
const HOSTILE_CSS = `body { color: rgb(255, 0, 0); font: 30px monospace; }
canvas { display: none !important; }
h3, .title, p, button { color: rgb(255, 0, 0) !important; font-size: 40px !important; }`;

const site = lessonSite({
  'count.js': COUNT_INSTANCES,
  'hostile.css': HOSTILE_CSS,
  'lesson-components.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Components</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="hostile.css"><script src="count.js"></script></head><body>
<p>Before the figures.</p>
<nw-figure id="predictions" figure="predictions" w="2"></nw-figure>
<nw-figure id="weights" figure="weights" w="2" seed="3"></nw-figure>
<p class="problem" id="hostProblem">A paragraph of the lesson with a class the figures also use.</p>
<button id="hostButton" type="button">The lesson's button</button>
<script src="nw-figure.js"></script>
</body></html>`,
});

const lessonUrl = (name) => site.url(`${name}.html`);


// The nonparametric line of a predictions figure.
const nonparametricLine = (page, id) => page.evaluate((figureId) => document.getElementById(figureId).charts[0].data.datasets
  .find((set) => set.label === 'Nonparametric').data.map((point) => point.y), id);

const expectedLine = (w, seed = 1) => {
  const data = nw.generateData({ seed });
  return Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w }));
};

const closeTo = (actual, expected) => {
  assert.equal(actual.length, expected.length);
  actual.forEach((value, i) => assert.ok(Math.abs(value - expected[i]) <= 1e-12 * Math.max(1, Math.abs(expected[i])), `point ${i}: ${value} vs ${expected[i]}`));
};

const shadowText = (page, id, selector) => page.evaluate(({ figureId, css }) => {
  const found = document.getElementById(figureId).shadowRoot.querySelector(css);
  return found && !found.hidden ? found.textContent : null;
}, { figureId: id, css: selector });

inEachBrowser('the <nw-figure> element', (env) => {
  const { test, open } = env;

  test('figures of one page share one WebAssembly instance, a figure added later too, and each draws its own figure', async () => {
    const page = await open(lessonUrl('lesson-components'), { waitReady: false });
    await figureDrawn(page, 'predictions');
    await figureDrawn(page, 'weights');
    assert.equal(await page.evaluate(() => window.wasmInstances), 1, 'two figures, one instance');
    closeTo(await nonparametricLine(page, 'predictions'), expectedLine(2));
    // The weights figure: both heatmaps, each 50 x 50 cells, from seed 3.
    assert.deepEqual(await page.evaluate(() => document.getElementById('weights').charts.map((chart) => chart.$heatmap.cellCount)), [2500, 2500]);
    const data = nw.generateData({ seed: 3 });
    const cell = await page.evaluate(() => document.getElementById('weights').charts[0].$heatmap.cellAt(7, 9));
    assert.equal(cell.v, nw.attentionWeights([data.xTest[7]], data.xTrain, { w: 2 }).data[9]);

    await addFigure(page, 'kernels', { figure: 'kernels' });
    assert.equal(await page.evaluate(() => window.wasmInstances), 1, 'a third figure, still one instance');
    assert.equal(await page.evaluate(() => document.getElementById('kernels').shadowRoot.mode), 'open');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the lesson\'s styles do not reach into a figure, and the figure\'s do not reach out', async () => {
    const page = await open(lessonUrl('lesson-components'), { waitReady: false });
    await figureDrawn(page, 'weights');
    const inside = await page.evaluate(() => {
      const root = document.getElementById('weights').shadowRoot;
      const title = getComputedStyle(root.querySelector('.title'));
      return {
        canvasesShown: [...root.querySelectorAll('canvas')].every((canvas) => canvas.getClientRects().length > 0),
        titleColour: title.color,
        titleSize: title.fontSize,
        captionColour: getComputedStyle(root.querySelector('figcaption')).color,
      };
    });
    assert.equal(inside.canvasesShown, true, 'the lesson hides every canvas of its own, none of the figure\'s');
    assert.notEqual(inside.titleColour, 'rgb(255, 0, 0)');
    assert.notEqual(inside.captionColour, 'rgb(255, 0, 0)', 'the lesson\'s body colour is not inherited');
    assert.equal(inside.titleSize, '16px');
    const outside = await page.evaluate(() => ({
      problemBackground: getComputedStyle(document.getElementById('hostProblem')).backgroundColor,
      buttonMinHeight: getComputedStyle(document.getElementById('hostButton')).minHeight,
    }));
    assert.equal(outside.problemBackground, 'rgba(0, 0, 0, 0)', 'the figure\'s .problem rule stays inside');
    assert.notEqual(outside.buttonMinHeight, '32px', 'the figure\'s button rule stays inside');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('attributes drive a figure and are checked like URL values; a reader\'s edit dispatches nw-change', async () => {
    const page = await open(lessonUrl('lesson-components'), { waitReady: false });
    await figureDrawn(page, 'predictions');
    await page.evaluate(() => document.getElementById('predictions').setAttribute('w', '5'));
    closeTo(await nonparametricLine(page, 'predictions'), expectedLine(5));
    assert.equal(await shadowText(page, 'predictions', '[role="alert"]'), null, 'no problem shown');

    await page.evaluate(() => document.getElementById('predictions').setAttribute('w', 'abc'));
    assert.equal(await shadowText(page, 'predictions', '[role="alert"]'), 'Distance scale w must be a number');
    closeTo(await nonparametricLine(page, 'predictions'), expectedLine(5));
    await page.evaluate(() => document.getElementById('predictions').setAttribute('w', '99'));
    assert.equal(await shadowText(page, 'predictions', '[role="alert"]'), 'Distance scale w must be from 0 to 30; using 30');
    // The lesson's code hears each refusal as nw-error, by attribute.
    assert.deepEqual(await page.evaluate(() => window.errors), [
      { attribute: 'w', setting: 'w', message: 'Distance scale w must be a number' },
      { attribute: 'w', setting: 'w', message: 'Distance scale w must be from 0 to 30; using 30' },
    ]);
    await page.evaluate(() => document.getElementById('predictions').setAttribute('n-train', '1.5'));
    assert.deepEqual((await page.evaluate(() => window.errors))[2], { attribute: 'n-train', setting: 'nTrain', message: 'Training samples must be a whole number' });
    closeTo(await nonparametricLine(page, 'predictions'), expectedLine(30));
    await page.evaluate(() => document.getElementById('predictions').removeAttribute('w'));
    closeTo(await nonparametricLine(page, 'predictions'), expectedLine(1));
    assert.deepEqual(await page.evaluate(() => window.changes), [], 'the lesson\'s own changes are not echoed back');

    // The reader drags the figure's own slider.
    await page.evaluate(() => {
      const slider = document.getElementById('predictions').shadowRoot.querySelector('input[type=range]');
      slider.value = '3';
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const changes = await page.evaluate(() => window.changes);
    assert.equal(changes.length, 1);
    assert.equal(changes[0].w, 3);
    closeTo(await nonparametricLine(page, 'predictions'), expectedLine(3));
    assert.match(await shadowText(page, 'predictions', 'output'), /^3\.00 · bandwidth 1\/w = 0\.333$/);

    await page.evaluate(() => document.getElementById('weights').setAttribute('figure', 'heatmap'));
    assert.equal(await shadowText(page, 'weights', '[role="alert"]'),
      'Unknown figure "heatmap" for <nw-figure>: use one of predictions, weights, training, design, landscape, kernels');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a training figure trains the module\'s Trainer epoch by epoch, from the keyboard too', async () => {
    const page = await open(lessonUrl('lesson-components'), { waitReady: false });
    await figureDrawn(page, 'predictions');
    await addFigure(page, 'training', { figure: 'training', epochs: '3' }, { prepend: true });
    // Tab from the top of the page reaches the figure's Train button; Enter presses it.
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.raw.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id === 'training' && document.activeElement.shadowRoot.activeElement.textContent), 'Train');
    await page.raw.keyboard.press('Enter');
    await page.waitForFunction(() => /^Epoch 3 · /.test(document.getElementById('training').shadowRoot.querySelector('.status').textContent));
    const data = nw.generateData({ seed: 1 });
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 0.5 });
    const losses = [trainer.step(), trainer.step(), trainer.step()];
    const shown = await page.evaluate(() => {
      const [loss, w] = document.getElementById('training').charts;
      return { losses: loss.data.datasets[0].data.map((p) => p.y), ws: w.data.datasets[0].data.map((p) => p.y) };
    });
    assert.deepEqual(shown.losses, losses);
    assert.equal(shown.ws[3], trainer.w);
    trainer.delete();
    const changes = await page.evaluate(() => window.changes.map((settings) => settings.trained));
    assert.deepEqual(changes, [1, 2, 3], 'nw-change after each epoch');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the example tutorial\'s inline figures draw, sharing one module with each other', async () => {
    const page = await open(env.server.url.replace('index.html', 'examples/tutorial.html'), { width: 900, height: 900, waitReady: false });
    const figures = await page.waitForFunction(() => {
      const found = [...document.querySelectorAll('nw-figure')];
      const drawn = found.every((figure) => figure.charts.length > 0 && figure.charts.every((chart) => chart.$heatmap ? chart.$heatmap.cellCount > 0 : chart.data.datasets.some((set) => set.data.length > 0)));
      return found.length === 2 && drawn ? found.map((figure) => figure.getAttribute('figure')) : null;
    });
    assert.deepEqual(figures, ['predictions', 'landscape']);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('from file://, figures load their module and share it', async () => {
    const page = await open(pathToFileURL(join(site.dir, 'lesson-components.html')).href, { waitReady: false });
    await figureDrawn(page, 'predictions');
    await figureDrawn(page, 'weights');
    assert.equal(await page.evaluate(() => window.wasmInstances), 1);
    closeTo(await nonparametricLine(page, 'predictions'), expectedLine(2));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
