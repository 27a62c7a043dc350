// The page as an explorable: a chart on the first screen at desktop and phone sizes, no sideways
// scrolling on small phones, the chart in view while w is tuned and training runs, and the query chosen
// on the chart or a heatmap row by mouse or tap but not moved by a swipe.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { distDir, inEachBrowser } from './browser.mjs';

const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();

// The predictions canvas's box and whether it is inside the window; the page's sideways overflow.
const firstScreen = (page) => page.evaluate(() => {
  const box = document.getElementById('predictionsChart').getBoundingClientRect();
  const layout = document.documentElement;
  return { top: box.top, bottom: box.bottom, overflow: layout.scrollWidth - layout.clientWidth, height: innerHeight };
});

// How much of the predictions canvas is inside the window now.
const chartInView = (page) => page.evaluate(() => {
  const box = document.getElementById('predictionsChart').getBoundingClientRect();
  return Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0)) / box.height;
});

const queryValue = (page) => page.evaluate(() => Number(document.getElementById('query').value));

inEachBrowser('the layout', (env) => {
  const { test, open } = env;

  for (const [width, height] of [[1280, 800], [375, 812]]) {
    test(`at ${width} x ${height} the predictions chart is on the first screen and stays in view by w and by Train`, async () => {
      const page = await open(env.server.url, { width, height });
      const first = await firstScreen(page);
      assert.ok(first.top >= 0 && first.top < height / 2, `the chart starts at ${first.top} px`);
      assert.ok(first.bottom <= height, `and ends at ${first.bottom} px, inside the ${height} px window`);
      assert.ok(first.overflow <= 0, `no sideways scrolling (${first.overflow} px)`);
      for (const control of ['#w', '#train']) {
        await page.evaluate((selector) => document.querySelector(selector).scrollIntoView({ block: 'end' }), control);
        const inView = await chartInView(page);
        assert.ok(inView > 0.95, `with ${control} in view, ${(100 * inView).toFixed(0)}% of the chart is too`);
      }
      await page.screenshot(`layout-${width}`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  // On a phone the sticky part (the chart and the query's controls) leaves the steps most of the screen,
  // held sideways nothing sticks, and each figure fits the view under whatever sticks.
  const stickyAndFigures = (page) => page.evaluate(() => {
    const hero = document.getElementById('figures');
    const sticky = getComputedStyle(hero).position === 'sticky' ? hero.getBoundingClientRect().height : 0;
    const figures = [...document.querySelectorAll('.steps figure')].filter((figure) => figure.getClientRects().length > 0)
      // The kernels' figure is a grid of four panels, each a figure of its own to the reader.
      .flatMap((figure) => (figure.querySelector('.kernel-panel') ? [...figure.querySelectorAll('.kernel-panel')] : [figure]))
      .map((figure) => [figure.querySelector('canvas, table')?.id ?? figure.className, Math.round(figure.getBoundingClientRect().height)]);
    return { sticky, height: innerHeight, figures };
  });
  for (const [width, height] of [[375, 667], [375, 812], [812, 375]]) {
    test(`at ${width} x ${height} the sticky chart takes at most 40% of the height (none sideways) and every figure fits under it`, async () => {
      const page = await open(env.server.url, { width, height });
      await page.evaluate(() => { document.querySelectorAll('details').forEach((details) => { details.open = true; }); });
      const { sticky, figures } = await stickyAndFigures(page);
      if (width > height) assert.equal(sticky, 0, 'sideways, nothing sticks');
      else assert.ok(sticky > 0 && sticky <= 0.4 * height, `the sticky part is ${sticky} px of ${height}`);
      const tooTall = figures.filter(([, figureHeight]) => figureHeight > height - sticky);
      assert.deepEqual(tooTall, [], `figures taller than the ${height - sticky} px left`);
      assert.ok((await firstScreen(page)).overflow <= 0, 'no sideways scrolling');
      await page.screenshot(`phone-${width}x${height}`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('on a phone "Hide chart" folds the sticky chart away, keeping the query\'s controls, and "Show chart" brings it back drawn', async () => {
    const page = await open(env.server.url, { width: 375, height: 812 });
    const hero = () => page.evaluate(() => ({
      height: document.getElementById('figures').getBoundingClientRect().height,
      chart: document.getElementById('predictionsChart').getBoundingClientRect().height,
      query: document.getElementById('query').getBoundingClientRect().height,
    }));
    const open1 = await hero();
    await page.button('Hide chart').click();
    const folded = await hero();
    assert.equal(folded.chart, 0);
    assert.ok(folded.query > 0 && folded.height < open1.height / 2, `folded: ${folded.height} px of ${open1.height}`);
    await page.button('Show chart').click();
    await page.waitForFunction((h) => document.getElementById('predictionsChart').getBoundingClientRect().height === h, open1.chart);
    assert.deepEqual(await hero(), open1);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  // Nothing a reader must read is cut off: every select's chosen option fits its box (measured in the
  // select's own font, with room for the arrow), and every table shows all its columns without scrolling
  // sideways, in both languages.
  for (const [width, height] of [[1280, 800], [375, 812]]) {
    for (const lang of ['en', 'zh']) {
      test(`at ${width} x ${height} (${lang}) no select's text and no table column is cut off`, async () => {
        const page = await open(`${env.server.url.replace('index.html', `index.html?lang=${lang}`)}#trained=3`, { width, height });
        await page.evaluate(() => { document.querySelectorAll('details').forEach((details) => { details.open = true; }); });
        const cut = await page.evaluate(() => {
          const context = document.createElement('canvas').getContext('2d');
          const selects = [...document.querySelectorAll('select')].filter((select) => select.getClientRects().length > 0).flatMap((select) => {
            const style = getComputedStyle(select);
            context.font = `${style.fontSize} ${style.fontFamily}`;
            const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16; // the arrow
            return [...select.options].map((option) => [select.id, option.text, Math.round(context.measureText(option.text).width), Math.round(room)])
              .filter(([, , text, space]) => text > space);
          });
          const tables = [...document.querySelectorAll('table')].filter((table) => table.getClientRects().length > 0)
            .map((table) => [table.id, table.scrollWidth, (table.closest('.scroll') ?? table.parentElement).clientWidth])
            .filter(([, tableWidth, room]) => tableWidth > room);
          return { selects, tables };
        });
        assert.deepEqual(cut, { selects: [], tables: [] });
        assert.deepEqual(page.problems, []);
        await page.close();
      });
    }
  }

  // Layout shifts are reported by Chromium only (Firefox has no layout-shift entries).
  test('nothing jumps after the first chart is drawn (cumulative layout shift, Chromium)', { skip: env.kind.key !== 'chromium' && 'only Chromium reports layout shifts (Firefox and WebKit have no layout-shift entries)' }, async () => {
    const page = await open(env.server.url);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const shifts = await page.evaluate(() => new Promise((resolve) => {
      new PerformanceObserver((list) => resolve(list.getEntries().map((e) => e.value))).observe({ type: 'layout-shift', buffered: true });
      setTimeout(() => resolve([]), 500);
    }));
    const total = shifts.reduce((a, b) => a + b, 0);
    assert.ok(total < 0.01, `cumulative layout shift ${total.toFixed(4)} (${shifts.length} shifts)`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('drawing a heatmap once scrolled to does not move what lies below it (2000 samples: its note is written before)', async () => {
    const page = await open(`${env.server.url}#nTrain=2000`);
    const place = () => page.evaluate(() => {
      const step = document.getElementById('step');
      return { top: Math.round(step.getBoundingClientRect().top + window.scrollY), note: document.getElementById('parametricNote').textContent };
    });
    const before = await place();
    assert.match(before.note, /^50 × 2000 weights shown as 50 × \d+ blocks/, 'the note is there before the heatmap is drawn');
    await page.evaluate(() => document.getElementById('parametricHeatmap').scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => nwPage.debug.idle && nwPage.Chart.getChart(document.getElementById('parametricHeatmap')) !== undefined);
    const after = await place();
    assert.equal(after.top, before.top, `Step moved from ${before.top} to ${after.top}: "${before.note}" became "${after.note}"`);
    assert.match(after.note, /^50 × 2000 weights shown as 50 × \d+ blocks/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  for (const width of [320, 360]) {
    test(`at ${width} px wide nothing scrolls sideways, the data panel open or not`, async () => {
      const page = await open(env.server.url, { width, height: 640 });
      assert.ok((await firstScreen(page)).overflow <= 0);
      await page.evaluate(() => { document.querySelectorAll('details').forEach((details) => { details.open = true; }); });
      assert.ok((await firstScreen(page)).overflow <= 0, 'with every panel open');
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('every figure has a caption', async () => {
    const page = await open(env.server.url);
    const uncaptioned = await page.evaluate(() => [...document.querySelectorAll('figure')].filter((figure) => !figure.querySelector(':scope > figcaption')?.textContent.trim()).map((figure) => figure.querySelector('canvas, table')?.id));
    assert.deepEqual(uncaptioned, []);
    await page.close();
  });

  test('at 375 px every control is a touch target of at least 24 x 24 px', async () => {
    const page = await open(env.server.url, { width: 375, height: 812 });
    await page.evaluate(() => { document.querySelector('details.more').open = true; });
    // (Links inside sentences are exempt, WCAG 2.5.8; the header's language link is a control.)
    const small = await page.evaluate(() => [...document.querySelectorAll('input, select, button, summary, textarea, header a')]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => { const { width, height } = element.getBoundingClientRect(); return [element.id || element.tagName, Math.round(width), Math.round(height)]; })
      .filter(([, width, height]) => width < 24 || height < 24));
    assert.deepEqual(small, []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('each figure below the first screen is created, computed and drawn once it comes near the view', async () => {
    const page = await open(env.server.url, { width: 1280, height: 800 });
    const canvases = { parametric: 'parametricHeatmap', w: 'wChart', landscape: 'landscapeChart', kernels: 'kernel-gaussian-heatmap' };
    // A heatmap's cells, or a chart's points (null before its chart is created).
    const points = (id) => page.evaluate((canvasId) => {
      const chart = nwPage.Chart.getChart(document.getElementById(canvasId));
      if (!chart) return null;
      return chart.$heatmap ? chart.$heatmap.cellCount : chart.data.datasets[0].data.length;
    }, id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const [part, id] of Object.entries(canvases)) assert.equal(await points(id), null, `${part}: far below the first screen, its chart not created yet`);
    for (const [part, id] of Object.entries(canvases)) {
      await page.evaluate((canvasId) => document.getElementById(canvasId).scrollIntoView(), id);
      for (let waited = 0; waited < 5000 && !await points(id); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(await points(id) > 0, `${part}: drawn once scrolled to`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the page is ready only once the browser has reported which figures are near the view, and then each of them is drawn', async () => {
    // The browser's reports come late here (as on a busy machine, where the module can be ready before
    // the first one): a render before them draws no figure below the first chart.
    const page = await env.browser.newPage({ height: 4000 }); // every figure near the view
    await page.beforeScripts(`{
      const Observer = window.IntersectionObserver;
      window.IntersectionObserver = class extends Observer {
        constructor(callback, options) { super((...report) => setTimeout(() => callback(...report), 1500), options); }
      };
    }`);
    await page.goto(env.server.url);
    const canvases = ['nonparametricHeatmap', 'parametricHeatmap', 'lossChart', 'wChart', 'landscapeChart', 'kernel-gaussian-heatmap', 'kernel-epanechnikov-predictions'];
    const created = await page.evaluate((ids) => ids.filter((id) => nwPage.Chart.getChart(document.getElementById(id))), canvases);
    assert.deepEqual(created, canvases);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('hovering a heatmap row chooses that row\'s query', async () => {
    const page = await open(`${env.server.url}#query=2.5`);
    const row = 10;
    const point = await page.evaluate((r) => {
      const chart = nwPage.Chart.getChart(document.getElementById('nonparametricHeatmap'));
      chart.canvas.scrollIntoView({ block: 'center' }); // (in view at load at this size, so already drawn)
      const rect = chart.canvas.getBoundingClientRect();
      const { left, right } = chart.chartArea;
      return { x: rect.left + (left + right) / 2, y: rect.top + chart.scales.y.getPixelForValue(r) };
    }, row);
    await page.mouse.move(point.x, point.y);
    const expected = await page.evaluate((r) => nwPage.debug.session.data.xTest[r], row);
    await page.waitForFunction((x) => Number(document.getElementById('query').value) === x, expected);
    assert.equal(await queryValue(page), expected);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a tap chooses the query; a swipe across the chart does not move it', async () => {
    const page = await open(`${env.server.url}#query=2.5`, { width: 375, height: 812 });
    // Touch events as a finger makes them: a swipe (start, moves, end) fires no click.
    const swipe = await page.evaluate(() => {
      const canvas = document.getElementById('predictionsChart');
      const rect = canvas.getBoundingClientRect();
      const at = (fx) => ({ clientX: rect.left + fx * rect.width, clientY: rect.top + rect.height / 2 });
      const fire = (type, fx) => {
        const init = { bubbles: true, cancelable: true, ...at(fx) };
        const event = typeof TouchEvent === 'function' && 'ontouchstart' in window
          ? new TouchEvent(type, { ...init, touches: type === 'touchend' ? [] : [new Touch({ identifier: 1, target: canvas, ...at(fx) })] })
          : new PointerEvent(type.replace('touch', 'pointer').replace('start', 'down').replace('end', 'up'), { ...init, pointerType: 'touch' });
        canvas.dispatchEvent(event);
      };
      fire('touchstart', 0.8);
      for (let fx = 0.8; fx > 0.2; fx -= 0.05) fire('touchmove', fx);
      fire('touchend', 0.2);
      return document.getElementById('query').value;
    });
    assert.equal(Number(swipe), 2.5, 'the swipe left the query where it was');
    const box = await page.locator('#predictionsChart').box();
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.6);
    await page.waitForFunction(() => Number(document.getElementById('query').value) !== 2.5);
    const tapped = await queryValue(page);
    assert.ok(tapped > 0.5 && tapped < 2, `the tap chose ${tapped}, where it landed`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the parametric estimator says it is untrained until it is trained, and w shows its bandwidth 1/w', async () => {
    const page = await open(env.server.url);
    const legend = () => page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[4].label);
    assert.equal(await legend(), 'Parametric (before training)');
    assert.match(await page.locator('#mse tbody').text(), /Parametric, before training/);
    assert.match(await page.locator('#parametricTitleW').text(), /^\(w0 = 0\.47, untrained\)$/);
    await page.button('Step').click();
    await page.waitForFunction(() => location.hash.includes('trained=1'));
    assert.equal(await legend(), 'Parametric (after 1 epoch)');
    assert.match(await page.locator('#mse tbody').text(), /Parametric, after 1 epoch/);
    assert.doesNotMatch(await page.locator('#parametricTitleW').text(), /untrained/);
    assert.equal(await page.locator('#wValue').text(), '1.00 · bandwidth 1/w = 1.00');
    await page.label('Distance scale w').set(4);
    assert.equal(await page.locator('#wValue').text(), '4.00 · bandwidth 1/w = 0.250');
    await page.label('Distance scale w').set(0);
    assert.equal(await page.locator('#wValue').text(), '0.00 · bandwidth 1/w = ∞');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the loss setting (the MXNet listing\'s halved loss) trains, goes into the URL and comes back', async () => {
    const page = await open(env.server.url, { height: 4000 }); // the landscape note near the view
    await page.label('Loss').select('halfSquared');
    await page.button('Step').click();
    await page.waitForFunction(() => location.hash.includes('trained=1'));
    const halved = Number((await page.locator('#epochTable tbody').text()).split(/\s+/)[1]);
    assert.match(await page.url(), /loss=halfSquared/);
    assert.match(await page.locator('#landscapeNote').text(), /half the leave-one-out cross-validation criterion/);
    const copy = await open(await page.url());
    assert.equal(await copy.label('Loss').value(), 'halfSquared');
    // A new loss replays the trained epochs under it: the same first epoch, at twice the loss.
    await copy.label('Loss').select('squared');
    await copy.waitForFunction(() => location.hash.includes('loss=squared') && location.hash.includes('trained=1'));
    const summed = Number((await copy.locator('#epochTable tbody').text()).split(/\s+/)[1]);
    assert.equal(halved.toFixed(5), (summed / 2).toFixed(5), `${halved} is half of ${summed}`);
    assert.deepEqual([...page.problems, ...copy.problems], []);
    await copy.close();
    await page.close();
  });

  test('the keyboard: a skip link to the figures, and Train keeps the focus on its controls', async () => {
    const page = await open(env.server.url);
    await page.raw.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the figures');
    const url = await page.url();
    await page.raw.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'figures');
    assert.equal(await page.url(), url, 'the settings in the hash are untouched');
    assert.equal(await page.alert().isVisible(), false);
    await page.evaluate(() => document.getElementById('train').focus());
    await page.raw.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'pause', 'while training, focus is on Pause');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Epoch 5'));
    await page.waitForFunction(() => document.activeElement.id === 'train');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

inEachBrowser('text alternatives', (env) => {
  const { test, open } = env;

  test('the predictions are one click away as a table of the module\'s numbers', async () => {
    const page = await open(`${env.server.url}#w=2`);
    assert.equal(await page.locator('#predictionsTable tbody tr').count(), 0, 'nothing is built while it is closed');
    await page.locator('#predictionsTableBox > summary').click();
    await page.waitForFunction(() => document.querySelectorAll('#predictionsTable tbody tr').length === 50);
    const data = nw.generateData({ seed: 1 });
    const line = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 2 });
    const row = await page.evaluate(() => Array.from(document.querySelectorAll('#predictionsTable tbody tr')[10].cells, (c) => c.textContent));
    assert.deepEqual(row.slice(0, 4), [data.xTest[10].toFixed(3), data.yTruth[10].toFixed(4), nw.averagePool(data.yTrain).toFixed(4), line[10].toFixed(4)]);
    await page.label('Distance scale w').set(5, ['change']);
    const changed = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 5 })[10].toFixed(4);
    await page.waitForFunction((expected) => document.querySelectorAll('#predictionsTable tbody tr')[10].cells[3].textContent === expected, changed);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the status live region is written only when its text changes', async () => {
    const page = await open(env.server.url);
    await page.evaluate(() => {
      window.statusWrites = 0;
      new MutationObserver((records) => { window.statusWrites += records.length; })
        .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
    });
    const box = await page.locator('#predictionsChart').box();
    for (let i = 0; i < 40; i++) await page.mouse.move(box.x + box.width * (0.2 + 0.01 * i), box.y + box.height / 2);
    await page.waitForFunction(() => Number(document.getElementById('query').value) !== 2.5);
    assert.equal(await page.evaluate(() => window.statusWrites), 0, '40 new queries, no new status');
    await page.button('Step').click();
    await page.waitForFunction(() => window.statusWrites > 0);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('each chart\'s text alternative carries the numbers it shows, and follows training', async () => {
    const page = await open(env.server.url);
    const label = (id) => page.locator(`#${id}`).attribute('aria-label');
    const data = nw.generateData({ seed: 1 });
    const mse = (w) => nw.meanSquaredError(nw.predict(data.xTest, data.xTrain, data.yTrain, { w }), data.yTruth).toFixed(3);
    const predictions = await label('predictionsChart');
    assert.match(predictions, new RegExp(`nonparametric at w = 1\\.00, test MSE ${mse(1)}`));
    assert.match(predictions, new RegExp(`parametric at learned w = ${data.w0.toFixed(2)} \\(before training\\), test MSE ${mse(data.w0)}`));
    assert.match(predictions, /query x = 2\.50/);
    assert.match(await label('nonparametricHeatmap'), /at w = 1\.00, 50 test inputs \(rows\) by 50 training inputs \(columns\)/);
    assert.match(await label('lossChart'), /no epoch has run yet/);
    await page.button('Step').click();
    await page.waitForFunction(() => location.hash.includes('trained=1'));
    const trainer = new nw.Trainer(data.xTrain, data.yTrain, { w0: data.w0 });
    const loss = trainer.step();
    assert.match(await label('lossChart'), new RegExp(`${loss.toFixed(4)} before the first step`));
    assert.match(await label('wChart'), new RegExp(`${trainer.w.toFixed(2)} after 1 epoch\\.`));
    assert.match(await label('parametricHeatmap'), new RegExp(`w = ${trainer.w.toFixed(2)} \\(after 1 epoch\\)`));
    trainer.delete();
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
