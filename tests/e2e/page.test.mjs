// The page in headless Chromium and Firefox ESR, served over http and opened from file://.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { heatRgb } from '../../web/src/charts/colors.js';
import { distDir, fileUrl, inEachBrowser } from './browser.mjs';

const createNW = createRequire(import.meta.url)(`${distDir}nw.js`);
const nw = await createNW();

const controlNames = ['Training samples', 'Test points', 'Noise', 'Seed', 'Kernel', 'Distance scale w', 'Learning rate', 'Epochs', 'Query x', 'Show attention of'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

// Scrolls to each canvas in turn, as a reader would, and waits until it has drawn something: every
// figure below the first screen is drawn only once it comes near the view.
async function scrollThrough(page, ids) {
  for (const id of ids) {
    await page.evaluate((canvasId) => document.getElementById(canvasId).scrollIntoView({ block: 'center' }), id);
    await page.waitForFunction((canvasId) => {
      // Read through a copy: repeated reads of the page's own canvas make Chromium warn on the console.
      const canvas = document.getElementById(canvasId);
      const copy = document.createElement('canvas');
      [copy.width, copy.height] = [canvas.width, canvas.height];
      copy.getContext('2d').drawImage(canvas, 0, 0);
      const { data } = copy.getContext('2d').getImageData(0, 0, copy.width, copy.height);
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
      return false;
    }, id);
  }
}

async function controlValues(page) {
  const values = {};
  for (const name of controlNames) values[name] = await page.label(name).value();
  return values;
}

const epochLosses = (page) => page.evaluate(() => Array.from(document.querySelectorAll('#epochTable tbody tr'), (r) => Number(r.cells[1].textContent)));

// Hovers the centre of a heatmap cell block and returns the tooltip lines Chart.js shows there.
async function heatmapTooltip(page, canvasId, fx, fy) {
  await page.locator(`#${canvasId}`).box();
  await page.waitForFunction((id) => nwPage.Chart.getChart(document.getElementById(id))?.$heatmap.cellCount > 0, canvasId);
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
  }, canvasId);
}

function parseTooltip(lines) {
  const value = (name) => Number(lines.find((l) => l.startsWith(name)).split('=')[1]);
  return { query: value('query x'), key: value('key x'), weight: value('weight') };
}

