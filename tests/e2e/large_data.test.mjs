// Your own data up to 100,000 rows (#31): a CSV read off the page's thread with its progress, the
// Gaussian kernel only above 2000 points, lines from binned sums where exact ones would be slow (and said,
// with their bounds), binned training epochs, and files too long or too large refused with the data kept.
// Every number asserted is the module's, computed here from the same rows.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distDir, inEachBrowser } from './browser.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();

const N = 100_000;
// The rows as the CSV writes them (12 digits: the file stays under 5 MB), in a shuffled order: the page
// sorts them by x.
const generated = nw.generateData({ nTrain: N, seed: 7 });
const rows = Array.from(generated.xTrain, (x, i) => [Number(x.toPrecision(12)), Number(generated.yTrain[i].toPrecision(12))]);
for (let i = rows.length - 1; i > 0; i--) {
  const j = (i * 7919) % (i + 1);
  [rows[i], rows[j]] = [rows[j], rows[i]];
}
const sorted = [...rows].sort((a, b) => a[0] - b[0]);
const xTrain = Float64Array.from(sorted, ([x]) => x);
const yTrain = Float64Array.from(sorted, ([, y]) => y);
const csvFile = (name, lines) => {
  const path = join(tmpdir(), `nw-${process.pid}-${name}.csv`);
  writeFileSync(path, `x,y\n${lines.map(([x, y]) => `${x},${y}`).join('\n')}\n`);
  return path;
};

const chartLine = (page, dataset) => page.evaluate((dataset) => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[dataset].data.map((p) => p.y), dataset);
const bound = (values) => values.reduce((largest, b) => Math.max(largest, b), 0).toPrecision(2);
// A line from binned sums, as the page's heatmaps' passes give it (the predictions do not depend on the blocks).
const binnedLine = (xTest, w) => nw.attentionBlocks(xTest, xTrain, yTrain, { w, approximate: 'auto', maxBlockRows: 1, maxBlockCols: 1 });

async function openMorePanel(page) {
  if ((await page.locator('details.more[open]').count()) === 0) await page.locator('details.more > summary').click();
}

