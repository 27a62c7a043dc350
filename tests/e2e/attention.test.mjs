// Whose attention the query shows on the predictions chart: the chapter's nonparametric (w as set) until
// w is trained, then the parametric; a hovered heatmap row shows that heatmap's; both heatmaps outline
// the query's row, solid on the one shown. In <nw-figure>, the author's w. Every expectation is the
// module's: attentionWeights at the w that should be shown.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { distDir, inEachBrowser, lessonSite } from './browser.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();
const LEVELS = 6; // charts/predictions_chart.js: the bands of attention

// Each training point's band of attention (0: outside every band), in the order of xTrain, as the module
// says for this query and w: the weight over the largest, in sixths, rounded.
function expectedBands(data, query, w) {
  const weights = nw.attentionWeights([query], data.xTrain, { w }).data;
  const largest = Math.max(...weights);
  return Array.from(weights, (a) => Math.round((a / largest) * LEVELS));
}

// Each training point's band as the predictions chart draws it (dataset 0: outside; then one per band).
// where: 'page', or the id of a <nw-figure figure="predictions">.
const shownBands = (page, where) => page.evaluate((figureId) => {
  const chart = figureId === 'page' ? nwPage.Chart.getChart(document.getElementById('predictionsChart')) : document.getElementById(figureId).charts[0];
  const band = new Map();
  chart.data.datasets.forEach((set, index) => {
    if (!set.trainingPoints) return;
    for (const point of set.trainingPoints) band.set(point.x, index === 0 ? 0 : index - 5);
  });
  return [...band.entries()].sort((a, b) => a[0] - b[0]).map(([, level]) => level);
}, where);

// { row, shown } of each heatmap's outlined query row.
const marks = (page) => page.evaluate(() => Object.fromEntries(['nonparametric', 'parametric'].map((part) => {
  const heatmap = nwPage.Chart.getChart(document.getElementById(`${part}Heatmap`)).$heatmap;
  return [part, { row: heatmap.markedRow, shown: heatmap.queryMark()?.shown ?? null }];
})));

const nearestIndex = (xs, x) => Array.from(xs).reduce((best, v, i) => (Math.abs(v - x) < Math.abs(xs[best] - x) ? i : best), 0);

const site = lessonSite({
  'lesson-w5.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>w = 5</title><link rel="icon" href="data:,"></head><body>
<nw-figure id="figure" figure="predictions" w="5"></nw-figure>
<script src="nw-figure.js"></script>
</body></html>`,
});

inEachBrowser('the attention shown', (env) => {
  const { test, open } = env;

  test('the chapter\'s w until trained, then the learned w; a hovered heatmap row shows that heatmap\'s; the query\'s row is outlined', async () => {
    const page = await open(env.server.url, { height: 3000 }); // both heatmaps near the view
    await page.waitForFunction(() => nwPage.debug.idle && nwPage.debug.figure('parametric').drawnFor !== null);
    const data = nw.generateData({ seed: 1 });
    assert.equal(await page.label('Show attention of').value(), 'auto');
    const w0 = await page.evaluate(() => nwPage.debug.session.learnedW);
    assert.notEqual(w0, 1);
    assert.deepEqual(await shownBands(page, 'page'), expectedBands(data, 2.5, 1), 'before training: the nonparametric w = 1, not w0');
    const row = nearestIndex(data.xTest, 2.5);
    assert.deepEqual(await marks(page), { nonparametric: { row, shown: true }, parametric: { row, shown: false } });

    await page.button('Train').click();
    await page.waitForFunction(() => !nwPage.debug.busy && nwPage.debug.session.epoch === 5);
    const learned = await page.evaluate(() => nwPage.debug.session.learnedW);
    assert.deepEqual(await shownBands(page, 'page'), expectedBands(data, 2.5, learned), 'after training: the learned w');
    assert.deepEqual(await marks(page), { nonparametric: { row, shown: false }, parametric: { row, shown: true } });

    // The reader hovers a row of the nonparametric heatmap: its query and its attention are shown.
    const box = await page.locator('#nonparametricHeatmap').box();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.3);
    await page.waitForFunction(() => nwPage.debug.settings.attend === 'nonparametric' && !nwPage.debug.busy);
    const query = (await page.evaluate(() => nwPage.debug.settings)).query;
    assert.ok(query > 0.5 && query < 2.5, `the hovered row's query (${query})`);
    assert.deepEqual(await shownBands(page, 'page'), expectedBands(data, query, 1), 'the hovered heatmap\'s attention');
    const hoveredRow = nearestIndex(data.xTest, query);
    assert.deepEqual(await marks(page), { nonparametric: { row: hoveredRow, shown: true }, parametric: { row: hoveredRow, shown: false } });
    assert.equal(await page.label('Show attention of').value(), 'nonparametric');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the attention\'s large dots shrink where points crowd (500 on a phone) and keep the chapter\'s size at 50 on a laptop', async () => {
    const largest = (page) => page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).$largestDotRadius);
    const laptop = await open(env.server.url, { width: 1280, height: 800 });
    assert.equal(await largest(laptop), 12);
    await laptop.close();
    const phone = await open(`${env.server.url}#nTrain=500`, { width: 375, height: 812 });
    const radius = await largest(phone);
    // 500 points over about 300 px: one every 0.6 px; a 12 px dot hid whole stretches of the lines.
    assert.ok(radius <= 6, `largest dot radius ${radius}: half the chapter's 12 at most`);
    assert.deepEqual(phone.problems, []);
    await phone.close();
  });

  test('<nw-figure figure="predictions" w="5">: the dots show the attention at the author\'s w', async () => {
    const page = await open(site.url('lesson-w5.html'), { waitReady: false });
    await page.waitForFunction(() => document.getElementById('figure').charts?.[0]?.data.datasets.some((set) => set.trainingPoints?.length > 0) || null);
    const data = nw.generateData({ seed: 1 });
    assert.deepEqual(await shownBands(page, 'figure'), expectedBands(data, 2.5, 5));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
