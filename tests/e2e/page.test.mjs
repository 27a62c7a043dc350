// The page in real headless Chromium, served over http and opened from file://.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { distDir, fileUrl, openPage, screenshot, useBrowserAndServer } from './browser.mjs';

const createNW = createRequire(import.meta.url)(`${distDir}nw.js`);
const nw = await createNW();

const controlNames = ['Training samples', 'Test points', 'Noise', 'Seed', 'Kernel', 'Bandwidth w', 'Learning rate', 'Epochs', 'Query x', 'Show attention of'];

// Canvas id -> { drawn: non-transparent pixels, coloured: pixels that are not white or grey (data,
// not axes or text) }.
async function canvasPixels(page) {
  return page.evaluate(() => {
    const counts = {};
    for (const canvas of document.querySelectorAll('canvas')) {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      const count = { drawn: 0, coloured: 0 };
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
        if (a > 0) count.drawn++;
        if (a > 0 && Math.max(r, g, b) - Math.min(r, g, b) > 40) count.coloured++;
      }
      counts[canvas.id] = count;
    }
    return counts;
  });
}

async function controlValues(page) {
  const values = {};
  for (const name of controlNames) values[name] = await page.getByLabel(name, { exact: true }).inputValue();
  return values;
}

async function setControl(page, name, value) {
  const control = page.getByLabel(name, { exact: true });
  if ((await control.getAttribute('type')) === 'range') {
    await control.evaluate((element, v) => {
      element.value = v;
      element.dispatchEvent(new Event('input'));
      element.dispatchEvent(new Event('change'));
    }, String(value));
  } else {
    await control.fill(String(value));
    await control.press('Enter');
    await control.dispatchEvent('change');
  }
}

const epochLosses = (page) => page.$$eval('#epochTable tbody tr', (rows) => rows.map((r) => Number(r.cells[1].textContent)));

const shared = useBrowserAndServer();

for (const mode of ['http', 'file']) {
  describe(`the page over ${mode}`, () => {
    const url = () => (mode === 'http' ? shared.server.url : fileUrl);

    test('loads with a clean console, no failed or outside request, and draws every chart', async () => {
      const { page, context, problems } = await openPage(shared.browser, url());
      await page.waitForTimeout(200);
      const pixels = await canvasPixels(page);
      for (const id of ['predictionsChart', 'nonparametricHeatmap', 'parametricHeatmap', 'nonparametricLegend', 'parametricLegend']) {
        assert.ok(pixels[id].coloured > 1000, `${id} has drawn its data (${pixels[id].coloured} coloured pixels)`);
      }
      assert.ok(pixels.wChart.coloured > 10, 'the w chart shows w0');
      assert.ok(pixels.lossChart.drawn > 1000, 'the loss chart has its axes before training');
      assert.match(await page.locator('#mse tbody').innerText(), /Average pooling[\s\S]*Nonparametric[\s\S]*Parametric/);
      await screenshot(page, `page-${mode}`);
      assert.deepEqual(problems, []);
      await context.close();
    });

    test('Train lowers the loss every epoch and shows the w of the module\'s Trainer', async () => {
      const { page, context, problems } = await openPage(shared.browser, url());
      await page.getByRole('button', { name: 'Train', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Epoch 5'));
      const losses = await epochLosses(page);
      assert.equal(losses.length, 5);
      for (let i = 1; i < losses.length; i++) assert.ok(losses[i] < losses[i - 1], `epoch ${i + 1} loss ${losses[i]} < ${losses[i - 1]}`);

      const data = nw.generateData({ nTrain: 50, nTest: 50, noiseSd: 0.5, seed: 1 });
      const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 0.5 });
      const expectedLosses = losses.map(() => trainer.step());
      const shownW = Number(await page.locator('#status').getAttribute('data-w'));
      assert.equal(shownW, trainer.w);
      assert.match(await page.locator('#status').innerText(), new RegExp(`w = ${trainer.w.toFixed(2)}$`));
      losses.forEach((loss, i) => assert.equal(loss.toFixed(6), expectedLosses[i].toFixed(6)));
      trainer.delete();
      assert.match(page.url(), /trained=5/);
      const pixels = await canvasPixels(page);
      assert.ok(pixels.lossChart.coloured > 100, 'the loss chart has points');
      await screenshot(page, `trained-${mode}`);
      assert.deepEqual(problems, []);
      await context.close();
    });

    test('changing Seed changes the data and the URL, and Back restores it', async () => {
      const { page, context, problems } = await openPage(shared.browser, url());
      const before = await page.locator('#mse tbody').innerText();
      await setControl(page, 'Seed', 7);
      await page.waitForFunction(() => location.hash.includes('seed=7'));
      assert.notEqual(await page.locator('#mse tbody').innerText(), before, 'the test errors change with the data');
      await page.getByRole('button', { name: 'Regenerate' }).click();
      await page.waitForFunction(() => location.hash.includes('seed=8'));
      assert.equal(await page.getByLabel('Seed', { exact: true }).inputValue(), '8');
      await page.goBack();
      await page.waitForFunction(() => document.querySelector('#seed').value === '7');
      assert.deepEqual(problems, []);
      await context.close();
    });

    test('the copied URL restores every control and the trained w', async () => {
      const { page, context, problems } = await openPage(shared.browser, url());
      const settings = {
        'Training samples': '80', 'Test points': '40', Noise: '0.3', Seed: '12', 'Bandwidth w': '3.5',
        'Learning rate': '0.25', Epochs: '3', 'Query x': '1.7',
      };
      for (const [name, value] of Object.entries(settings)) await setControl(page, name, value);
      await page.getByLabel('Show attention of').selectOption('nonparametric');
      await page.getByRole('button', { name: 'Step', exact: true }).click();
      await page.getByRole('button', { name: 'Step', exact: true }).click();
      const status = await page.locator('#status').innerText();
      assert.match(status, /^Epoch 2/);
      const expected = await controlValues(page);
      assert.equal(expected['Show attention of'], 'nonparametric');
      for (const [name, value] of Object.entries(settings)) assert.equal(expected[name], value, name);
      await page.waitForTimeout(400); // the query is written to the URL after a short pause

      await page.reload();
      await page.waitForSelector('#loading[hidden]', { state: 'attached' });
      assert.deepEqual(await controlValues(page), expected, 'a reload keeps every setting');

      const copy = await openPage(shared.browser, page.url());
      assert.deepEqual(await controlValues(copy.page), expected);
      assert.equal(await copy.page.locator('#status').innerText(), status);
      assert.deepEqual(copy.problems, []);
      await copy.context.close();
      assert.deepEqual(problems, []);
      await context.close();
    });

    test('?embed=1 hides the header and keeps figures and controls', async () => {
      const embedUrl = url().replace('index.html', 'index.html?embed=1');
      const { page, context, problems } = await openPage(shared.browser, embedUrl, { width: 900, height: 700 });
      assert.equal(await page.locator('header').isVisible(), false);
      assert.equal(await page.getByLabel('Training samples').isVisible(), true);
      assert.equal(await page.locator('#predictionsChart').isVisible(), true);
      await screenshot(page, `embed-${mode}`);
      assert.deepEqual(problems, []);
      await context.close();
    });
  });
}

