// Training on many samples: over http the row pool's workers compute each epoch's leave-one-out rows
// (Step, Train and "Train to convergence"), the page's thread only sums them; from file:// (Chromium
// starts no worker) the same rows are computed on the page's thread in slices. Either way w after each epoch is the
// module's Trainer's, bit for bit, and at the chapter's 50 samples no row worker is started.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { distDir, fileUrl, inEachBrowser } from './browser.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();

// w at the start and after each of `epochs` epochs, from the module's Trainer in Node.
function trainerWs(data, epochs, lr) {
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0, lr });
  const ws = [trainer.w];
  for (let i = 0; i < epochs; i++) {
    trainer.step();
    ws.push(trainer.w);
  }
  trainer.delete();
  return ws;
}

const epochShown = (page, epoch) => page.waitForFunction((epoch) => document.querySelector('#status').textContent.startsWith(`Epoch ${epoch} `), epoch, { timeout: 30_000 });

inEachBrowser('training on many samples', (env) => {
  const { test, open } = env;

  for (const where of ['http', 'file']) {
    test(`(${where}) Step, Train and Train to convergence at 2000 samples take the module's epochs, in the row pool over http`, async () => {
      const lr = 0.002; // w cannot settle within the 50 epochs allowed at this size: the run reaches the limit
      const base = where === 'http' ? env.server.url : fileUrl;
      const page = await open(`${base}#nTrain=2000&nTest=50&lr=${lr}`);
      if (where === 'http') await page.waitForFunction(() => nwPage.debug.rowPool?.ready === true, undefined, { timeout: 20_000 });
      // Epochs computed on the page's thread (the trainer's own step) are counted.
      await page.evaluate(() => {
        window.stepsHere = 0;
        const { trainer } = nwPage.debug.session;
        const step = trainer.step.bind(trainer);
        trainer.step = () => { window.stepsHere += 1; return step(); };
      });
      await page.button('Step').click();
      await epochShown(page, 1);
      await page.button('Train').click(); // the Epochs setting: 5
      await epochShown(page, 6);
      await page.waitForFunction(() => !nwPage.debug.playing);
      await page.button('Train to convergence').nth(0).click();
      await page.waitForFunction(() => !nwPage.debug.converging, undefined, { timeout: 60_000 });
      await epochShown(page, 50);
      const { ws, stepsHere, poolSize, sliced } = await page.evaluate(() => ({
        ws: nwPage.debug.session.ws, stepsHere: window.stepsHere, poolSize: nwPage.debug.rowPool?.ready ? nwPage.debug.rowPool.size : 0,
        sliced: nwPage.debug.slicedRows,
      }));
      const data = nw.generateData({ nTrain: 2000, nTest: 50, seed: 1 });
      const expected = trainerWs(data, 50, lr);
      assert.equal(ws.length, expected.length);
      ws.forEach((w, i) => assert.ok(Object.is(w, expected[i]), `w after epoch ${i}: ${w} vs ${expected[i]}`));
      assert.equal(Number(await page.locator('#status').attribute('data-w')), expected[50]);
      // (Epochs whose rows came in slices on the page's thread are not counted: no epoch was one task.)
      assert.equal(stepsHere, 0, 'no epoch computed in one task on the page\'s thread');
      if (where === 'http') {
        assert.ok(poolSize >= 1, 'the row pool runs');
        assert.equal(sliced, false, 'every epoch in the pool');
      } else if (page.kind.name === 'Chromium') {
        assert.equal(poolSize, 0, 'no row worker from file://');
        assert.equal(sliced, true, 'the epochs\' rows in slices on the page\'s thread');
      }
      assert.match(await page.alert().text(), /Stopped after 50 epochs \(the limit for this many samples\)/);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('(http) a link\'s trained epochs at 2000 samples are replayed after the first render, and again by Regenerate on the new data, in the row pool', async () => {
    const lr = 0.002;
    const page = await open(`${env.server.url}#nTrain=2000&nTest=50&lr=${lr}&trained=20`); // (ready: after the replay)
    const first = nw.generateData({ nTrain: 2000, nTest: 50, seed: 1 });
    assert.deepEqual(await page.evaluate(() => nwPage.debug.session.ws), trainerWs(first, 20, lr));
    await epochShown(page, 20);
    assert.match(await page.url(), /trained=20(&|$)/);
    assert.equal(await page.locator('#convergeProgress').isVisible(), false);
    // The replay's progress took no keyboard focus and did not scroll the page to itself.
    assert.deepEqual(await page.evaluate(() => [window.scrollY, document.activeElement === document.body]), [0, true]);
    await page.waitForFunction(() => nwPage.debug.rowPool?.ready === true, undefined, { timeout: 20_000 });
    // Epochs computed on the page's thread (any trainer's own step) are counted.
    await page.evaluate(() => {
      window.stepsHere = 0;
      const { prototype } = nwPage.debug.session.nw.Trainer;
      const step = prototype.step;
      prototype.step = function countedStep() { window.stepsHere += 1; return step.call(this); };
    });
    await page.button('Regenerate').click(); // (settled: after the replay)
    const seed = Number(new URL(await page.url()).hash.match(/seed=(\d+)/)[1]);
    assert.notEqual(seed, 1);
    const regenerated = nw.generateData({ nTrain: 2000, nTest: 50, seed });
    assert.deepEqual(await page.evaluate(() => nwPage.debug.session.ws), trainerWs(regenerated, 20, lr));
    await epochShown(page, 20);
    assert.match(await page.url(), /trained=20(&|$)/);
    assert.equal(await page.evaluate(() => window.stepsHere), 0, 'the replay\'s epochs came from the pool');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('(http) Train at 2000 x 2000 with the heatmaps near the view: every heatmap comes from the worker, at most one block per device pixel', async () => {
    const page = await open(`${env.server.url}#nTrain=2000&nTest=2000`);
    // As the bench's reader: the nonparametric heatmap in the middle, the parametric one first drawn (its chart
    // created and laid out) while training.
    await page.evaluate(() => document.getElementById('nonparametricHeatmap').scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => nwPage.debug.idle && nwPage.debug.heatmapsOn === 'worker' && nwPage.debug.rowPool?.ready === true, undefined, { timeout: 20_000 });
    // Blocks computed on the page's thread (the session's, for a heatmap) are counted.
    await page.evaluate(() => {
      window.blocksHere = 0;
      const { session } = nwPage.debug;
      const blocks = session.blocks.bind(session);
      session.blocks = (...args) => { window.blocksHere += 1; return blocks(...args); };
    });
    await page.button('Train').click();
    await epochShown(page, 5);
    await page.waitForFunction(() => !nwPage.debug.playing && nwPage.debug.idle, undefined, { timeout: 30_000 });
    const fits = async (when) => {
      const shown = await page.evaluate(() => ['nonparametric', 'parametric'].map((part) => {
        const heatmap = nwPage.debug.heatmapChart(part);
        const { rows, cols } = heatmap.capacity();
        return { part, blockRows: heatmap.blocks.blockRows, blockCols: heatmap.blocks.blockCols, rows, cols };
      }));
      for (const { part, blockRows, blockCols, rows, cols } of shown) {
        assert.ok(blockRows <= rows && blockCols <= cols, `${when}, ${part}: ${blockRows} x ${blockCols} blocks in ${rows} x ${cols} pixels`);
      }
      return shown;
    };
    const trained = await fits('trained');
    assert.equal(await page.evaluate(() => window.blocksHere), 0, 'no heatmap computed on the page\'s thread');
    // A narrower window (one column: the heatmaps widen): the charts' new blocks come from the worker too.
    await page.resize({ width: 900, height: 1000 });
    await page.waitForFunction(() => nwPage.debug.idle, undefined, { timeout: 30_000 });
    const narrower = await fits('resized');
    assert.notEqual(narrower[0].cols, trained[0].cols, 'the heatmap was resized');
    assert.equal(await page.evaluate(() => window.blocksHere), 0, 'no heatmap computed on the page\'s thread after a resize');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('at the chapter\'s 50 samples no row worker is started, and Train runs on the page\'s thread', async () => {
    const page = await open(env.server.url);
    await page.button('Train').click();
    await epochShown(page, 5);
    assert.equal(await page.evaluate(() => nwPage.debug.rowPool), null);
    const data = nw.generateData({ nTrain: 50, nTest: 50, seed: 1 });
    assert.equal(Number(await page.locator('#status').attribute('data-w')), trainerWs(data, 5, 0.5)[5]);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