inEachBrowser('the page', (env) => {
  const { test, open } = env;
  for (const mode of ['http', 'file']) {
    describe(`${env.name}: the page over ${mode}`, () => {
      const url = () => (mode === 'http' ? env.server.url : fileUrl);

      test(`(${mode}) loads with a clean console, no failed or outside request, and draws every chart`, async () => {
        const page = await open(url());
        await scrollThrough(page, ['nonparametricHeatmap', 'lossChart', 'wChart', 'parametricHeatmap']);
        await sleep(200);
        const pixels = await canvasPixels(page);
        for (const id of ['predictionsChart', 'nonparametricHeatmap', 'parametricHeatmap', 'nonparametricLegend', 'parametricLegend']) {
          assert.ok(pixels[id].coloured > 1000, `${id} has drawn its data (${pixels[id].coloured} coloured pixels)`);
        }
        assert.ok(pixels.wChart.coloured > 10, 'the w chart shows w0');
        assert.ok(pixels.lossChart.drawn > 1000, 'the loss chart has its axes before training');
        assert.match(await page.locator('#mse tbody').text(), /Average pooling[\s\S]*Nonparametric[\s\S]*Parametric/);
        await page.screenshot(`page-${mode}`);
        assert.deepEqual(page.problems, []);
        await page.close();
      });

      test(`(${mode}) Train lowers the loss every epoch and shows the w of the module's Trainer`, async () => {
        const page = await open(url());
        await page.button('Train').click();
        await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Epoch 5'));
        const losses = await epochLosses(page);
        assert.equal(losses.length, 5);
        for (let i = 1; i < losses.length; i++) assert.ok(losses[i] < losses[i - 1], `epoch ${i + 1} loss ${losses[i]} < ${losses[i - 1]}`);

        const data = nw.generateData({ nTrain: 50, nTest: 50, noiseSd: 0.5, seed: 1 });
        const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 0.5 });
        const expectedLosses = losses.map(() => trainer.step());
        const shownW = Number(await page.locator('#status').attribute('data-w'));
        assert.equal(shownW, trainer.w);
        assert.match(await page.locator('#status').text(), new RegExp(`w = ${trainer.w.toFixed(2)}$`));
        losses.forEach((loss, i) => assert.equal(loss.toFixed(6), expectedLosses[i].toFixed(6)));
        trainer.delete();
        assert.match(await page.url(), /trained=5/);
        await scrollThrough(page, ['lossChart']);
        const pixels = await canvasPixels(page);
        assert.ok(pixels.lossChart.coloured > 100, 'the loss chart has points');
        await page.screenshot(`trained-${mode}`);
        assert.deepEqual(page.problems, []);
        await page.close();
      });

      test(`(${mode}) changing Seed changes the data and the URL, and Back restores it`, async () => {
        const page = await open(url());
        const before = await page.locator('#mse tbody').text();
        await page.label('Seed').set(7);
        await page.waitForFunction(() => location.hash.includes('seed=7'));
        assert.notEqual(await page.locator('#mse tbody').text(), before, 'the test errors change with the data');
        await page.button('Regenerate').click();
        await page.waitForFunction(() => location.hash.includes('seed=8'));
        assert.equal(await page.label('Seed').value(), '8');
        await page.goBack();
        await page.waitForFunction(() => document.querySelector('#seed').value === '7');
        assert.deepEqual(page.problems, []);
        await page.close();
      });

      test(`(${mode}) the copied URL restores every control and the trained w`, async () => {
        const page = await open(url());
        const settings = {
          'Training samples': '80', 'Test points': '40', Noise: '0.3', Seed: '12', 'Distance scale w': '3.5',
          'Learning rate': '0.25', Epochs: '3', 'Query x': '1.7',
        };
        for (const [name, value] of Object.entries(settings)) await page.label(name).set(value);
        await page.label('Show attention of').select('nonparametric');
        await page.button('Step').click();
        await page.button('Step').click();
        const status = await page.locator('#status').text();
        assert.match(status, /^Epoch 2/);
        const expected = await controlValues(page);
        assert.equal(expected['Show attention of'], 'nonparametric');
        for (const [name, value] of Object.entries(settings)) assert.equal(expected[name], value, name);
        await sleep(400); // the query is written to the URL after a short pause

        await page.reload();
        assert.deepEqual(await controlValues(page), expected, 'a reload keeps every setting');

        const copy = await open(await page.url());
        assert.deepEqual(await controlValues(copy), expected);
        assert.equal(await copy.locator('#status').text(), status);
        assert.deepEqual(copy.problems, []);
        await copy.close();
        assert.deepEqual(page.problems, []);
        await page.close();
      });

      test(`(${mode}) ?embed=1 hides the header and keeps figures and controls`, async () => {
        const embedUrl = url().replace('index.html', 'index.html?embed=1');
        const page = await open(embedUrl, { width: 900, height: 700 });
        // The header is not seen (its title stays, 1 px, as the embed's h1 for screen readers).
        assert.deepEqual(await page.evaluate(() => {
          const box = document.querySelector('header').getBoundingClientRect();
          return [box.width <= 1 && box.height <= 1, document.querySelector('.lead').getClientRects().length];
        }), [true, 0]);
        assert.equal(await page.label('Training samples').isVisible(), true);
        assert.equal(await page.locator('#predictionsChart').isVisible(), true);
        await page.screenshot(`embed-${mode}`);
        assert.deepEqual(page.problems, []);
        await page.close();
      });
    });
  }

  test('a page that fails to start after the module has (here: no IntersectionObserver) says the page failed, not the module', async () => {
    const page = await env.browser.newPage();
    await page.beforeScripts('delete window.IntersectionObserver;');
    await page.goto(env.server.url, { waitReady: false });
    await page.waitForFunction(() => /could not start/.test(document.getElementById('loading').textContent));
    assert.match(await page.locator('#loading').text(), /^The page could not start: \S/);
    assert.ok(page.problems.length > 0, 'the error also reaches the console');
    await page.close();
  });

  test('the load marks the module ready, then the first chart drawn (npm run bench compares the two)', async () => {
    const page = await open(env.server.url);
    const marks = await page.evaluate(() => Object.fromEntries(['nw:module-ready', 'nw:first-render']
      .map((name) => [name, performance.getEntriesByName(name, 'mark').map((mark) => mark.startTime)])));
    assert.equal(marks['nw:module-ready'].length, 1);
    assert.equal(marks['nw:first-render'].length, 1);
    assert.ok(marks['nw:module-ready'][0] > 0 && marks['nw:module-ready'][0] <= marks['nw:first-render'][0], JSON.stringify(marks));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('hovering over the predictions chooses the query and sizes the points by its attention', async () => {
    const page = await open(env.server.url);
    const box = await page.locator('#predictionsChart').box();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await page.waitForFunction(() => document.querySelector('#query').value !== '2.5');
    const query = Number(await page.label('Query x').value());
    assert.ok(query > 0.5 && query < 2.5, `query ${query} is where the pointer is`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a heatmap is redrawn only when what it shows changes: not for a new query, yes for w or training', async () => {
    // Tall enough for every figure to be near the view (those far down are drawn only there).
    const page = await open(`${env.server.url}#nTrain=400&nTest=400`, { height: 4000 });
    const heatmaps = ['nonparametricHeatmap', 'parametricHeatmap', 'kernel-gaussian-heatmap'];
    // Marks each heatmap's current blocks; later reports which heatmaps have new blocks (were redrawn).
    const mark = () => page.evaluate((ids) => { window.marked = ids.map((id) => nwPage.Chart.getChart(document.getElementById(id)).$heatmap.blocks); }, heatmaps);
    const redrawn = () => page.evaluate((ids) => ids.filter((id, i) => nwPage.Chart.getChart(document.getElementById(id)).$heatmap.blocks !== window.marked[i]), heatmaps);
    const queryLine = () => page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[5].data[0].x);

    // The figures near the view are created once the browser has reported them near (after the first render).
    await page.waitForFunction((ids) => ids.every((id) => nwPage.Chart.getChart(document.getElementById(id))?.$heatmap.cellCount > 0 && nwPage.debug.idle), heatmaps);
    await mark();
    await page.label('Query x').set('1.25', ['input']);
    await page.waitForFunction(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[5].data[0].x === 1.25);
    assert.equal(await queryLine(), 1.25);
    assert.deepEqual(await redrawn(), [], 'moving the query redraws no heatmap');

    await page.label('Distance scale w').set('3', ['change']);
    assert.deepEqual(await redrawn(), ['nonparametricHeatmap', 'kernel-gaussian-heatmap'], 'a new w redraws what depends on it');

    await mark();
    await page.button('Step').click();
    await page.waitForFunction(() => location.hash.includes('trained=1'));
    assert.deepEqual(await redrawn(), ['parametricHeatmap'], 'an epoch redraws the parametric heatmap only');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('large data is drawn one block per device pixel at most, with the module\'s own block weights', async () => {
    const page = await open(`${env.server.url}#nTrain=1000&nTest=500`);
    await page.locator('#nonparametricHeatmap').box(); // drawn (and its note written) near the view
    await page.waitForFunction(() => document.getElementById('nonparametricNote').textContent !== '');
    const shown = await page.evaluate(() => {
      const heatmap = nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap')).$heatmap;
      const { blockRows, blockCols, rowStep, colStep, weight } = heatmap.blocks;
      return { capacity: heatmap.capacity(), blockRows, blockCols, rowStep, colStep, weight: Array.from(weight) };
    });
    const { rows, cols } = shown.capacity;
    assert.ok(shown.blockRows <= rows && shown.blockCols <= cols, `${shown.blockRows} x ${shown.blockCols} blocks in ${rows} x ${cols} device pixels`);
    assert.ok(shown.blockRows > 100 && shown.blockCols > 100, 'finer than the old 100 x 100 cap');
    const data = nw.generateData({ nTrain: 1000, nTest: 500, seed: 1 });
    const expected = nw.attentionBlocks(data.xTest, data.xTrain, null, { w: 1, maxBlockRows: rows, maxBlockCols: cols });
    assert.deepEqual([shown.blockRows, shown.blockCols, shown.rowStep, shown.colStep], [expected.blockRows, expected.blockCols, expected.rowStep, expected.colStep]);
    assert.deepEqual(shown.weight, Array.from(expected.weight));
    assert.equal(await page.locator('#nonparametricNote').text(), `500 × 1000 weights shown as ${expected.blockRows} × ${expected.blockCols} blocks of `
      + `${expected.rowStep} × ${expected.colStep} (one per pixel); each block shows its largest weight.`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the training points outside the attention bands keep one opaque colour at any size (each point stays visible: see theme.test.mjs), apart from the attended ones', async () => {
    const coloursAt = async (hash) => {
      const page = await open(`${env.server.url}${hash}`);
      const colours = await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets
        .filter((set) => set.trainingPoints).map((set) => set.backgroundColor));
      assert.deepEqual(page.problems, []);
      await page.close();
      return colours;
    };
    // (The page opens with a query: the first set is the points outside its attention bands.)
    const chapter = await coloursAt('');
    const many = await coloursAt('#nTrain=2000');
    assert.deepEqual(many, chapter, 'the same colours at 50 and 2000 points');
    chapter.forEach((colour) => assert.match(colour, /^#[0-9a-f]{6}$/, `opaque: ${colour}`));
    assert.equal(new Set(chapter).size, chapter.length, 'each band its own colour');
  });

  test('the nonparametric line, "the blue line", stays visible over 2000 training points of its blue: a halo of the background around it', async () => {
    const page = await open(`${env.server.url}#nTrain=2000&nTest=2000`);
    const seen = await page.evaluate(() => {
      const chart = nwPage.Chart.getChart(document.getElementById('predictionsChart'));
      const line = chart.data.datasets[3].data;
      // Where the line is flattest, mid-range (there the points are densest): pixels 2 px above and below.
      let best = 1;
      for (let i = 1; i < line.length - 1; i++) {
        if (line[i].x > 1 && line[i].x < 4 && Math.abs(line[i + 1].y - line[i - 1].y) < Math.abs(line[best + 1].y - line[best - 1].y)) best = i;
      }
      const ratio = chart.currentDevicePixelRatio;
      const x = Math.round(chart.scales.x.getPixelForValue(line[best].x) * ratio);
      const y = chart.scales.y.getPixelForValue(line[best].y) * ratio;
      // One read of the column around the line (several reads make Chromium warn on the console).
      const top = Math.round(y - 4 * ratio);
      const column = chart.ctx.getImageData(x, top, 1, Math.round(8 * ratio) + 1).data;
      const at = (dy) => Array.from(column.slice(4 * (Math.round(y + dy * ratio) - top), 4 * (Math.round(y + dy * ratio) - top) + 3));
      // The palest pixel 1.5 to 3 px away on each side (past the line's smoothed edge, within the halo's).
      const palest = (sign) => [1.5, 2, 2.5, 3].map((d) => at(sign * d)).sort((a, b) => Math.min(...b) - Math.min(...a))[0];
      return { x: line[best].x, above: palest(-1), centre: at(0), below: palest(1) };
    });
    assert.ok(seen.centre[2] > 150 && seen.centre[0] < 80, `the line's blue at x = ${seen.x}: ${seen.centre}`);
    // (Pale: the line's smoothed edge tints the halo a little; without it, the points' blue is there.)
    for (const side of ['above', 'below']) assert.ok(seen[side].every((c) => c >= 180), `the background ${side} the line at x = ${seen.x}: ${seen[side]}`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a heatmap whose chart area shrinks or grows is computed again for it: one block per pixel at most, and as fine as the area allows', async () => {
    const page = await open(`${env.server.url}#nTrain=1000&nTest=500`);
    await page.locator('#nonparametricHeatmap').box();
    await page.waitForFunction(() => document.getElementById('nonparametricNote').textContent !== '');
    // Resizes the chart's box; Chart.js sees it, and the heatmap checks its blocks once the resize is drawn.
    const resized = (width) => page.evaluate(async (width) => {
      const canvas = document.getElementById('nonparametricHeatmap');
      const heatmap = nwPage.Chart.getChart(canvas).$heatmap;
      const before = heatmap.capacity().cols;
      canvas.parentElement.style.width = width;
      const deadline = performance.now() + 5000;
      while (heatmap.capacity().cols === before && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (let frame = 0; frame < 3; frame++) await new Promise((r) => requestAnimationFrame(r));
      // At this size the worker computes the new blocks: until its reply is drawn, the figures are not idle.
      while (!nwPage.debug.idle && performance.now() < deadline + 5000) await new Promise((r) => setTimeout(r, 20));
      const { blockRows, blockCols, rowStep, colStep } = heatmap.blocks;
      return { capacity: heatmap.capacity(), blockRows, blockCols, rowStep, colStep };
    }, width);
    const fits = ({ capacity, blockRows, blockCols, rowStep, colStep }, label) => {
      assert.ok(blockRows <= capacity.rows && blockCols <= capacity.cols, `${label}: ${blockRows} x ${blockCols} blocks in ${capacity.rows} x ${capacity.cols} pixels`);
      assert.deepEqual([rowStep, colStep], [Math.ceil(500 / capacity.rows), Math.ceil(1000 / capacity.cols)], `${label}: the finest blocks the area allows`);
    };
    const narrow = await resized('160px');
    fits(narrow, 'narrowed');
    const wide = await resized('');
    fits(wide, 'widened again');
    assert.ok(wide.blockCols > narrow.blockCols, `${narrow.blockCols} -> ${wide.blockCols} block columns`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('every cell of a chapter-sized heatmap is drawn, each pixel the colour table\'s colour of its weight', async () => {
    const page = await open(`${env.server.url}#w=2`);
    await page.locator('#nonparametricHeatmap').box();
    await page.waitForFunction(() => nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap'))?.$heatmap.cellCount > 0);
    const cells = [[0, 0], [0, 1], [10, 12], [25, 25], [30, 5], [7, 40], [49, 48], [49, 49]];
    const shown = await page.evaluate((samples) => {
      const chart = nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap'));
      const heatmap = chart.$heatmap;
      const ratio = chart.currentDevicePixelRatio;
      const left = Math.round(chart.chartArea.left * ratio);
      const top = Math.round(chart.chartArea.top * ratio);
      const width = Math.round(chart.chartArea.right * ratio) - left;
      const height = Math.round(chart.chartArea.bottom * ratio) - top;
      const { data } = chart.ctx.getImageData(left, top, width, height); // one read of the whole area
      const { blockRows, blockCols } = heatmap.blocks;
      return {
        blockRows, blockCols, maxWeight: heatmap.maxWeight,
        samples: samples.map(([r, c]) => {
          // The pixel at the cell's centre.
          const i = 4 * (Math.floor(((r + 0.5) * height) / blockRows) * width + Math.floor(((c + 0.5) * width) / blockCols));
          return { r, c, weight: heatmap.cellAt(r, c).v, rgb: [data[i], data[i + 1], data[i + 2]], alpha: data[i + 3] };
        }),
      };
    }, cells);
    assert.deepEqual([shown.blockRows, shown.blockCols], [50, 50], 'every cell, no blocks');
    const data = nw.generateData({ seed: 1 });
    const weights = nw.attentionWeights(data.xTest, data.xTrain, { w: 2 }).data;
    let max = 0;
    for (const v of weights) max = Math.max(max, v);
    assert.equal(shown.maxWeight, max);
    for (const { r, c, weight, rgb, alpha } of shown.samples) {
      assert.equal(weight, weights[r * 50 + c], `cell (${r}, ${c}) is the module's weight`);
      const level = Math.round((255 * weight) / max);
      assert.deepEqual(rgb, heatRgb(level / 255), `cell (${r}, ${c}), weight ${weight}: level ${level} of the table`);
      assert.equal(alpha, 255);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the heatmap tooltip reports query x, key x and the exact weight, also when downsampled', async () => {
    for (const [hash, w] of [['#w=1', 1], ['#nTrain=1000&nTest=500&w=4', 4]]) {
      const page = await open(`${env.server.url}${hash}`);
      const shown = parseTooltip(await heatmapTooltip(page, 'nonparametricHeatmap', 0.43, 0.41));
      const spec = hash.includes('nTrain=1000') ? { nTrain: 1000, nTest: 500 } : {};
      const data = nw.generateData({ ...spec, seed: 1 });
      const row = data.xTest.findIndex((x) => x.toFixed(3) === shown.query.toFixed(3));
      const col = data.xTrain.findIndex((x) => x.toFixed(3) === shown.key.toFixed(3));
      assert.ok(row >= 0 && col >= 0, `the tooltip names a real query (${shown.query}) and key (${shown.key})`);
      const exact = nw.attentionWeights([data.xTest[row]], data.xTrain, { w }).data[col];
      assert.equal(shown.weight, Number(exact.toPrecision(4)), `weight at (${row}, ${col})`);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('the heatmap tooltip says when a query has no key within a compact kernel\'s support', async () => {
    const data = nw.generateData({ seed: 1 });
    const { fallbackRows } = nw.attentionWeights(data.xTest, data.xTrain, { w: 30, kernel: 'boxcar' });
    const row = fallbackRows.indexOf(1);
    const inside = fallbackRows.indexOf(0);
    assert.ok(row >= 0 && inside >= 0, 'w = 30 leaves some queries with no key within 1/30');
    const page = await open(`${env.server.url}#kernel=boxcar&w=30`);
    const fallen = await heatmapTooltip(page, 'nonparametricHeatmap', 0.5, (row + 0.5) / 50);
    assert.equal(parseTooltip(fallen).query.toFixed(3), data.xTest[row].toFixed(3));
    assert.ok(fallen.includes('no key within the kernel\'s support: the nearest key takes all'), fallen.join(' | '));
    const normal = await heatmapTooltip(page, 'nonparametricHeatmap', 0.5, (inside + 0.5) / 50);
    assert.ok(!normal.some((line) => line.startsWith('no key')), normal.join(' | '));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
