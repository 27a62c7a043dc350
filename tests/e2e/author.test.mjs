// A lesson author's control over the figures (issue 28, items 7 and 8): which controls an embed or a
// <nw-figure> shows (controls=), its caption (caption=), what is wrong with either told to the lesson
// (nw:error, nw-error), and figures that share one state by a group name. Lessons are small pages served
// beside a copy of dist/.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { distDir, inEachBrowser, lessonSite } from './browser.mjs';
import { addFigure, figureDrawn } from './figures.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();

const LISTEN = `window.changes = [];
window.errors = [];
window.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'nw:error') window.errors.push({ setting: event.data.setting, message: event.data.message });
});
document.addEventListener('nw-change', (event) => window.changes.push({ id: event.target.id, settings: event.detail.settings }));
document.addEventListener('nw-error', (event) => window.errors.push({ id: event.target.id, ...event.detail }));`;

const site = lessonSite({
  'listen.js': LISTEN,
  'lesson-frame.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,"><script src="listen.js"></script></head>
<body><iframe id="figure" src="index.html?embed=weights&controls=w,bogus&caption=Row%202%20is%20query%200.1" title="Weights" style="width: 100%; border: 0"></iframe>
<script src="embed.js"></script></body></html>`,
  'lesson-frames.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Two frames, one state</title><link rel="icon" href="data:,"><script src="listen.js"></script></head>
<body><iframe id="one" data-nw-group="g" src="index.html?embed=predictions&id=one#w=2" title="Predictions" style="width: 100%; border: 0"></iframe>
<iframe id="two" data-nw-group="g" src="index.html?embed=weights&id=two#w=2" title="Weights" style="width: 100%; border: 0"></iframe>
<iframe id="three" src="index.html?embed=weights&id=three#w=2" title="Not in the group" style="width: 100%; border: 0"></iframe>
<script src="embed.js"></script></body></html>`,
  'lesson-group.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>One state</title><link rel="icon" href="data:,"><script src="listen.js"></script></head>
<body>
<nw-figure id="a" figure="predictions" group="lesson1" w="2" caption="The blue line at your w."></nw-figure>
<nw-figure id="b" figure="weights" group="lesson1" controls="none"></nw-figure>
<nw-figure id="c" figure="training" group="lesson1" epochs="2"></nw-figure>
<nw-figure id="alone" figure="predictions" w="2"></nw-figure>
<nw-figure id="bad" figure="training" controls="w train knobs"></nw-figure>
<script src="nw-figure.js"></script>
</body></html>`,
});

// What of the embed a reader sees: its controls by id, its captions' text, its alert.
const embedView = (page) => page.evaluate(() => {
  const visible = (element) => element !== null && element.getClientRects().length > 0;
  const ids = ['query', 'attend', 'kernel', 'estimator', 'w', 'lr', 'epochs', 'loo', 'loss', 'train', 'step', 'converge'];
  return {
    controls: ids.filter((id) => visible(document.getElementById(id))),
    labels: [...document.querySelectorAll('label')].filter(visible).map((label) => label.htmlFor),
    captions: [...document.querySelectorAll('figcaption')].filter(visible).map((caption) => caption.textContent.trim()),
    alert: visible(document.getElementById('message')) ? document.getElementById('message').textContent : '',
    heatmaps: ['nonparametricHeatmap', 'parametricHeatmap'].filter((id) => visible(document.getElementById(id))),
  };
});

// A component's settings, visible controls and captions.
const figureView = (page, id) => page.evaluate((figureId) => {
  const figure = document.getElementById(figureId);
  const visible = (element) => element.getClientRects().length > 0;
  const root = figure.shadowRoot;
  return {
    settings: figure.settings,
    controls: [...root.querySelectorAll('.controls input, .controls button')].filter(visible).map((element) => element.type === 'range' ? 'w' : element.textContent),
    captions: [...root.querySelectorAll('figcaption')].filter(visible).map((caption) => caption.textContent),
    alert: root.querySelector('[role="alert"]').hidden ? '' : root.querySelector('[role="alert"]').textContent,
  };
}, id);


inEachBrowser('the author\'s options', (env) => {
  const { test, open } = env;

  test('?controls= shows only the named controls, ?caption= replaces the captions, and both survive the reader\'s steps', async () => {
    const caption = 'Each row: one query. Look at row 2.';
    const page = await open(`${env.server.url}?embed=weights&controls=w&caption=${encodeURIComponent(caption)}#w=2`, { width: 640, height: 800 });
    let view = await embedView(page);
    assert.deepEqual(view.controls, ['w']);
    assert.deepEqual(view.labels, ['w']);
    assert.deepEqual(view.captions, [caption], 'one caption, the author\'s, in place of the two heatmaps\' own');
    assert.deepEqual(view.heatmaps, ['nonparametricHeatmap', 'parametricHeatmap']);
    assert.equal(view.alert, '');
    // The reader moves w; the page is resized; the caption and the controls stay the author's.
    await page.locator('#w').set('5');
    await page.resize({ width: env.narrow, height: 812 });
    view = await embedView(page);
    assert.deepEqual(view.controls, ['w']);
    assert.deepEqual(view.captions, [caption]);
    assert.equal(await page.evaluate(() => window.nwPage.debug.settings.w), 5);
    assert.deepEqual(page.problems, []);
    await page.close();

    // None: no control, and no fieldset left empty; an empty caption: no caption.
    const bare = await open(`${env.server.url}?embed=training&controls=none&caption=`, { width: 640, height: 800 });
    view = await embedView(bare);
    assert.deepEqual(view.controls, []);
    assert.deepEqual(view.captions, []);
    assert.equal(await bare.evaluate(() => [...document.querySelectorAll('fieldset')].filter((f) => f.getClientRects().length > 0).length), 0);
    await bare.close();

    // Training controls only, in Chinese: the caption is the author's, not the dictionary's.
    const zh = await open(`${env.server.url}?embed=training&lang=zh&controls=train&caption=${encodeURIComponent('损失与 w')}`, { width: 640, height: 800 });
    view = await embedView(zh);
    assert.deepEqual(view.controls, ['train', 'step', 'converge']);
    assert.deepEqual(view.captions, ['损失与 w']);
    await zh.locator('#step').click();
    assert.equal(await zh.evaluate(() => window.nwPage.debug.settings.trained), 1);
    assert.deepEqual((await embedView(zh)).captions, ['损失与 w']);
    await zh.close();
  });

  test('a wrong option is said inside the embed and told to the host as nw:error, and the rest applies', async () => {
    const page = await open(site.url('lesson-frame.html'), { width: 900, height: 900, waitReady: false });
    const frame = await page.frame('#figure');
    await frame.waitForFunction(() => document.querySelector('#loading[hidden]') !== null && window.nwPage.debug.idle);
    const view = await embedView(frame);
    assert.deepEqual(view.controls, ['w']);
    assert.deepEqual(view.captions, ['Row 2 is query 0.1']);
    const message = 'controls: no control called bogus; use none, or some of query, attend, kernel, estimator, w, lr, epochs, loo, loss, train, scoring, hidden, optimizer, designLr, designEpochs, designTrain';
    assert.equal(view.alert, message);
    await page.waitForFunction(() => window.errors.length > 0);
    assert.deepEqual(await page.evaluate(() => window.errors), [{ setting: 'controls', message }]);
    // A caption longer than 300 characters is cut, and said so.
    const long = await open(`${env.server.url}?embed=landscape&caption=${'a'.repeat(400)}`, { width: 640, height: 800 });
    const longView = await embedView(long);
    assert.equal(longView.captions[0].length, 300);
    assert.equal(longView.alert, 'caption is cut at 300 characters');
    await long.close();
    // A caption is plain text: markup in it is shown, never run.
    const payload = '<img src=x onerror="window.hacked=1"><b>bold</b>';
    const marked = await open(`${env.server.url}?embed=landscape&caption=${encodeURIComponent(payload)}`, { width: 640, height: 800 });
    assert.deepEqual((await embedView(marked)).captions, [payload]);
    assert.deepEqual(await marked.evaluate(() => [window.hacked ?? null, document.querySelectorAll('figcaption img, figcaption b').length]), [null, 0]);
    assert.deepEqual(marked.problems, []);
    await marked.close();
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('<nw-figure controls caption>: the same options as attributes, a wrong one heard as nw-error', async () => {
    const page = await open(site.url('lesson-group.html'), { width: 1000, height: 900, waitReady: false });
    for (const id of ['a', 'b', 'c', 'alone', 'bad']) await figureDrawn(page, id);
    assert.deepEqual((await figureView(page, 'a')).captions, ['The blue line at your w.']);
    assert.deepEqual((await figureView(page, 'a')).controls, ['w']);
    assert.deepEqual((await figureView(page, 'b')).controls, []);
    assert.equal((await figureView(page, 'b')).captions.length, 2, 'no caption attribute: its own captions');
    const bad = await figureView(page, 'bad');
    assert.deepEqual(bad.controls, ['Train', 'Pause', 'Step', 'Reset'], 'w is not a control of the training figure; train is');
    assert.match(bad.alert, /^controls: no control called knobs; use none, or some of /);
    assert.deepEqual(await page.evaluate(() => window.errors.map(({ id, attribute, setting }) => [id, attribute, setting])), [['bad', 'controls', 'controls']]);
    // Changing the attribute rebuilds the figure with the controls named.
    await page.evaluate(() => document.getElementById('bad').setAttribute('controls', 'none'));
    const rebuilt = await figureView(page, 'bad');
    assert.deepEqual(rebuilt.controls, []);
    assert.equal(rebuilt.alert, '');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('group="...": a change in one figure shows in every figure of its group, and only there', async () => {
    const page = await open(site.url('lesson-group.html'), { width: 1000, height: 900, waitReady: false });
    for (const id of ['a', 'b', 'c', 'alone']) await figureDrawn(page, id);
    // The group took the settings of its first figure (w = 2); the others had none of their own but epochs.
    assert.equal((await figureView(page, 'b')).settings.w, 2);
    // The reader moves w in figure a: b's heatmap and c's settings follow; the lone figure does not.
    await page.evaluate(() => {
      const slider = document.getElementById('a').shadowRoot.querySelector('input[type=range]');
      slider.value = '7';
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    });
    for (const id of ['a', 'b', 'c']) assert.equal((await figureView(page, id)).settings.w, 7, id);
    assert.equal((await figureView(page, 'alone')).settings.w, 2);
    assert.match(await page.evaluate(() => document.getElementById('b').shadowRoot.querySelector('.title').textContent), /\(w = 7(\.0+)?\)/);
    const data = nw.generateData({ seed: 1 });
    assert.deepEqual(await page.evaluate(() => window.changes.map(({ id, settings }) => [id, settings.w])), [['a', 7]], 'one nw-change, from the figure the reader used');
    // Training in c: its epochs show in a's parametric line (the chart's fifth dataset, named for its w).
    await page.evaluate(() => [...document.getElementById('c').shadowRoot.querySelectorAll('button')].find((b) => b.textContent === 'Step').click());
    await page.waitForFunction(() => document.getElementById('a').settings.trained === 1);
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 0.5 });
    trainer.step();
    const parametric = await page.evaluate(() => document.getElementById('a').charts[0].data.datasets[4].data.map((p) => p.y));
    const expectedLine = Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: trainer.w }));
    parametric.forEach((y, i) => assert.ok(Math.abs(y - expectedLine[i]) < 1e-9, `parametric line at ${i}`));
    trainer.delete();
    // A figure added later to the group takes the group's settings, not its defaults.
    await addFigure(page, 'late', { figure: 'predictions', group: 'lesson1' });
    const late = (await figureView(page, 'late')).settings;
    assert.deepEqual([late.w, late.trained], [7, 1]);
    // Leaving the group (the attribute removed): changes no longer reach it.
    await page.evaluate(() => document.getElementById('late').removeAttribute('group'));
    await page.evaluate(() => document.getElementById('b').setAttribute('w', '3'));
    assert.equal((await figureView(page, 'a')).settings.w, 3, 'an attribute the lesson sets is shared too');
    assert.equal((await figureView(page, 'late')).settings.w, 7);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('iframes with one data-nw-group share the reader\'s changes through embed.js', async () => {
    const page = await open(site.url('lesson-frames.html'), { width: 900, height: 900, waitReady: false });
    const frames = {};
    for (const id of ['one', 'two', 'three']) {
      frames[id] = await page.frame(`#${id}`);
      await frames[id].waitForFunction(() => document.querySelector('#loading[hidden]') !== null && window.nwPage.debug.idle);
    }
    // The reader sets w in the first frame (a committed change: input, then change).
    await frames.one.evaluate(() => {
      const w = document.getElementById('w');
      w.value = '6';
      w.dispatchEvent(new Event('input', { bubbles: true }));
      w.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await frames.two.waitForFunction(() => window.nwPage.debug.settings.w === 6 && window.nwPage.debug.idle);
    assert.match(await frames.two.evaluate(() => document.getElementById('nonparametricTitleW').textContent), /\(w = 6(\.0+)?\)/);
    assert.equal(await frames.three.evaluate(() => window.nwPage.debug.settings.w), 2);
    // The kernel chosen by the reader in the second frame comes back to the first: one state, both ways.
    await frames.two.evaluate(() => {
      const kernel = document.getElementById('kernel');
      kernel.value = 'epanechnikov';
      kernel.dispatchEvent(new Event('input', { bubbles: true }));
      kernel.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await frames.one.waitForFunction(() => window.nwPage.debug.settings.kernel === 'epanechnikov');
    assert.equal(await frames.one.evaluate(() => window.nwPage.debug.settings.w), 6);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
