// Beyond the chapter: kernels, the loss landscape, leave-one-out off, your own data, exports and imports.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distDir, fileUrl, inEachBrowser } from './browser.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();

// The panels' lines come from the same pass as their heatmaps (nw.attentionBlocks): equal to predict's
// up to rounding.
function assertClose(actual, expected, message) {
  assert.equal(actual.length, expected.length, message);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) <= 1e-12 * Math.max(1, Math.abs(expected[i])), `${message}: ${a} vs ${expected[i]}`));
}

const chartData = (page, id, dataset) => page.evaluate(({ id, dataset }) => nwPage.Chart.getChart(document.getElementById(id)).data.datasets[dataset].data.map((p) => p.y ?? p.v), { id, dataset });
// The training points' y in x order: each point sits in "Training data" or in one band of attention (their
// datasets keep them in trainingPoints, drawn by the chart's own plugin).
const trainingYs = (page) => page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets
  .filter((set) => set.label === 'Training data' || set.label.startsWith('attention band'))
  .flatMap((set) => set.trainingPoints).sort((a, b) => a.x - b.x).map((p) => p.y));

const download = (page, buttonName) => page.download(page.button(buttonName));

// "Your data, export and import" is a collapsed panel: a reader opens it first.
async function openMorePanel(page) {
  if ((await page.locator('details.more[open]').count()) === 0) await page.locator('details.more > summary').click();
  assert.equal(await page.locator('details.more[open]').count(), 1);
}