test('hovering over the predictions chooses the query and sizes the points by its attention', async () => {
  const { page, context, problems } = await openPage(shared.browser, shared.server.url);
  await page.locator('#predictionsChart').scrollIntoViewIfNeeded();
  const box = await page.locator('#predictionsChart').boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
  await page.waitForFunction(() => document.querySelector('#query').value !== '2.5');
  const query = Number(await page.getByLabel('Query x', { exact: true }).inputValue());
  assert.ok(query > 0.5 && query < 2.5, `query ${query} is where the pointer is`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a heatmap is redrawn only when what it shows changes: not for a new query, yes for w or training', async () => {
  const { page, context, problems } = await openPage(shared.browser, `${shared.server.url}#nTrain=400&nTest=400`);
  const heatmaps = ['nonparametricHeatmap', 'parametricHeatmap', 'kernel-gaussian-heatmap'];
  // Marks each heatmap's current cells; later reports which heatmaps have new cells (were redrawn).
  const mark = () => page.evaluate((ids) => { window.marked = ids.map((id) => nwPage.Chart.getChart(document.getElementById(id)).data.datasets[0].data); }, heatmaps);
  const redrawn = () => page.evaluate((ids) => ids.filter((id, i) => nwPage.Chart.getChart(document.getElementById(id)).data.datasets[0].data !== window.marked[i]), heatmaps);
  const queryLine = () => page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[5].data[0].x);

  await mark();
  await page.getByLabel('Query x', { exact: true }).fill('1.25');
  await page.getByLabel('Query x', { exact: true }).dispatchEvent('input');
  await page.waitForFunction(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[5].data[0].x === 1.25);
  assert.equal(await queryLine(), 1.25);
  assert.deepEqual(await redrawn(), [], 'moving the query redraws no heatmap');

  await page.getByLabel('Bandwidth w', { exact: true }).evaluate((slider) => {
    slider.value = '3';
    slider.dispatchEvent(new Event('change'));
  });
  assert.deepEqual(await redrawn(), ['nonparametricHeatmap', 'kernel-gaussian-heatmap'], 'a new w redraws what depends on it');

  await mark();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.waitForFunction(() => location.hash.includes('trained=1'));
  assert.deepEqual(await redrawn(), ['parametricHeatmap'], 'an epoch redraws the parametric heatmap only');
  assert.deepEqual(problems, []);
  await context.close();
});

