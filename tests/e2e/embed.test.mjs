// Embedding in a lesson: one figure per embed, sized by the host through nw:resize and dist/embed.js,
// driven by the host (nw:set) and reporting the reader's changes (nw:change), without touching the host's
// history. The host is a small lesson page served beside a copy of dist/.
import assert from 'node:assert/strict';
import { inEachBrowser, lessonSite } from './browser.mjs';

const lesson = (src, width) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,"></head>
<body style="margin: 0">
<p>A paragraph of the lesson before the figure.</p>
<iframe id="figure" src="${src}" title="Attention pooling" style="width: ${width}px; height: 150px; border: 0"></iframe>
<p>And after it.</p>
<script src="embed.js"></script>
<script src="lesson.js"></script>
</body></html>`;

const lessonFiles = {
  // The lesson records what the embed tells it.
  'lesson.js': `window.changes = [];
window.errors = [];
window.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'nw:change') window.changes.push(event.data.settings);
  if (event.data && event.data.type === 'nw:error') window.errors.push({ setting: event.data.setting, message: event.data.message });
});`,
  // Two embeds of one lesson, each with its own data, and one in a sandbox that allows scripts only.
  'lesson-two.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Two figures</title><link rel="icon" href="data:,"></head><body>
<iframe id="a" src="index.html?embed=1&id=a" title="First" style="width: 700px; border: 0"></iframe>
<iframe id="b" src="index.html?embed=1&id=b" title="Second" style="width: 700px; border: 0"></iframe>
<iframe id="sandboxed" sandbox="allow-scripts" src="index.html?embed=1" title="Sandboxed" style="width: 700px; border: 0"></iframe>
<script src="embed.js"></script>
</body></html>`,
  // Two frames of another origin (localhost against the lesson's 127.0.0.1), one in view and one far
  // below it: when the lesson's width changes, both must take the new height.
  'lesson-below.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Below the fold</title><link rel="icon" href="data:,"></head>
<body style="margin: 0; width: 1000px">
<iframe id="inView" title="In view" style="width: 100%; border: 0"></iframe>
<div style="height: 4000px"></div>
<iframe id="below" title="Below the fold" style="width: 100%; border: 0"></iframe>
<script src="embed.js"></script>
<script src="below.js"></script>
</body></html>`,
  'below.js': `const other = location.href.replace('127.0.0.1', 'localhost').replace(/[^/]*$/, 'index.html?embed=kernels');
