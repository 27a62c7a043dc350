// Local-linear attention pooling and the AIC on the page: the Estimator select puts the module's
// local-linear line on the predictions chart, in the URL and under training; the boundary note states
// the module's numbers; a bad ?estimator= is named in a message; the landscape draws the module's
// AICc and its minimiser; <nw-figure estimator="..."> does the same as the URL.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { distDir, inEachBrowser, lessonSite } from './browser.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();
const ll = { estimator: 'localLinear' };

const chartData = (page, id, dataset) => page.evaluate(({ id, dataset }) => nwPage.Chart.getChart(document.getElementById(id)).data.datasets[dataset].data, { id, dataset });
const idle = (page) => page.waitForFunction(() => nwPage.debug.idle);

// The test MSE of the queries within 0.5 of either end, summed here.
function edgeMse(data, line) {
  const xMax = Math.max(data.xTrain[data.xTrain.length - 1], data.xTest[data.xTest.length - 1]);
  const edge = Array.from(data.xTest.keys()).filter((i) => data.xTest[i] <= 0.5 || xMax - data.xTest[i] <= 0.5);
  return edge.reduce((sum, i) => sum + (line[i] - data.yTruth[i]) ** 2, 0) / edge.length;
}

const site = lessonSite({
  'lesson-estimator.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Estimator</title><link rel="icon" href="data:,"></head><body>
<nw-figure id="local" figure="predictions" estimator="localLinear" w="2"></nw-figure>
<nw-figure id="bad" figure="predictions" estimator="ll"></nw-figure>
<script src="nw-figure.js"></script>
</body></html>`,
});

inEachBrowser('local-linear pooling and the AIC', (env) => {
  const { test, open } = env;

  test('the Estimator select draws the module\'s local-linear line, states the boundary error and trains with it', async () => {
    const page = await open(env.server.url, { height: 4000 }); // every figure near the view, so all are drawn
    const data = nw.generateData({ seed: 1 });
    assert.equal(await page.locator('#estimatorNote').text(), '');
    await page.label('Estimator').select('localLinear');
    await page.waitForFunction(() => location.hash.includes('estimator=localLinear'));
    const line = (await chartData(page, 'predictionsChart', 3)).map((p) => p.y);
    const expected = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 1, ...ll });
    assert.deepEqual(line, Array.from(expected), 'exactly predict with the estimator');
    const note = await page.locator('#estimatorNote').text();
    const nwLine = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 1 });
    assert.ok(note.includes(`the test MSE is ${edgeMse(data, expected).toFixed(4)}, against ${edgeMse(data, nwLine).toFixed(4)} for Nadaraya-Watson at the same w`), note);
    assert.match(await page.locator('#weightsEstimatorNote').text(), /heatmaps .* show Nadaraya-Watson's attention weights/);
    // The lines and the errors table say which estimator they are.
    const labels = await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets.slice(3, 5).map((set) => set.label));
    assert.deepEqual(labels, ['Nonparametric, local-linear', 'Parametric (before training), local-linear']);
    assert.match(await page.locator('#mse').text(), /Nonparametric, local-linear\s*1\.00\s*0\.1605/);
    // Training restarts with the estimator: its w is the module's Trainer's.
    await page.button('Train').click();
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Epoch 5'));
    await idle(page);
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, ...ll });
    for (let i = 0; i < 5; i++) trainer.step();
    assert.equal(Number(await page.locator('#status').attribute('data-w')), trainer.w);
    assert.deepEqual((await chartData(page, 'predictionsChart', 4)).map((p) => p.y), Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: trainer.w, ...ll })));
    trainer.delete();
    // The landscape follows: its star is the local-linear minimiser.
    const star = nw.selectBandwidth(data.xTrain, data.yTrain, ll);
    assert.deepEqual((await chartData(page, 'landscapeChart', 2))[0], { x: star.w, y: star.loss });
    // Dragging w previews the local-linear line, not the heatmap pass's Nadaraya-Watson one.
    await page.label('Distance scale w').set(3, ['input']);
    await page.waitForFunction(() => nwPage.debug.settings.w === 3);
    await page.waitForFunction((first) => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[3].data[0].y !== first, line[0]);
    assert.deepEqual((await chartData(page, 'predictionsChart', 3)).map((p) => p.y), Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 3, ...ll })));
    await page.screenshot('estimator-local-linear');
    await page.label('Estimator').select('nadarayaWatson');
    assert.equal(await page.locator('#estimatorNote').text(), '');
    assert.deepEqual((await chartData(page, 'predictionsChart', 3)).map((p) => p.y), Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 3 })));
    assert.equal(await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[3].label), 'Nonparametric');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a bad ?estimator= is named in the message, like any setting, and the URL is corrected', async () => {
    const page = await open(`${env.server.url}#estimator=ll`);
    assert.match(await page.alert().text(), /Estimator must be one of nadarayaWatson, localLinear/);
    await page.waitForFunction(() => location.hash.includes('estimator=nadarayaWatson'));
    assert.equal(await page.label('Estimator').value(), 'nadarayaWatson');
    await page.close();
  });

  test('the landscape draws the module\'s AICc (a gap past its pole) and marks selectBandwidth\'s AIC minimiser', async () => {
    for (const [hash, seed, options] of [['', 1, {}], ['#estimator=localLinear&seed=2', 2, ll], ['#nTrain=10&w=30', 1, {}]]) {
      const page = await open(`${env.server.url}${hash}`, { height: 4000 });
      // (The landscape's chart is created once the browser reports its figure near the view.)
      await page.waitForFunction(() => nwPage.Chart.getChart(document.getElementById('landscapeChart')) !== undefined && nwPage.debug.idle);
      const data = nw.generateData({ seed, nTrain: hash.includes('nTrain=10') ? 10 : 50 });
      const curve = await chartData(page, 'landscapeChart', 4);
      assert.equal(curve.length, 120);
      for (const { x, y } of curve) {
        const aic = nw.aicLoss(data.xTrain, data.yTrain, { w: x, ...options }).loss;
        assert.equal(y, Number.isFinite(aic) ? aic : null, `${hash} w = ${x}`);
      }
      const best = nw.selectBandwidth(data.xTrain, data.yTrain, { ...options, criterion: 'aic' });
      assert.deepEqual(await chartData(page, 'landscapeChart', 5), [{ x: best.w, y: best.loss }]);
      const note = await page.locator('#landscapeNote').text();
      assert.ok(note.includes(`is w = ${best.w.toFixed(4)}, beside leave-one-out's w* = ${nw.selectBandwidth(data.xTrain, data.yTrain, options).w.toFixed(4)}. AICc is searched only where tr(H) < n − 2 = ${data.xTrain.length - 2}`), note);
      if (hash.includes('nTrain=10')) assert.ok(curve.some(({ y }) => y === null), 'past the pole: a gap');
      // Leave one out off: no AICc (the AIC takes no leaveOneOut).
      await page.label('Leave one out').click();
      await page.waitForFunction(() => location.hash.includes('loo=off'));
      assert.deepEqual(await chartData(page, 'landscapeChart', 4), []);
      assert.deepEqual(await chartData(page, 'landscapeChart', 5), []);
      assert.doesNotMatch(await page.locator('#landscapeNote').text(), /AIC/);
      if (!hash) await page.screenshot('landscape-aic');
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('<nw-figure estimator="localLinear"> draws the local-linear line and its note; a bad value is named', async () => {
    const page = await open(site.url('lesson-estimator.html'), { waitReady: false });
    await page.waitForFunction(() => document.getElementById('local').charts?.[0]?.data.datasets[3].data.length > 0);
    const data = nw.generateData({ seed: 1 });
    const line = await page.evaluate(() => document.getElementById('local').charts[0].data.datasets[3].data.map((p) => p.y));
    assert.deepEqual(line, Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2, ...ll })));
    const note = await page.evaluate(() => document.getElementById('local').shadowRoot.querySelector('figure .note').textContent);
    assert.match(note, /^Local-linear pooling at w = 2\.00: over the \d+ test queries within 0\.5/);
    await page.waitForFunction(() => !document.getElementById('bad').shadowRoot.querySelector('.problem').hidden);
    assert.equal(await page.evaluate(() => document.getElementById('bad').shadowRoot.querySelector('.problem').textContent), 'Estimator must be one of nadarayaWatson, localLinear');
    // Switching the attribute back restarts with Nadaraya-Watson, and the note goes.
    await page.evaluate(() => document.getElementById('local').setAttribute('estimator', 'nadarayaWatson'));
    await page.waitForFunction((first) => document.getElementById('local').charts[0].data.datasets[3].data[0].y !== first, line[0]);
    assert.deepEqual(await page.evaluate(() => document.getElementById('local').charts[0].data.datasets[3].data.map((p) => p.y)),
      Array.from(nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2 })));
    assert.equal(await page.evaluate(() => document.getElementById('local').shadowRoot.querySelector('figure .note').textContent), '');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