test('large data is drawn as at most 100 x 100 blocks without changing the weights reported', async () => {
  const { page, context, problems } = await openPage(shared.browser, `${shared.server.url}#nTrain=1000&nTest=500`);
  const note = await page.locator('#nonparametricNote').innerText();
  assert.match(note, /500 × 1000 weights shown as 100 × 100 blocks of 5 × 10/);
  assert.deepEqual(problems, []);
  await context.close();
});

// Hovers the centre of a heatmap cell block and returns the tooltip lines Chart.js shows there.
async function heatmapTooltip(page, canvasId, fx, fy) {
  await page.locator(`#${canvasId}`).scrollIntoViewIfNeeded();
  // Away first, so that the lines read below cannot be an earlier hover's.
  await page.mouse.move(0, 0);
  await page.waitForFunction((id) => !(nwPage.Chart.getChart(document.getElementById(id)).tooltip.opacity > 0), canvasId);
  const point = await page.evaluate(({ id, fx, fy }) => {
    const chart = nwPage.Chart.getChart(document.getElementById(id));
    const { left, top, width, height } = chart.chartArea;
    const rect = chart.canvas.getBoundingClientRect();
    return { x: rect.left + left + fx * width, y: rect.top + top + fy * height };
  }, { id: canvasId, fx, fy });
  await page.mouse.move(point.x, point.y);
  return page.waitForFunction((id) => {
    const tooltip = nwPage.Chart.getChart(document.getElementById(id)).tooltip;
    return tooltip.opacity > 0 && tooltip.body?.length ? tooltip.body[0].lines : null;
  }, canvasId).then((handle) => handle.jsonValue());
}

function parseTooltip(lines) {
  const value = (name) => Number(lines.find((l) => l.startsWith(name)).split('=')[1]);
  return { query: value('query x'), key: value('key x'), weight: value('weight') };
}

test('the heatmap tooltip reports query x, key x and the exact weight, also when downsampled', async () => {
  for (const [hash, w] of [['#w=1', 1], ['#nTrain=1000&nTest=500&w=4', 4]]) {
    const { page, context, problems } = await openPage(shared.browser, `${shared.server.url}${hash}`);
    const shown = parseTooltip(await heatmapTooltip(page, 'nonparametricHeatmap', 0.43, 0.41));
    const spec = hash.includes('nTrain=1000') ? { nTrain: 1000, nTest: 500 } : {};
    const data = nw.generateData({ ...spec, seed: 1 });
    const row = data.xTest.findIndex((x) => x.toFixed(3) === shown.query.toFixed(3));
    const col = data.xTrain.findIndex((x) => x.toFixed(3) === shown.key.toFixed(3));
    assert.ok(row >= 0 && col >= 0, `the tooltip names a real query (${shown.query}) and key (${shown.key})`);
    const exact = nw.attentionWeights([data.xTest[row]], data.xTrain, { w }).data[col];
    assert.equal(shown.weight, Number(exact.toPrecision(4)), `weight at (${row}, ${col})`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the heatmap tooltip says when a query has no key within a compact kernel\'s support', async () => {
  const data = nw.generateData({ seed: 1 });
  const { fallbackRows } = nw.attentionWeights(data.xTest, data.xTrain, { w: 30, kernel: 'boxcar' });
  const row = fallbackRows.indexOf(1);
  const inside = fallbackRows.indexOf(0);
  assert.ok(row >= 0 && inside >= 0, 'w = 30 leaves some queries with no key within 1/30');
  const { page, context, problems } = await openPage(shared.browser, `${shared.server.url}#kernel=boxcar&w=30`);
  const fallen = await heatmapTooltip(page, 'nonparametricHeatmap', 0.5, (row + 0.5) / 50);
  assert.equal(parseTooltip(fallen).query.toFixed(3), data.xTest[row].toFixed(3));
  assert.ok(fallen.includes('no key within the kernel\'s support: the nearest key takes all'), fallen.join(' | '));
  const normal = await heatmapTooltip(page, 'nonparametricHeatmap', 0.5, (inside + 0.5) / 50);
  assert.ok(!normal.some((line) => line.startsWith('no key')), normal.join(' | '));
  assert.deepEqual(problems, []);
  await context.close();
});
