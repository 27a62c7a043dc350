// Dragging "Bandwidth w": the preview (the nonparametric line and a 16 x 16 heatmap) is computed in a
// Worker over http and on the page's thread from file:// or when the worker fails; either way it shows
// the exact predictions, and the full view returns when the drag pauses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { distDir, fileUrl, openPage, useBrowserAndServer } from './browser.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();
const shared = useBrowserAndServer();
const HASH = '#nTrain=300&nTest=200&seed=4&w=1';
const data = nw.generateData({ nTrain: 300, nTest: 200, seed: 4 });

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
    return {
      drawn: performance.getEntriesByName('nw:drag-update').length,
      line: chart.data.datasets[3].data.map((p) => p.y),
      note: document.getElementById('nonparametricNote').textContent,
      title: document.getElementById('nonparametricTitleW').textContent,
    };
  }, w);
}

async function checkDrag(page) {
  const preview = await dragUntilPreview(page, 2.5);
  assert.ok(preview.drawn > 0, 'a preview was drawn while dragging');
  assert.deepEqual(preview.line, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2.5 })));
  assert.match(preview.note, /200 × 300 weights shown as 16 × 16 blocks of 13 × 19/);
  assert.equal(preview.title, '(w = 2.50)');
  // After the pause the full view returns, and no late preview replaces it.
  await page.waitForFunction(() => /shown as 100 × 100 blocks of 2 × 3/.test(document.getElementById('nonparametricNote').textContent));
  await page.waitForTimeout(300);
  assert.match(await page.locator('#nonparametricNote').innerText(), /shown as 100 × 100 blocks of 2 × 3/);
}

test('over http the drag preview comes from a worker and shows the exact predictions', async () => {
  const { page, context, problems } = await openPage(shared.browser, shared.server.url + HASH);
  if (page.workers().length === 0) await page.waitForEvent('worker');
  assert.deepEqual(page.workers().map((worker) => new URL(worker.url()).pathname.split('/').pop()), ['drag_worker.js']);
  await checkDrag(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('from file:// (no workers) the page computes the drag preview itself', async () => {
  const { page, context, problems } = await openPage(shared.browser, fileUrl + HASH);
  await checkDrag(page);
  assert.deepEqual(page.workers(), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a worker that cannot load is replaced by the page thread without losing the drag', async () => {
  let served = 0;
  const broken = (context) => context.route('**/drag_worker.js', (route) => {
    served += 1;
    return route.fulfill({ contentType: 'text/javascript', body: 'throw new Error("broken worker");' });
  });
  const { page, context, problems } = await openPage(shared.browser, shared.server.url + HASH, { beforeGoto: broken });
  await checkDrag(page);
  assert.equal(served, 1, 'the page asked for the worker and got the broken one');
  assert.deepEqual(page.workers(), [], 'the broken worker was stopped');
  assert.deepEqual(problems, []);
  await context.close();
});