inEachBrowser('beyond the chapter', (env) => {
  const { test, open } = env;

  test('the kernel select offers the module\'s kernels, and switching kernel or w redraws every panel', async () => {
    const page = await open(env.server.url, { height: 4000 }); // every figure near the view, so all are drawn
    const options = await page.evaluate(() => Array.from(document.querySelectorAll('#kernel option'), (o) => o.value));
    assert.deepEqual(options, nw.kernelNames());
    const panels = ['gaussian', 'boxcar', 'constant', 'epanechnikov'];
    const before = {};
    for (const k of panels) before[k] = await chartData(page, `kernel-${k}-predictions`, 2);
    const data = nw.generateData({ seed: 1 });
    assertClose(before.boxcar, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 1, kernel: 'boxcar' })), 'boxcar panel');
    const mean = nw.averagePool(data.yTrain);
    assert.ok(before.constant.every((p) => Math.abs(p - mean) < 1e-12), 'the constant panel is average pooling');

    await page.label('Distance scale w').set(3);
    for (const k of panels) {
      const after = await chartData(page, `kernel-${k}-predictions`, 2);
      if (k !== 'constant') assert.notDeepEqual(after, before[k], `${k} panel redrawn for w = 3`);
      assertClose(after, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 3, kernel: k })), `${k} panel`);
    }

    await page.label('Kernel').select('epanechnikov');
    await page.waitForFunction(() => location.hash.includes('kernel=epanechnikov'));
    const main = await chartData(page, 'predictionsChart', 3);
    assert.deepEqual(main, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 3, kernel: 'epanechnikov' })));
    await page.label('Kernel').select('boxcar');
    assert.match(await page.locator('#status').text(), /boxcar cannot be trained/);
    assert.equal(await page.button('Train').isDisabled(), true);
    // No parametric weights for a kernel that cannot be trained: the heatmap is empty, not the old one.
    assert.equal(await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('parametricHeatmap')).$heatmap.cellCount), 0);
    assert.equal(await page.locator('#parametricTitleW').text(), '(cannot be trained)');
    await page.label('Kernel').select('constant');
    assert.match(await page.locator('#kernelNote').text(), /exactly average pooling/);
    await page.screenshot('kernels');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the loss landscape shows the training steps on the curve and the minimiser selectBandwidth finds', async () => {
    const page = await open(env.server.url, { height: 4000 }); // every figure near the view, so all are drawn
    await page.button('Train').click();
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Epoch 5'));
    // (the landscape is drawn in a slice after the status: WebKit was once read between the two)
    await page.waitForFunction(() => nwPage.debug.idle && !nwPage.debug.playing);
    const steps = await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('landscapeChart')).data.datasets[1].data);
    const data = nw.generateData({ seed: 1 });
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0 });
    const expected = [];
    for (let i = 0; i < 5; i++) {
      const w = trainer.w;
      expected.push({ x: w, y: trainer.step() });
    }
    trainer.delete();
    assert.deepEqual(steps, expected, 'one point (w, L(w)) per epoch');
    const best = await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('landscapeChart')).data.datasets[2].data[0]);
    const exact = nw.selectBandwidth(data.xTrain, data.yTrain);
    assert.deepEqual(best, { x: exact.w, y: exact.loss });
    assert.match(await page.locator('#landscapeNote').text(), /Training minimises exactly the leave-one-out cross-validation criterion/);
    // The test MSE beside it, from the module, on the same ws.
    const testCurve = await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('landscapeChart')).data.datasets[3].data);
    assert.equal(testCurve.length, 120);
    const { x: lastW, y: lastMse } = testCurve[testCurve.length - 1];
    assert.equal(lastMse, nw.meanSquaredError(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: lastW }), data.yTruth));
    assert.match(await page.locator('#landscapeNote').text(), /test MSE against the noise-free truth, which training never sees: on this curve it is (lowest at|still falling at the curve's right edge,) w = \d/);

    await page.button('Train to convergence').nth(0).click();
    // (On a busy machine the run may take more than one slice.)
    await page.waitForFunction(() => !nwPage.debug.converging);
    const w = Number(await page.locator('#status').attribute('data-w'));
    assert.ok(Math.abs(w - exact.w) < 1e-3 * exact.w, `converged w ${w} is the minimiser ${exact.w}`);
    assert.match(await page.locator('#landscapeNote').text(), /0\.000% above the minimum/);
    await page.screenshot('landscape');

    // Your own data that differs from the last only in a later y gets its own curve and minimiser.
    const points = 'x,y\n0,1\n0.5,2\n1,1.5\n1.5,3\n2,2.5\n2.5,4\n';
    await openMorePanel(page);
    for (const csv of [points, points.replace('2.5,4', '2.5,0')]) {
      await page.label('CSV data').set(csv, ['input']);
      await page.button('Use CSV').click();
      const rows = csv.trim().split('\n').slice(1).map((line) => line.split(',').map(Number));
      const own = nw.selectBandwidth(rows.map(([x]) => x), rows.map(([, y]) => y));
      // (The reader looks back up at the landscape: in WebKit's shorter window the panel's button can
      // leave it beyond the near view, where it is drawn only once scrolled to.)
      await page.locator('#landscapeChart').box();
      await page.waitForFunction((expected) => nwPage.Chart.getChart(document.getElementById('landscapeChart')).data.datasets[2].data[0]?.x === expected, own.w);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('"Train to convergence" on 2000 samples runs in slices, shows its progress, and Cancel keeps the epochs reached', async () => {
    // A small learning rate: w cannot settle within the 50 epochs allowed at this size, so the run is long.
    const page = await open(`${env.server.url}#nTrain=2000&nTest=50&lr=0.001`);
    await page.evaluate(() => {
      // Frames painted while it runs: the page keeps painting between slices.
      window.frames = 0;
      const count = () => { window.frames += 1; requestAnimationFrame(count); };
      requestAnimationFrame(count);
    });
    await page.button('Train to convergence').nth(0).click();
    await page.locator('#convergeProgress').waitFor();
    assert.match(await page.locator('#convergeText').text(), /^Epoch \d+ of at most 50 · w = \d/);
    assert.equal(await page.button('Train to convergence').nth(0).isDisabled(), true, 'the training buttons wait for the run');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'cancelConverge', 'the keyboard focus moved to Cancel');
    const framesBefore = await page.evaluate(() => window.frames);
    // Cancel is pressed in the page as soon as 3 epochs are shown: a click from the test's side can come
    // after the run has reached its 50 epochs (a slow round trip, a fast browser).
    await page.evaluate(() => new Promise((resolve) => {
      const pressWhenDue = () => {
        if (document.getElementById('convergeBar').value < 3) return requestAnimationFrame(pressWhenDue);
        document.getElementById('cancelConverge').click();
        return resolve();
      };
      pressWhenDue();
    }));
    assert.ok(await page.evaluate(() => window.frames) > framesBefore, 'frames were painted during the run');
    await page.waitForFunction(() => document.getElementById('convergeProgress').hidden);
    const reached = Number(/^Epoch (\d+)/.exec(await page.locator('#status').text())[1]);
    assert.ok(reached >= 3 && reached < 50, `cancelled after ${reached} epochs`);
    assert.match(await page.alert().text(), new RegExp(`Cancelled after ${reached} epochs, before w settled`));
    assert.match(await page.url(), new RegExp(`trained=${reached}(&|$)`));
    // The epochs reached are the module's.
    const data = nw.generateData({ nTrain: 2000, nTest: 50, seed: 1 });
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr: 0.001 });
    for (let i = 0; i < reached; i++) trainer.step();
    assert.equal(Number(await page.locator('#status').attribute('data-w')), trainer.w);
    trainer.delete();
    assert.equal(await page.button('Train to convergence').nth(0).isDisabled(), false);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  // Over http a worker computes the large heatmaps (the page's thread only draws them); from file://, where
  // Chromium starts no worker, the page's thread computes them, in slices. Either way each ends up showing
  // the module's weights.
  for (const where of ['http', 'file']) {
    test(`(${where}) with 2000 x 2000 weights the heatmaps are drawn after Regenerate's task, by the worker if there is one, and show the current data`, async () => {
      const base = where === 'http' ? env.server.url : fileUrl;
      const page = await open(`${base}#nTrain=2000&nTest=2000`, { height: 4000 }); // every figure near the view
      const parts = ['nonparametric', 'parametric', 'kernel0', 'kernel1', 'kernel2', 'kernel3'];
      const allDrawn = (parts) => parts.every((part) => nwPage.debug.figure(part).drawnFor?.data === nwPage.debug.session.data && !nwPage.debug.figure(part).waitingForWorker);
      await page.waitForFunction(allDrawn, parts);
      if (where === 'http') await page.waitForFunction(() => nwPage.debug.heatmapWorkerUsed);
      // Within Regenerate's own task the last kernel panel still shows the old data: it is drawn later.
      const staleInTheClicksTask = await page.evaluate(() => {
        const { nw } = nwPage.debug.session;
        window.blocksOnPage = 0;
        const attentionBlocks = nw.attentionBlocks;
        nw.attentionBlocks = (...args) => { window.blocksOnPage += 1; return attentionBlocks(...args); };
        // The nonparametric line (w = 1) comes with its heatmap's pass: no predict at that w here.
        window.nonparametricPredicts = 0;
        const predict = nw.predict;
        nw.predict = (...args) => { if (args[3]?.w === 1) window.nonparametricPredicts += 1; return predict(...args); };
        const heatmap = nwPage.Chart.getChart(document.getElementById('kernel-epanechnikov-heatmap')).$heatmap;
        const before = heatmap.blocks;
        window.whereAtTheClick = nwPage.debug.heatmapsOn;
        document.getElementById('regenerate').click();
        return heatmap.blocks === before;
      });
      assert.equal(staleInTheClicksTask, true);
      await page.waitForFunction(() => /seed=2/.test(location.hash));
      await page.waitForFunction(allDrawn, parts);
      await page.waitForFunction(() => nwPage.debug.idle);
      const { blocksOnPage, withWorker, nonparametricPredicts, whereAtTheClick } = await page.evaluate(() => ({ blocksOnPage: window.blocksOnPage, withWorker: nwPage.debug.heatmapsOn === 'worker', nonparametricPredicts: window.nonparametricPredicts, whereAtTheClick: window.whereAtTheClick }));
      // (A worker given up meanwhile, after 5 s without a reply on a loaded machine, would leave a mix.)
      assert.equal(whereAtTheClick, withWorker ? 'worker' : 'page', 'the worker neither started nor stopped during Regenerate');
      // Where a worker computes the heatmaps, the nonparametric line comes with its heatmap's pass; on the
      // page's thread the render computes it at once and the heatmap follows in a later task.
      if (withWorker) assert.equal(nonparametricPredicts, 0, 'the nonparametric line is never computed apart from its heatmap\'s pass');
      else assert.equal(nonparametricPredicts, 1, 'the nonparametric line is computed once, before its heatmap');
      if (where === 'http') assert.equal(withWorker, true);
      if (page.kind.name === 'Chromium' && where === 'file') assert.equal(withWorker, false);
      if (withWorker) assert.equal(blocksOnPage, 0, 'no heatmap computed on the page\'s thread');
      else assert.equal(blocksOnPage, parts.length, 'each heatmap computed once on the page\'s thread');
      const data = nw.generateData({ nTrain: 2000, nTest: 2000, seed: 2 });
      for (const [id, kernel] of [['nonparametricHeatmap', 'gaussian'], ['kernel-epanechnikov-heatmap', 'epanechnikov']]) {
        const shown = await page.evaluate((id) => {
          const heatmap = nwPage.Chart.getChart(document.getElementById(id)).$heatmap;
          return { weight: Array.from(heatmap.blocks.weight.subarray(0, 2000)), capacity: heatmap.capacity() };
        }, id);
        const expected = nw.attentionBlocks(data.xTest, data.xTrain, data.yTrain, { w: 1, kernel, maxBlockRows: shown.capacity.rows, maxBlockCols: shown.capacity.cols });
        assert.deepEqual(shown.weight, Array.from(expected.weight.subarray(0, 2000)), id);
      }
      // The nonparametric line came with the heatmap's pass: the module's predictions.
      const line = await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[3].data.slice(0, 50) /* Nonparametric */.map((point) => point.y));
      assert.deepEqual(line, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 1 }).subarray(0, 50)));
      // and the errors table (drawn once that line came) states its test MSE.
      const mse = nw.meanSquaredError(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 1 }), data.yTruth);
      assert.match(await page.locator('#mse').text(), new RegExp(`Nonparametric\\s*1\\.00\\s*${mse.toFixed(4).replace('.', '\\.')}`));
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  // Without a worker the page's thread computes the heatmaps: a render draws the predictions chart in its
  // own task and a heatmap it has not timed here (the worker computed it until it stopped) in a task after
  // it (at 2000 x 2000 weights, both in one task took 45 to 70 ms).
  test('once the worker has stopped, a w change draws the predictions at once and the heatmap in a task of its own', async () => {
    const page = await open(`${env.server.url}#nTrain=2000&nTest=2000`, { height: 4000 });
    // (The first render computes the heatmaps here: the worker starts after it. Its next is the worker's.)
    await page.waitForFunction(() => nwPage.debug.heatmapsOn === 'worker' && nwPage.debug.heatmapWorkerUsed);
    await page.label('Distance scale w').set('1.25');
    await page.ready();
    const inTheChangesTask = await page.evaluate(() => {
      const { debug } = nwPage;
      if (debug.heatmapsOn !== 'worker' || debug.figure('nonparametric').drawnFor.w !== 1.25) return null;
      debug.stopHeatmapWorker(); // as when a worker fails
      const before = debug.figure('nonparametric').drawnFor;
      const slider = document.getElementById('w');
      slider.value = '1.5';
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      slider.dispatchEvent(new Event('change', { bubbles: true }));
      return {
        heatmapUnchanged: debug.figure('nonparametric').drawnFor === before,
        waitingForWorker: debug.waitingForWorker,
        line: nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[3].data.slice(0, 50).map((point) => point.y),
      };
    });
    assert.notEqual(inTheChangesTask, null, 'the worker computed the heatmap at w = 1.25 and was stopped');
    const data = nw.generateData({ nTrain: 2000, nTest: 2000, seed: 1 });
    assert.equal(inTheChangesTask.heatmapUnchanged, true, 'the heatmap is not drawn in the change\'s task');
    assert.equal(inTheChangesTask.waitingForWorker, 0, 'no heatmap waits for a worker');
    assert.deepEqual(inTheChangesTask.line, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 1.5 }).subarray(0, 50)));
    await page.ready();
    const shown = await page.evaluate(() => {
      const heatmap = nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap')).$heatmap;
      return { w: nwPage.debug.figure('nonparametric').drawnFor.w, weight: Array.from(heatmap.blocks.weight.subarray(0, 2000)), capacity: heatmap.capacity() };
    });
    assert.equal(shown.w, 1.5);
    const expected = nw.attentionBlocks(data.xTest, data.xTrain, null, { w: 1.5, maxBlockRows: shown.capacity.rows, maxBlockCols: shown.capacity.cols });
    assert.deepEqual(shown.weight, Array.from(expected.weight.subarray(0, 2000)));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a heatmap the worker owes and that no longer applies (the kernel became untrainable) does not keep the page from being done', async () => {
    const page = await open(`${env.server.url}#nTrain=2000&nTest=2000`, { height: 4000 });
    await page.waitForFunction(() => nwPage.debug.heatmapsOn === 'worker' && nwPage.debug.idle);
    // Regenerate, and once the worker owes the parametric heatmap, a kernel that cannot be trained.
    await page.evaluate(() => new Promise((resolve) => {
      document.getElementById('regenerate').click();
      const switchWhenOwed = () => {
        if (!nwPage.debug.figure('parametric').waitingForWorker) return setTimeout(switchWhenOwed, 0);
        const kernel = document.getElementById('kernel');
        kernel.value = 'boxcar';
        kernel.dispatchEvent(new Event('change', { bubbles: true }));
        return resolve();
      };
      switchWhenOwed();
    }));
    await page.waitForFunction(() => nwPage.debug.idle, undefined, { timeout: 20_000 });
    assert.equal(await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('parametricHeatmap')).$heatmap.cellCount), 0);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the landscape has two y axes until the reader shows the AICc, and its legend draws each mark as it is drawn', async () => {
    const page = await open(env.server.url, { height: 4000 });
    await page.waitForFunction(() => nwPage.debug.idle && nwPage.debug.figure('landscape').drawnFor !== null);
    const state = () => page.evaluate(() => {
      const chart = nwPage.Chart.getChart(document.getElementById('landscapeChart'));
      return {
        yAxes: Object.values(chart.scales).filter((scale) => scale.axis === 'y' && (scale.options.display === 'auto' ? scale.getMatchingVisibleMetas().length > 0 : scale.options.display)).map((scale) => scale.id),
        legend: Object.fromEntries(chart.legend.legendItems.map((item) => [chart.data.datasets[item.datasetIndex].label, item.pointStyle])),
        aicBox: chart.legend.legendHitBoxes[chart.legend.legendItems.findIndex((item) => item.datasetIndex === 4)],
      };
    });
    const before = await state();
    assert.deepEqual(before.yAxes, ['y', 'testMse']);
    assert.deepEqual(before.legend, {
      'L(w)': 'line', 'Training steps': 'circle', Minimiser: 'star', 'test MSE (right axis)': 'line', 'AICc (its own axis)': 'line', 'AICc minimiser': 'rectRot',
    });
    // The reader clicks "AICc" in the legend: its curve, its diamond and its axis appear.
    const { left, top } = before.aicBox;
    const box = await page.locator('#landscapeChart').box();
    await page.mouse.click(box.x + left + 5, box.y + top + 5);
    await page.waitForFunction(() => nwPage.Chart.getChart(document.getElementById('landscapeChart')).isDatasetVisible(4));
    assert.deepEqual((await state()).yAxes, ['y', 'testMse', 'aic']);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('before the first epoch the loss chart says what will appear there, or that the kernel cannot be trained', async () => {
    const page = await open(env.server.url, { height: 4000 });
    await page.waitForFunction(() => nwPage.debug.idle && nwPage.debug.figure('loss').drawnFor !== null);
    const empty = () => page.evaluate(() => {
      const chart = nwPage.Chart.getChart(document.getElementById('lossChart'));
      return chart.data.datasets[0].data.length === 0 ? chart.options.plugins.nwEmpty.text : null;
    });
    assert.equal(await empty(), "Train or Step: each epoch's loss appears here");
    await page.button('Step').click();
    await page.waitForFunction(() => !nwPage.debug.busy && nwPage.debug.session.epoch === 1);
    assert.equal(await empty(), null, 'no text once the first loss is drawn');
    await page.label('Kernel').select('boxcar');
    await page.waitForFunction(() => nwPage.debug.idle && nwPage.debug.settings.kernel === 'boxcar');
    assert.equal(await empty(), 'This kernel cannot be trained: no epochs to show');
    await page.screenshot('loss-untrainable');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the "No leave-one-out" exercise shows w running away and the test MSE rising', async () => {
    const page = await open(env.server.url);
    await page.button('No leave-one-out').click();
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Epoch 30'), null, { timeout: 20_000 });
    assert.equal(await page.label('Leave one out').isChecked(), false);
    const rows = await page.evaluate(() => Array.from(document.querySelectorAll('#epochTable tbody tr'), (r) => Array.from(r.cells, (c) => Number(c.textContent))));
    const losses = rows.map((r) => r[1]);
    const mses = rows.map((r) => r[3]);
    losses.slice(1).forEach((loss, i) => assert.ok(loss < losses[i], 'the training loss keeps falling'));
    assert.ok(rows.at(-1)[2] > 20, 'w runs away');
    assert.ok(mses.at(-1) > mses[0], `the test MSE rises (${mses[0]} -> ${mses.at(-1)})`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('your own CSV replaces the data, survives a reload and can be cleared; broken CSV names the line', async () => {
    const page = await open(env.server.url);
    const csv = join(tmpdir(), `nw-${process.pid}-points.csv`);
    writeFileSync(csv, 'x,y\n3,1\n1,2\n2,0.5\n4,4\n');
    await page.label('CSV file').setFiles(csv);
    await page.waitForFunction(() => location.hash.includes('data=own'));
    assert.deepEqual(await trainingYs(page), [2, 0.5, 1, 4], 'sorted by x');
    assert.match(await page.locator('#dataNote').text(), /Using your 4 points/);
    assert.equal(await page.label('Seed').isDisabled(), true);
    await page.reload();
    assert.deepEqual(await trainingYs(page), [2, 0.5, 1, 4], 'still there after a reload');
    assert.equal(await page.locator('details.more[open]').count(), 1, 'your data in use keeps its panel open');

    for (const [text, message] of [['x,y\n1,2\n3\n', /Line 3: needs two columns/], ['1,2\n3,abc', /Line 2: y must be a finite number, got "abc"/],
      ['1,NaN\n2,3', /Line 1: y must be a finite number, got "NaN"/], ['x,y\n1,2', /at least 2 rows/]]) {
      await page.label('CSV data').set(text, ['input']);
      await page.button('Use CSV').click();
      await page.waitForText(message); // (read in a worker: the problem comes when it answers)
      assert.match(await page.alert().text(), message);
      assert.deepEqual(await trainingYs(page), [2, 0.5, 1, 4], 'nothing else is lost');
    }
    const huge = join(tmpdir(), `nw-${process.pid}-huge.csv`);
    writeFileSync(huge, '1,2\n'.repeat(1_300_000));
    await page.label('CSV file').setFiles(huge);
    await page.waitForText(/is too large: at most 5 MB/);

    await page.button('Clear my data').click();
    await page.waitForFunction(() => location.hash.includes('data=generated'));
    assert.equal((await trainingYs(page)).length, 50);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('data and predictions export as CSV with exact numbers, and charts as PNG', async () => {
    const page = await open(`${env.server.url}#seed=4&w=2`);
    await openMorePanel(page);
    const data = nw.generateData({ seed: 4 });
    const dataCsv = readFileSync((await download(page, 'Data CSV')).path, 'utf8').trim().split('\n');
    assert.equal(dataCsv[0], 'x,y');
    assert.deepEqual(dataCsv.slice(1).map((l) => l.split(',').map(Number)), Array.from(data.xTrain, (x, i) => [x, data.yTrain[i]]));
    const predictions = readFileSync((await download(page, 'Predictions CSV')).path, 'utf8').trim().split('\n');
    assert.equal(predictions[0], 'x,truth,average,nonparametric,parametric');
    const nonparametric = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2 });
    assert.deepEqual(predictions.slice(1).map((l) => Number(l.split(',')[3])), Array.from(nonparametric));
    await page.label('Chart').select('loss-landscape');
    const png = await download(page, 'Chart PNG');
    assert.equal(png.name, 'nadaraya-watson-loss-landscape.png');
    assert.deepEqual([...readFileSync(png.path).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // The design's charts, computed apart: drawn for the PNG though the figure was never scrolled to.
    for (const name of ['design-predictions', 'design-loss', 'design-weights']) {
      await page.label('Chart').select(name);
      const designPng = await download(page, 'Chart PNG');
      assert.equal(designPng.name, `nadaraya-watson-${name}.png`);
      const bytes = readFileSync(designPng.path);
      assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], name);
      // (PNG width and height, big-endian at bytes 16 and 20: the chart's canvas)
      assert.ok(bytes.readUInt32BE(16) > 100 && bytes.readUInt32BE(20) > 100, `${name}: ${bytes.readUInt32BE(16)} x ${bytes.readUInt32BE(20)}`);
      // On the page's background (opaque: a dark theme's light text stays readable on a white slide).
      const corner = await page.evaluate(async (base64) => {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
        return { pixel: `rgb(${r}, ${g}, ${b})`, a, background: getComputedStyle(document.body).backgroundColor };
      }, bytes.toString('base64'));
      assert.deepEqual([corner.pixel, corner.a], [corner.background, 255], name);
    }
    assert.ok(await page.evaluate(() => nwPage.debug.design.shown !== null), 'the design was computed for its PNG');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a session exported as JSON imports back exactly, own data included', async () => {
    const page = await open(env.server.url);
    await openMorePanel(page);
    await page.label('CSV data').set('0,1\n0.5,2\n1,1.5\n1.5,3\n2,2.5\n2.5,4\n3,3', ['input']);
    await page.button('Use CSV').click();
    await page.waitForFunction(() => location.hash.includes('data=own'));
    await page.label('Kernel').select('triangular');
    await page.label('Distance scale w').set(2.5);
    for (let i = 0; i < 3; i++) await page.button('Step').click();
    const exported = { url: await page.url(), w: await page.locator('#status').attribute('data-w'), table: await page.locator('#epochTable').text() };
    const file = await download(page, 'Session JSON');
    const session = JSON.parse(readFileSync(file.path, 'utf8'));
    assert.equal(session.settings.kernel, 'triangular');
    assert.equal(session.training.ws.length, 4);

    // A fresh browser profile: nothing stored, default settings.
    const fresh = await open(env.server.url);
    await fresh.label('Import session').setFiles(file.path);
    await fresh.waitForFunction(() => location.hash.includes('kernel=triangular'));
    assert.equal(new URL(await fresh.url()).hash, new URL(exported.url).hash);
    assert.equal(await fresh.locator('#status').attribute('data-w'), exported.w, 'the same w, bit for bit');
    assert.equal(await fresh.locator('#epochTable').text(), exported.table);
    assert.equal(await fresh.alert().isVisible(), false, 'the replay matched the file');

    writeFileSync(file.path, '{"format": "something else"}');
    await fresh.label('Import session').setFiles(file.path);
    await fresh.waitForText(/is not a session of this page/);
    assert.equal(await fresh.locator('#status').attribute('data-w'), exported.w, 'a bad file changes nothing');
    assert.deepEqual(fresh.problems, []);
    await fresh.close();
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