document.getElementById('inView').src = other;
document.getElementById('below').src = other + '&id=below';`,
};
for (const [name, src, width] of [['lesson-all-400', 'index.html?embed=1', 400], ['lesson-all-700', 'index.html?embed=1', 700],
  ['lesson-all-1000', 'index.html?embed=1', 1000], ['lesson-weights-700', 'index.html?embed=weights#w=2', 700],
  ['lesson-predictions', 'index.html?embed=predictions#w=2', 640]]) {
  lessonFiles[`${name}.html`] = lesson(src, width);
}
const site = lessonSite(lessonFiles);

const lessonUrl = (name) => site.url(`${name}.html`);

// The ids of the canvases a reader can see (legend canvases of the heatmaps left out).
const visibleCanvases = (page) => page.evaluate(() => [...document.querySelectorAll('canvas')]
  .filter((canvas) => canvas.getClientRects().length > 0 && !canvas.classList.contains('legend')).map((canvas) => canvas.id).sort());

// Until the embed is ready inside the lesson's iframe.
const embedReady = (page) => page.waitForFunction(() => {
  const frame = document.getElementById('figure');
  return frame.contentDocument && frame.contentDocument.querySelector('#loading[hidden]') !== null;
});

inEachBrowser('embedding', (env) => {
  const { test, open } = env;
  const expected = {
    predictions: ['predictionsChart'],
    weights: ['nonparametricHeatmap', 'parametricHeatmap'],
    training: ['lossChart', 'wChart'],
    design: ['designChart', 'designHeatmap', 'designLossChart'],
    landscape: ['landscapeChart'],
    kernels: ['kernel-boxcar-heatmap', 'kernel-boxcar-predictions', 'kernel-constant-heatmap', 'kernel-constant-predictions',
      'kernel-epanechnikov-heatmap', 'kernel-epanechnikov-predictions', 'kernel-gaussian-heatmap', 'kernel-gaussian-predictions'],
  };

  test('?embed=<figure> shows exactly that figure, its caption and its controls', async () => {
    for (const [figure, canvases] of Object.entries(expected)) {
      const page = await open(`${env.server.url}?embed=${figure}`, { width: 640, height: 480 });
      assert.deepEqual(await visibleCanvases(page), canvases, figure);
      // The page's header is not seen; its title stays, for screen readers, as the embed's one h1.
      assert.deepEqual(await page.evaluate(() => {
        const box = document.querySelector('header').getBoundingClientRect();
        return [box.width <= 1 && box.height <= 1, document.querySelector('h1').textContent.length > 0, document.querySelector('.lead').getClientRects().length];
      }), [true, true, 0], `${figure}: no page header seen`);
      assert.equal(await page.locator('.step-text').isVisible(), false, `${figure}: no page text`);
      assert.ok(await page.evaluate(() => [...document.querySelectorAll('figcaption')].some((c) => c.getClientRects().length > 0)), `${figure}: its caption`);
      assert.deepEqual(page.problems, [], figure);
      await page.close();
    }
    const controls = await open(`${env.server.url}?embed=weights`, { width: 640, height: 480 });
    assert.equal(await controls.label('Distance scale w').isVisible(), true, 'the weights come with w');
    assert.equal(await controls.button('Train').isVisible(), false, 'and not with training');
    await controls.close();
  });

  test('the example tutorial loads, and both its figures are sized to their content, the sandboxed one too', async () => {
    const page = await open(env.server.url.replace('index.html', 'examples/tutorial.html'), { width: 900, height: 900, waitReady: false });
    // (WebKit refuses the page's own files in the sandboxed frame: it says so instead, see engines.test.mjs.)
    const webkit = env.kind.key === 'webkit';
    const heights = await page.waitForFunction((count) => {
      const sizes = [...document.querySelectorAll('iframe:not([sandbox])' + (count === 2 ? ', iframe[sandbox]' : ''))].map((frame) => frame.getBoundingClientRect().height);
      return sizes.length === count && sizes.every((height) => height > 300) ? sizes : null;
    }, webkit ? 1 : 2);
    assert.equal(heights.length, webkit ? 1 : 2);
    const sandboxed = await page.frame('iframe[sandbox]');
    if (webkit) {
      assert.equal(await sandboxed.waitForFunction(() => document.querySelector('.blocked')?.getClientRects().length > 0), true);
      await page.close();
      return;
    }
    await sandboxed.waitForFunction(() => document.querySelector('#loading[hidden]') !== null);
    assert.deepEqual(await sandboxed.evaluate(() => [...document.querySelectorAll('canvas')].filter((c) => c.getClientRects().length > 0).map((c) => c.id).sort()), ['lossChart', 'wChart']);
    await page.screenshot('tutorial');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('an unknown figure names the valid ones and shows the whole page', async () => {
    const page = await open(`${env.server.url}?embed=heatmap`);
    assert.match(await page.alert().text(), /Unknown figure "heatmap" for embed: use one of predictions, weights, training, design, landscape, kernels, or 1/);
    assert.equal(await page.locator('header').isVisible(), true);
    await page.close();
  });

  test('embed.js sizes the iframe from nw:resize: no inner scrollbar at 400, 700 and 1000 px wide', async () => {
    for (const name of ['lesson-all-400', 'lesson-all-700', 'lesson-all-1000', 'lesson-weights-700']) {
      const page = await open(lessonUrl(name), { width: 1100, height: 800, waitReady: false });
      await embedReady(page);
      const fit = await page.waitForFunction(() => {
        const frame = document.getElementById('figure');
        const inner = frame.contentDocument.documentElement;
        const height = frame.getBoundingClientRect().height;
        return height > 300 && inner.scrollHeight <= inner.clientHeight && Math.abs(height - inner.scrollHeight) <= 1
          ? { height, content: inner.scrollHeight } : null;
      });
      assert.ok(fit.height > 300, `${name}: ${JSON.stringify(fit)}`);
      assert.deepEqual(page.problems, [], name);
      await page.close();
    }
  });

  test('the host sets settings with nw:set (checked like URL values) and hears nw:change; its history stays', async () => {
    const page = await open(lessonUrl('lesson-predictions'), { width: 900, height: 800, waitReady: false });
    await embedReady(page);
    const historyBefore = await page.evaluate(() => history.length);
    await page.evaluate(() => document.getElementById('figure').contentWindow.postMessage({ type: 'nw:set', settings: { w: 5, query: 2 } }, '*'));
    await page.waitForFunction(() => document.getElementById('figure').contentWindow.location.hash.includes('w=5&'));
    const inside = () => page.evaluate(() => {
      const frame = document.getElementById('figure').contentDocument;
      return { w: frame.getElementById('w').value, query: frame.getElementById('query').value, alert: frame.getElementById('message').hidden ? '' : frame.getElementById('message').textContent };
    });
    assert.deepEqual(await inside(), { w: '5', query: '2', alert: '' });
    assert.deepEqual(await page.evaluate(() => window.changes), [], 'the host\'s own change is not echoed');

    await page.evaluate(() => document.getElementById('figure').contentWindow.postMessage({ type: 'nw:set', settings: { w: 'abc' } }, '*'));
    await page.waitForFunction(() => !document.getElementById('figure').contentDocument.getElementById('message').hidden);
    assert.match((await inside()).alert, /Distance scale w must be a number/);
    assert.equal((await inside()).w, '5', 'a bad value changes nothing');
    // The host hears what was refused, by setting.
    await page.waitForFunction(() => window.errors.length >= 1);
    assert.deepEqual(await page.evaluate(() => window.errors), [{ setting: 'w', message: 'Distance scale w must be a number' }]);
    await page.evaluate(() => document.getElementById('figure').contentWindow.postMessage({ type: 'nw:set', settings: { colour: 'red', seed: 2 } }, '*'));
    await page.waitForFunction(() => window.errors.length >= 2);
    assert.equal((await page.evaluate(() => window.errors))[1].setting, 'colour');
    await page.evaluate(() => document.getElementById('figure').contentWindow.postMessage({ type: 'nw:set', settings: 'w=3' }, '*'));
    await page.waitForFunction(() => window.errors.length >= 3);
    assert.equal((await page.evaluate(() => window.errors))[2].setting, null, 'not settings at all');
    await page.evaluate(() => document.getElementById('figure').contentWindow.postMessage({ type: 'nw:set', settings: { w: 5 } }, '*'));

    // Five edits by the reader inside the embed.
    for (const w of [1, 2, 3, 4, 6]) {
      await page.evaluate((value) => {
        const slider = document.getElementById('figure').contentDocument.getElementById('w');
        slider.value = String(value);
        slider.dispatchEvent(new Event('change'));
      }, w);
    }
    await page.waitForFunction(() => window.changes.length >= 5);
    assert.deepEqual((await page.evaluate(() => window.changes)).map((settings) => settings.w), [1, 2, 3, 4, 6]);
    assert.equal(await page.evaluate(() => history.length), historyBefore, 'no entry in the host\'s history');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a hover and a click on the same heatmap row send one nw:change', async () => {
    const page = await open(lessonUrl('lesson-weights-700'), { width: 900, height: 1200, waitReady: false });
    await embedReady(page);
    // Idle, with the heatmap's chart made (it is made when the frame, being sized by the lesson, reports it near).
    await page.waitForFunction(() => {
      const frame = document.getElementById('figure');
      return frame.contentWindow.nwPage.debug.idle && Boolean(frame.contentWindow.nwPage.Chart.getChart(frame.contentDocument.getElementById('nonparametricHeatmap')));
    });
    const point = await page.evaluate(() => {
      const frame = document.getElementById('figure');
      const chart = frame.contentWindow.nwPage.Chart.getChart(frame.contentDocument.getElementById('nonparametricHeatmap'));
      const canvas = chart.canvas.getBoundingClientRect();
      const offset = frame.getBoundingClientRect();
      return { x: offset.left + canvas.left + (chart.chartArea.left + chart.chartArea.right) / 2, y: offset.top + canvas.top + chart.scales.y.getPixelForValue(10) };
    });
    await page.mouse.move(point.x, point.y);
    await page.mouse.click(point.x, point.y);
    await page.waitForFunction(() => window.changes.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 800)); // any later message
    const changes = await page.evaluate(() => window.changes);
    assert.equal(changes.length, 1, JSON.stringify(changes));
    assert.equal(changes[0].query, await page.evaluate(() => document.getElementById('figure').contentWindow.nwPage.debug.session.data.xTest[10]));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('when the lesson\'s width changes, a frame far below the view takes its new height too', async () => {
    const page = await open(lessonUrl('lesson-below'), { width: 1100, height: 800, waitReady: false });
    const heightOf = (id) => page.evaluate((frameId) => document.getElementById(frameId).getBoundingClientRect().height, id);
    await page.waitForFunction(() => ['inView', 'below'].every((id) => document.getElementById(id).getBoundingClientRect().height > 300), null, { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const wide = await heightOf('below');
    // Narrower, the four kernel panels stack: the figure is far taller.
    await page.evaluate(() => { document.body.style.width = '420px'; });
    await page.waitForFunction((before) => document.getElementById('below').getBoundingClientRect().height > 1.5 * before, wide, { timeout: 10_000 });
    const narrow = await heightOf('below');
    // Scrolled to, and drawn: its height was already (nearly) right.
    await page.evaluate(() => document.getElementById('below').scrollIntoView());
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const drawn = await heightOf('below');
    assert.ok(Math.abs(drawn - narrow) < 0.05 * drawn, `${wide} px wide, ${narrow} px narrow before it was scrolled to, ${drawn} px once drawn`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('two embeds keep their own data apart, and a sandboxed embed works and says its data is not stored', async () => {
    const page = await open(lessonUrl('lesson-two'), { width: 1500, height: 900, waitReady: false });
    const frameReady = (id) => page.waitForFunction((frameId) => document.getElementById(frameId).contentDocument?.querySelector('#loading[hidden]') !== null, id);
    await frameReady('a');
    await frameReady('b');
    // The reader pastes data into A.
    await page.evaluate(() => {
      const doc = document.getElementById('a').contentDocument;
      doc.getElementById('csvText').value = 'x,y\n0,1\n1,3\n2,2\n3,5\n';
      doc.getElementById('useCsv').click();
    });
    await page.waitForFunction(() => document.getElementById('a').contentWindow.location.hash.includes('data=own'));
    const note = (id) => page.evaluate((frameId) => document.getElementById(frameId).contentDocument.getElementById('dataNote').textContent, id);
    assert.match(await note('a'), /Using your 4 points \(kept in this browser\)/);
    // B, reloaded with data=own in its address, finds no data of its own.
    await page.evaluate(() => { document.getElementById('b').src = 'index.html?embed=1&id=b#data=own'; });
    await page.waitForFunction(() => /not stored in this browser/.test(document.getElementById('b').contentDocument?.getElementById('message')?.textContent ?? ''));
    assert.doesNotMatch(await note('b'), /Using your/);
    // A, reloaded, still has its own.
    await page.evaluate(() => document.getElementById('a').contentWindow.location.reload());
    await page.waitForFunction(() => /Using your 4 points/.test(document.getElementById('a').contentDocument?.getElementById('dataNote')?.textContent ?? ''));

    // (WebKit refuses the page's own files in the sandboxed frame: it says so instead, see engines.test.mjs.)
    if (env.kind.key === 'webkit') {
      const blocked = await page.frame('#sandboxed');
      assert.equal(await blocked.waitForFunction(() => document.querySelector('.blocked')?.getClientRects().length > 0), true);
      await page.close();
      return;
    }
    // The sandboxed embed (an opaque origin: no storage, no worker) is sized, draws and trains; its
    // data is said to last only while the page is open. Its document cannot be read from here, so it is
    // driven and read through the frame's own target.
    const sandboxed = await page.waitForFunction(() => {
      const frame = document.getElementById('sandboxed');
      return frame.getBoundingClientRect().height > 300 ? frame.getBoundingClientRect().height : null;
    });
    assert.ok(sandboxed > 300, 'sized through nw:resize');
    const frame = await page.frame('#sandboxed');
    await frame.evaluate(() => {
      document.getElementById('csvText').value = 'x,y\n0,1\n1,3\n2,2\n';
      document.getElementById('useCsv').click();
    });
    await frame.waitForFunction(() => /kept only while this page is open/.test(document.getElementById('dataNote').textContent));
    // Its exports cannot be downloads: the text is shown to copy, and the page says why.
    const exported = await frame.evaluate(() => {
      document.getElementById('exportData').click();
      return { note: document.getElementById('exportFallbackNote').textContent, text: document.getElementById('exportFallbackText').value };
    });
    assert.match(exported.note, /embedded in a sandbox that may not download files: select the text of nadaraya-watson-data\.csv/);
    assert.equal(exported.text, 'x,y\n0,1\n1,3\n2,2\n');
    const image = await frame.evaluate(() => {
      document.getElementById('exportPng').click();
      return document.getElementById('exportFallbackImage').src.slice(0, 22);
    });
    assert.equal(image, 'data:image/png;base64,');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
