// Dragging "Distance scale w": the preview (the nonparametric line and the full heatmap) is computed in a
// Worker where the page can start one and on the page's thread where it cannot or when the worker fails;
// either way it shows the exact predictions, and the full view returns when the drag pauses.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distDir, fileUrl, inEachBrowser, serveDir } from './browser.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();
const HASH = '#nTrain=300&nTest=200&seed=4&w=1';
const data = nw.generateData({ nTrain: 300, nTest: 200, seed: 4 });
// Where each browser computes the preview from file://: Chromium and WebKit refuse workers there;
// Firefox starts heatmap_worker.js beside the page.
const fileWhere = { chromium: 'page', firefox: 'worker', webkit: 'page' };

// A copy of dist/ whose worker throws as it loads, served for the "broken worker" tests.
let broken;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nw-broken-worker-'));
  cpSync(distDir, dir, { recursive: true });
  writeFileSync(join(dir, 'heatmap_worker.js'), 'throw new Error("broken worker");\n');
  broken = { dir, server: await serveDir(dir) };
});
after(async () => {
  await broken?.server.close();
  if (broken) rmSync(broken.dir, { recursive: true, force: true });
});

// Drags w to `w` (an input event every 20 ms, as a hand would) until one preview is drawn, then reads
// at once what the preview shows: no full render can have happened, since the drag has not paused.
function dragUntilPreview(page, w) {
  return page.evaluate(async (value) => {
    performance.clearMeasures();
    const slider = document.getElementById('w');
    for (let i = 0; i < 250 && performance.getEntriesByName('nw:drag-update').length === 0; i++) {
      slider.value = String(value);
      slider.dispatchEvent(new Event('input'));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const chart = nwPage.Chart.getChart(document.getElementById('predictionsChart'));
    const heatmap = nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap')).$heatmap;
    return {
      drawn: performance.getEntriesByName('nw:drag-update').length,
      generation: nwPage.debug.renders,
      line: chart.data.datasets[3].data.map((p) => p.y),
      heatmap: { rows: heatmap.blocks.blockRows, cols: heatmap.blocks.blockCols, firstRow: Array.from(heatmap.blocks.weight.subarray(0, heatmap.blocks.blockCols)) },
      note: document.getElementById('nonparametricNote').textContent,
      title: document.getElementById('nonparametricTitleW').textContent,
    };
  }, w);
}

// Where the page computes drag previews now: 'worker' or 'page'.
const previewsFrom = (page) => page.evaluate(() => nwPage.debug.heatmapsOn);

async function checkDrag(page) {
  const whereBefore = await previewsFrom(page);
  const preview = await dragUntilPreview(page, 2.5);
  const alwaysWorker = whereBefore === 'worker' && await previewsFrom(page) === 'worker';
  assert.ok(preview.drawn > 0, 'a preview was drawn while dragging');
  assert.deepEqual(preview.line, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2.5 })));
  // A worker's heatmap is at full resolution while dragging: every one of the 200 x 300 weights, no
  // blocks. The page's own thread computes at most 100 x 100 blocks meanwhile.
  const firstRow = Array.from(nw.attentionWeights([data.xTest[0]], data.xTrain, { w: 2.5 }).data);
  // (A worker given up during the drag leaves either kind of preview first.)
  if (alwaysWorker || preview.heatmap.rows === 200) {
    assert.deepEqual(preview.heatmap, { rows: 200, cols: 300, firstRow });
    assert.equal(preview.note, '');
  } else {
    const coarse = nw.attentionBlocks(data.xTest, data.xTrain, null, { w: 2.5, maxBlockRows: 100, maxBlockCols: 100 });
    assert.deepEqual(preview.heatmap, { rows: coarse.blockRows, cols: coarse.blockCols, firstRow: Array.from(coarse.weight.subarray(0, coarse.blockCols)) });
    assert.match(preview.note, /200 × 300 weights shown as 100 × 100 blocks of 2 × 3/);
  }
  assert.equal(preview.title, '(w = 2.50)');
  // After the pause the full view returns, the heatmap still w = 2.5's, and no late preview replaces it.
  await page.waitForFunction((generation) => nwPage.debug.renders > generation, preview.generation);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const settled = await page.evaluate(() => Array.from(nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap')).$heatmap.blocks.weight.subarray(0, 300)));
  assert.deepEqual(settled, firstRow);
}

inEachBrowser('dragging w', (env) => {
  const { kind, test, open } = env;
  test('over http the drag preview comes from a worker and shows the exact predictions', async () => {
    const asked = env.server.requested.get('/heatmap_worker.js') ?? 0;
    const page = await open(env.server.url + HASH);
    assert.equal(await previewsFrom(page), 'worker', 'the page started its worker');
    await checkDrag(page);
    // The worker was never given up, so it computed every preview of the drag.
    assert.equal(await previewsFrom(page), 'worker');
    assert.equal(env.server.requested.get('/heatmap_worker.js'), asked + 1, 'heatmap_worker.js was loaded once');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test(`from file:// the preview is computed by the ${fileWhere[kind.key]} and shows the exact predictions`, async () => {
    const page = await open(fileUrl + HASH);
    assert.equal(await previewsFrom(page), fileWhere[kind.key]);
    await checkDrag(page);
    assert.equal(await previewsFrom(page), fileWhere[kind.key]);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  // An arrow key fires input and change in one task: the change's full render draws the new w, so a
  // preview computed for the input would be thrown away (at 2000 samples it made that task 50 to 70 ms).
  test('an arrow key on w from file:// draws the new w once, by the full render, with no drag preview', async () => {
    const page = await open(fileUrl + HASH);
    const generation = await page.evaluate(() => {
      performance.clearMeasures();
      document.getElementById('w').focus();
      return nwPage.debug.renders;
    });
    await page.raw.keyboard.press('ArrowRight');
    await page.ready();
    await new Promise((resolve) => setTimeout(resolve, 200)); // a late preview would be drawn by now
    const after = await page.evaluate(() => ({
      previews: performance.getEntriesByName('nw:drag-update').length,
      generation: nwPage.debug.renders,
      title: document.getElementById('nonparametricTitleW').textContent,
      firstRow: Array.from(nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap')).$heatmap.blocks.weight.subarray(0, 300)),
    }));
    assert.equal(after.previews, 0, 'no drag preview was drawn');
    assert.equal(after.generation, generation + 1, 'one full render');
    assert.equal(after.title, '(w = 1.05)');
    assert.deepEqual(after.firstRow, Array.from(nw.attentionWeights([data.xTest[0]], data.xTrain, { w: 1.05 }).data));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  // The path of a drag runs one way: the controller never writes into the slider being moved, and a w
  // released after the paused drag's render drew it is not rendered again.
  test('a drag held still, then released, renders once; the page never writes the slider being dragged', async () => {
    const page = await open(env.server.url + HASH);
    const result = await page.evaluate(async () => {
      const slider = document.getElementById('w');
      const writes = [];
      const { set } = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
      Object.defineProperty(slider, 'value', { configurable: true, get: Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').get, set(v) { writes.push(v); set.call(this, v); } });
      const start = nwPage.debug.renders;
      for (const value of ['1.5', '2', '2.5']) {
        set.call(slider, value);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 400)); // held still: the paused drag's render
      const afterPause = nwPage.debug.renders - start;
      slider.dispatchEvent(new Event('change', { bubbles: true })); // released
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { afterPause, afterRelease: nwPage.debug.renders - start, writes, w: nwPage.debug.settings.w, hash: location.hash };
    });
    assert.equal(result.afterPause, 1, 'the pause renders once');
    assert.equal(result.afterRelease, 1, 'the release renders no more');
    assert.deepEqual(result.writes, [], 'nothing wrote the slider during the drag');
    assert.equal(result.w, 2.5);
    assert.match(result.hash, /[#&]w=2\.5(&|$)/, 'the release writes the URL');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a drag in ?embed=predictions creates no chart for the hidden heatmap and still draws the exact line', async () => {
    const page = await open(`${env.server.url}?embed=predictions${HASH}`);
    const line = await page.evaluate(async () => {
      performance.clearMeasures();
      const slider = document.getElementById('w');
      for (let i = 0; i < 250 && performance.getEntriesByName('nw:drag-update').length === 0; i++) {
        slider.value = '2.5';
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[3].data.map((p) => p.y);
    });
    assert.deepEqual(line, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2.5 })));
    await page.ready();
    assert.equal(await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap')) === undefined), true, 'no heatmap chart was created');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a worker that cannot load is replaced by the page thread without losing the drag', async () => {
    const asked = broken.server.requested.get('/heatmap_worker.js') ?? 0;
    const page = await open(broken.server.url + HASH);
    await checkDrag(page);
    assert.equal(broken.server.requested.get('/heatmap_worker.js'), asked + 1, 'the page asked for the worker and got the broken one');
    assert.equal(await previewsFrom(page), 'page', 'the broken worker was given up');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
