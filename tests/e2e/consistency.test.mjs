// The consistency figure on the page: Compute runs the module's points (in a worker over http) with a
// progress bar and Cancel, the chart shows exactly those points, and the note states their numbers.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { distDir, fileUrl, inEachBrowser } from './browser.mjs';
import { CONSISTENCY_NS, PAGE_MAX_N, consistencyPoint } from '../../web/src/model/consistency_point.js';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();
// Scrolled to, and pressed with the keyboard once the figures this brings near the view are drawn (a
// mouse click at a computed point can miss: each lazily created chart above the button moves it down).
async function pressCompute(page) {
  await page.evaluate(() => document.getElementById('consistencyFigure').scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => nwPage.debug.idle, undefined, { timeout: 60000 });
  await page.evaluate(() => document.getElementById('consistencyStart').focus());
  await page.raw.keyboard.press('Enter');
}
const chartData = (page, dataset) => page.evaluate((dataset) => nwPage.Chart.getChart(document.getElementById('consistencyChart')).data.datasets[dataset].data, dataset);

inEachBrowser('the consistency figure', (env) => {
  const { test, open } = env;

  test('Compute shows progress, then the module\'s points and a note with their numbers; computed in a worker', async () => {
    const page = await open(`${env.server.url}#seed=3`);
    assert.equal(await page.evaluate(() => document.getElementById('consistencyChart').parentElement.hidden), true, 'no empty chart before Compute');
    await pressCompute(page);
    await page.waitForFunction(() => !document.getElementById('consistencyProgress').hidden, undefined, { timeout: 60000 });
    assert.equal(await page.locator('#consistencyStart').isDisabled(), true);
    await page.waitForFunction(() => !document.getElementById('consistencyStart').disabled, undefined, { timeout: 180000 });
    assert.equal(await page.evaluate(() => document.getElementById('consistencyProgress').hidden), true);
    const points = await page.evaluate(() => nwPage.debug.consistency.list);
    assert.deepEqual(points.map((p) => p.n), CONSISTENCY_NS, 'every n, in order (two workers may finish out of it)');
    for (const n of [50, 2000]) {
      const expected = consistencyPoint(nw, n, 3);
      assert.deepEqual(points.find((p) => p.n === n), expected, `n = ${n} is the module's point`);
    }
    assert.deepEqual((await chartData(page, 0)).map((p) => [p.x, p.y]), points.map((p) => [p.n, p.selectedMse]));
    assert.deepEqual((await chartData(page, 1)).map((p) => [p.x, p.y]), points.map((p) => [p.n, p.fixedMse]));
    assert.deepEqual((await chartData(page, 2)).map((p) => [p.x, p.y]), points.map((p) => [p.n, p.w]));
    // A tick at every n measured, the first (50) included; the y labels short and apart.
    const axes = await page.evaluate(() => {
      const chart = nwPage.Chart.getChart(document.getElementById('consistencyChart'));
      const labelled = (scale) => scale.ticks.filter((tick) => tick.label !== '' && tick.label !== undefined)
        .map((tick) => ({ label: tick.label, pixel: scale.getPixelForValue(tick.value) }));
      return { x: chart.scales.x.ticks.map((tick) => tick.value), y: labelled(chart.scales.y), w: labelled(chart.scales.w), font: chart.options.font?.size ?? 12 };
    });
    assert.deepEqual(axes.x, points.map((p) => p.n));
    for (const axis of ['y', 'w']) {
      const labels = axes[axis];
      assert.ok(labels.length >= 2, `${axis}: ${JSON.stringify(labels)}`);
      labels.forEach(({ label }) => assert.match(label, /^[0-9.,]+$/, `${axis} label "${label}" in its fewest digits`));
      labels.forEach(({ label }) => assert.ok(!/\.\d*0$/.test(label), `${axis} label "${label}" has no trailing zero`));
      labels.slice(1).forEach((tick, i) => assert.ok(Math.abs(tick.pixel - labels[i].pixel) >= 1.2 * axes.font, `${axis}: "${labels[i].label}" and "${tick.label}" are ${Math.abs(tick.pixel - labels[i].pixel).toFixed(1)} px apart`));
    }
    await page.screenshot('consistency');
    const note = await page.locator('#consistencyNote').text();
    const [first, last] = [points[0], points.at(-1)];
    assert.ok(note.includes(`w grows from ${first.w.toPrecision(4)} (n = 50) to ${last.w.toPrecision(4)} (n = ${last.n.toLocaleString('en-US')})`), note);
    assert.ok(last.w > first.w && last.selectedMse < first.selectedMse, 'what the note says holds for these points');
    assert.ok(note.endsWith('Data from seed 3; computed in workers.'), note);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('Cancel stops the run, keeps the points so far and says so; the page stays usable (keyboard only)', async () => {
    const page = await open(fileUrl);
    await pressCompute(page);
    await page.waitForFunction(() => nwPage.debug.consistency.points >= 2, undefined, { timeout: 60000 });
    // With the keyboard: focus moved from Compute to Cancel when the run started, and comes back after.
    assert.equal(await page.evaluate(() => document.activeElement.id), 'consistencyCancel');
    await page.raw.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('consistencyProgress').hidden);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'consistencyStart');
    const kept = await page.evaluate(() => nwPage.debug.consistency.points);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await page.evaluate(() => nwPage.debug.consistency.points), kept, 'no point after Cancel');
    assert.equal(await page.evaluate(() => document.getElementById('consistencyProgress').hidden), true);
    assert.equal(await page.locator('#consistencyStart').isDisabled(), false);
    const where = await page.evaluate(() => nwPage.debug.consistency.where);
    const note = await page.locator('#consistencyNote').text();
    assert.ok(note.includes(where === 'worker' ? 'computed in workers' : "computed on the page's thread"), note);
    // The page's thread computes the sizes up to PAGE_MAX_N only, and counts them so.
    const total = where === 'worker' ? CONSISTENCY_NS.length : CONSISTENCY_NS.filter((n) => n <= PAGE_MAX_N).length;
    assert.ok(new RegExp(`So far \\d+ of the ${total} sizes\\.$`).test(note), note);
    if (env.name === 'chromium') assert.equal(where, 'page', 'Chromium starts no worker from file://');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