inEachBrowser('your own data at 100,000 rows', (env) => {
  const { test, open } = env;

  test('a 100,000-row CSV is read with a progress bar; its lines, notes and epochs are the module\'s binned ones', async () => {
    const page = await open(`${env.server.url}#nTest=500&kernel=epanechnikov`);
    await openMorePanel(page);
    // The progress bar shows while the file is read, with the worker's progress (recorded as it happens:
    // it is hidden again after).
    await page.evaluate(() => {
      window.progressShown = false;
      window.progressTold = [];
      const bar = document.getElementById('csvProgress');
      new MutationObserver(() => { if (!bar.hidden) window.progressShown = true; }).observe(bar, { attributes: true });
      const { set, get } = Object.getOwnPropertyDescriptor(HTMLProgressElement.prototype, 'value');
      Object.defineProperty(bar, 'value', { get() { return get.call(this); }, set(v) { window.progressTold.push(v); set.call(this, v); } });
    });
    await page.label('CSV file').setFiles(csvFile('large', rows));
    await page.waitForFunction(() => location.hash.includes('data=own'), null, { timeout: 60_000 });
    assert.equal(await page.evaluate(() => window.progressShown), true);
    const told = await page.evaluate(() => window.progressTold);
    assert.ok(told.some((v) => v > 0 && v < 1), `progress told: ${told.join(', ')}`);
    assert.equal(await page.locator('#csvProgress').attribute('hidden'), '');
    assert.match(await page.locator('#dataNote').text(), /Using your 100,000 points/);
    // Above 2000 points the Gaussian kernel with Nadaraya-Watson pooling, and the reader is told why.
    await page.waitForText(/Your 100,000 points are more than 2,000: for them the page uses the Gaussian kernel/);
    assert.equal(await page.label('Kernel').value(), 'gaussian');
    assert.match(await page.evaluate(() => location.hash), /kernel=gaussian/);

    // 500 queries of 100,000 keys are beyond the exact lines' budget: both lines are binned, exactly the
    // module's, and the note gives the largest bound.
    const xTest = nw.testGrid(xTrain[0], xTrain[N - 1], 500);
    const nonparametric = binnedLine(xTest, 1);
    assert.equal(nonparametric.approximate, true);
    await page.waitForFunction(() => !document.getElementById('approximateNote').hidden);
    assert.deepEqual(await chartLine(page, 3), Array.from(nonparametric.predictions));
    const note = await page.locator('#approximateNote').text();
    assert.match(note, new RegExp(`With 100,000 points and 500 test points the lines come from binned sums .*within ±${bound(nonparametric.predictionBounds).replace('.', '\\.')} of the exact one`));
    // (Each bound holds: the exact line at a few queries.)
    const some = [0, 137, 499];
    const exact = nw.predict(some.map((i) => xTest[i]), xTrain, yTrain, { w: 1 });
    some.forEach((q, k) => assert.ok(Math.abs(nonparametric.predictions[q] - exact[k]) <= nonparametric.predictionBounds[q]));

    // The heatmap's blocks are the module's binned ones, and a cell's tooltip gives its weight's bound.
    await page.locator('#nonparametricHeatmap').box(); // (the reader scrolls to it: drawn near the view)
    await page.waitForFunction(() => nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap'))?.$heatmap.blocks.approximate === true);
    const heatmap = await page.evaluate(() => {
      const chart = nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap'));
      const h = chart.$heatmap;
      const cell = h.cellAt(h.blocks.blockRows >> 1, h.blocks.blockCols >> 1);
      const label = chart.options.plugins.tooltip.callbacks.label({ raw: cell });
      return { rows: h.blocks.blockRows, cols: h.blocks.blockCols, approximate: h.blocks.approximate, cell, label };
    });
    assert.equal(heatmap.approximate, true);
    const blocks = nw.attentionBlocks(xTest, xTrain, yTrain, { w: 1, approximate: 'auto', maxBlockRows: heatmap.rows, maxBlockCols: heatmap.cols });
    const k = (heatmap.rows >> 1) * blocks.blockCols + (heatmap.cols >> 1);
    assert.equal(heatmap.cell.v, blocks.weight[k]);
    assert.equal(heatmap.cell.bound, blocks.weightBounds[k]);
    assert.equal(heatmap.label[2], `weight = ${blocks.weight[k].toPrecision(4)} ± ${blocks.weightBounds[k].toPrecision(2)} (binned sums)`);

    // A training step: the binned loss at w0 = 1, and the note says so with the step's bound.
    await page.button('Step').nth(0).click();
    await page.waitForFunction(() => document.getElementById('status').dataset.w !== '1');
    const first = nw.binnedLooLoss(xTrain, yTrain, { w: 1 });
    const w1 = 1 - 0.5 * first.grad;
    assert.equal(Number(await page.locator('#status').attribute('data-w')), w1);
    assert.match(await page.locator('#status').text(), new RegExp(first.loss.toFixed(4)));
    await page.waitForFunction((b) => document.getElementById('approximateNote').textContent.includes(`each loss within ±${b}`), first.lossBound.toPrecision(2));
    // (At lr 0.5 the summed loss of 100,000 points takes w far: the line is close to the nearest values.)
    assert.deepEqual(await chartLine(page, 4), Array.from(binnedLine(xTest, w1).predictions));

    // 50 queries are within the exact budget: exact lines, and the note speaks of the training alone (the
    // epoch trained is trained again on the new test points).
    await page.label('Test points').set('50');
    await page.waitForFunction(() => !document.getElementById('approximateNote').textContent.includes('test points'));
    assert.match(await page.locator('#approximateNote').text(), /^The chart draws one in every 20 of your 100,000 points, evenly along x; the lines use all of them\. Training takes each epoch’s loss and gradient from binned sums: each loss within ±\S+ of the exact one\.$/);
    const xTest50 = nw.testGrid(xTrain[0], xTrain[N - 1], 50);
    const exact50 = nw.predict(xTest50, xTrain, yTrain, { w: 1 });
    (await chartLine(page, 3)).forEach((y, i) => assert.ok(Math.abs(y - exact50[i]) <= 1e-12 * Math.max(1, Math.abs(exact50[i]))));

    // "Design your own attention pooling" does not train on them, says so, and shows no picture of
    // the data before them.
    const designShown = () => page.evaluate(() => getComputedStyle(document.getElementById('designHeatmap').closest('.design-chart')).display !== 'none');
    await page.evaluate(() => document.getElementById('design').scrollIntoView());
    await page.waitForText(/Your attention pooling trains on up to 2,000 training samples; your 100,000 are more/);
    assert.equal(await designShown(), false);

    // Clear my data: the generated data again, and the kernel the reader had chosen comes back with them.
    await page.button('Clear my data').click();
    await page.waitForFunction(() => !location.hash.includes('data=own'));
    assert.equal(await designShown(), true);
    assert.equal(await page.label('Kernel').value(), 'epanechnikov');
    assert.match(await page.evaluate(() => location.hash), /kernel=epanechnikov/);
    assert.equal(await page.locator('#approximateNote').attribute('hidden'), '');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a CSV of more than 100,000 rows or more than 5 MB is refused, naming the line or the limit, and the data stay', async () => {
    const page = await open(env.server.url);
    await openMorePanel(page);
    const small = [[1, 2], [2, 3], [3, 1]];
    await page.label('CSV file').setFiles(csvFile('small', small));
    await page.waitForText(/Using your 3 points/);
    await page.label('CSV file').setFiles(csvFile('too-long', [...rows, [1, 1]]));
    await page.waitForText(/Line 100002: at most 100000 rows/, { timeout: 60_000 });
    assert.match(await page.locator('#dataNote').text(), /Using your 3 points/);
    const huge = join(tmpdir(), `nw-${process.pid}-huge.csv`);
    writeFileSync(huge, '1,2\n'.repeat(1_300_000));
    await page.label('CSV file').setFiles(huge);
    await page.waitForText(/is too large: at most 5 MB/);
    assert.match(await page.locator('#dataNote').text(), /Using your 3 points/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
