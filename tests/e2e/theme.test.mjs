// The colour themes: every point and line of the predictions chart stands at least 3:1 against its
// background in the light and the dark theme (WCAG 2.1, 1.4.11), measured from the rendered pixels;
// ?theme= sets an embed's theme whatever the reader's scheme, and <nw-figure> follows the lesson around
// it unless its theme attribute says otherwise.
import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { inEachBrowser, lessonSite } from './browser.mjs';
import { launchBrowser } from './drivers.mjs';

const site = lessonSite({
  'lesson-white.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>White lesson</title><link rel="icon" href="data:,"></head>
<body style="background: #ffffff; color: #222">
<nw-figure id="follows" figure="predictions"></nw-figure>
<nw-figure id="forced" figure="predictions" theme="dark"></nw-figure>
<nw-figure id="bad" figure="predictions" theme="blue"></nw-figure>
<script src="nw-figure.js"></script>
</body></html>`,
  'lesson-dark.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dark lesson</title><link rel="icon" href="data:,"></head>
<body style="background: #101418; color: #eee">
<nw-figure id="follows" figure="predictions"></nw-figure>
<script src="nw-figure.js"></script>
</body></html>`,
});

// In the page: the contrast against `background` of the rendered pixel at the centre of every training
// point and at every point of each line of a predictions chart: { points: [worst, count], lines: {...} }.
// where: { canvas: the page's canvas id } or { figure: a <nw-figure>'s id }.
function measureContrast(where) {
  const chart = where.figure ? document.getElementById(where.figure).charts[0] : nwPage.Chart.getChart(document.getElementById(where.canvas));
  const ratio = chart.currentDevicePixelRatio;
  const { width, height } = chart.canvas;
  // Read from a copy (a new canvas each time): reading the chart's own canvas more than once makes
  // Chromium warn on the console.
  const copy = document.createElement('canvas');
  Object.assign(copy, { width, height });
  const copyContext = copy.getContext('2d', { willReadFrequently: true });
  copyContext.drawImage(chart.canvas, 0, 0);
  const pixels = copyContext.getImageData(0, 0, width, height).data;
  const channels = (hex) => hex.match(/[0-9a-f]{2}/gi).map((pair) => parseInt(pair, 16));
  const background = channels(chart.$ink.background);
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrastOfPixel = (px, py) => {
    if (px < 0 || py < 0 || px >= width || py >= height) return null;
    const i = 4 * (py * width + px);
    const alpha = pixels[i + 3] / 255;
    const shown = [0, 1, 2].map((k) => pixels[i + k] * alpha + background[k] * (1 - alpha));
    const [a, b] = [luminance(shown), luminance(background)].sort((p, q) => q - p);
    return (a + 0.05) / (b + 0.05);
  };
  // The best of the pixels within 1 CSS px of (x, y): a point partly under another line's halo (drawn in
  // the background's colour) still shows in the rest of its disc.
  const contrastAt = (x, y) => {
    const found = [];
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) found.push(contrastOfPixel(Math.round((x + dx) * ratio), Math.round((y + dy) * ratio)));
    const seen = found.filter((v) => v !== null);
    return seen.length ? Math.max(...seen) : null;
  };
  const { x, y } = chart.scales;
  const worst = (list) => list.reduce((low, value) => Math.min(low, value), Infinity);
  const points = chart.data.datasets.flatMap((set) => set.trainingPoints ?? [])
    .map((p) => contrastAt(x.getPixelForValue(p.x), y.getPixelForValue(p.y))).filter((v) => v !== null);
  // A line: the median over its points (a dashed line's gaps show the background, by design).
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const lines = {};
  chart.data.datasets.forEach((set, index) => {
    if (set.type !== 'line' || !chart.isDatasetVisible(index) || set.data.length === 0 || set.label.startsWith('Query')) return;
    // (Average pooling is drawn from its two ends: measured along the segment between them.)
    const along = set.data.length === 2 ? Array.from({ length: 41 }, (_, i) => ({ x: set.data[0].x + (i / 40) * (set.data[1].x - set.data[0].x), y: set.data[0].y + (i / 40) * (set.data[1].y - set.data[0].y) })) : set.data;
    lines[set.label] = median(along.map((p) => contrastAt(x.getPixelForValue(p.x), y.getPixelForValue(p.y))).filter((v) => v !== null));
  });
  return { background: chart.$ink.background, points: [worst(points), points.length], lines };
}

function assertContrast(measured, context) {
  const [worstPoint, count] = measured.points;
  assert.ok(count >= 50, `${context}: ${count} points measured`);
  assert.ok(worstPoint >= 3, `${context}: the faintest training point is ${worstPoint.toFixed(2)}:1 against ${measured.background}`);
  for (const [label, ratio] of Object.entries(measured.lines)) assert.ok(ratio >= 3, `${context}: ${label} ${ratio.toFixed(2)}:1 against ${measured.background}`);
  assert.ok(Object.keys(measured.lines).length >= 3, `${context}: lines measured ${Object.keys(measured.lines)}`);
}

inEachBrowser('the colour themes', (env) => {
  const { test } = env;
  // A page in a browser of its own whose reader prefers `colorScheme` (Firefox takes a scheme only as a
  // preference of the whole browser); page.close() closes both. A test that fails before closing its
  // browsers has them closed after it (else their processes would keep the test file running).
  const launched = [];
  afterEach(async () => {
    await Promise.all(launched.splice(0).map((browser) => browser.close().catch(() => {})));
  });
  const open = async (url, { colorScheme, waitReady = true, ...size }) => {
    const browser = await launchBrowser(env.kind, { colorScheme });
    launched.push(browser);
    const page = await browser.newPage({ colorScheme, ...size });
    const close = page.close.bind(page);
    page.close = async () => { await close(); await browser.close(); };
    await page.goto(url, { waitReady });
    return page;
  };

  for (const theme of ['light', 'dark']) {
    test(`?theme=${theme}: every point and line of the predictions is at least 3:1 against the background, before and after training`, async () => {
      // The other scheme for the reader's system: the address wins.
      const page = await open(env.server.url.replace('index.html', `index.html?theme=${theme}`), { colorScheme: theme === 'dark' ? 'light' : 'dark' });
      const expected = { light: '#ffffff', dark: '#121212' }[theme];
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), theme === 'dark' ? 'rgb(18, 18, 18)' : 'rgb(255, 255, 255)');
      const before = await page.evaluate(measureContrast, { canvas: 'predictionsChart' });
      assert.equal(before.background, expected);
      assertContrast(before, `${theme}, untrained`);
      await page.button('Train').click();
      await page.waitForFunction(() => !nwPage.debug.busy && nwPage.debug.session.epoch === 5);
      assertContrast(await page.evaluate(measureContrast, { canvas: 'predictionsChart' }), `${theme}, trained`);
      // The caption's claim: "as large and as strongly coloured as the attention", in this theme too.
      const bands = await page.evaluate(() => {
        const chart = nwPage.Chart.getChart(document.getElementById('predictionsChart'));
        const channels = (hex) => hex.match(/[0-9a-f]{2}/gi).map((pair) => parseInt(pair, 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
        const luminance = (hex) => { const [r, g, b] = channels(hex); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
        return chart.data.datasets.filter((set) => set.trainingPoints).map((set) => ({ radius: set.pointRadius, contrast: contrast(set.backgroundColor, chart.$ink.background) }));
      });
      bands.slice(2).forEach((band, i) => {
        assert.ok(band.radius > bands[i + 1].radius, `band ${i + 2} larger than band ${i + 1}`);
        assert.ok(band.contrast > bands[i + 1].contrast, `band ${i + 2} more strongly coloured than band ${i + 1}: ${JSON.stringify(bands)}`);
      });
      await page.screenshot(`theme-${theme}`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('a ?theme= that is not a theme is named, and the reader\'s scheme is used', async () => {
    const page = await open(env.server.url.replace('index.html', 'index.html?theme=blue'), { colorScheme: 'dark' });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.match(await page.alert().text(), /theme must be one of auto, light, dark, not "blue": using/);
    await page.close();
  });

  test('<nw-figure> follows the lesson around it (not the reader\'s scheme) unless its theme attribute says otherwise, and is padded', async () => {
    const figureState = (page, id) => page.evaluate((figureId) => {
      const figure = document.getElementById(figureId);
      const style = getComputedStyle(figure);
      return { theme: figure.dataset.nwTheme, background: style.backgroundColor, padding: parseFloat(style.paddingLeft), alert: figure.shadowRoot.querySelector('[role="alert"]').hidden ? '' : figure.shadowRoot.querySelector('[role="alert"]').textContent };
    }, id);
    const drawn = (page, ids) => page.waitForFunction((list) => list.every((id) => document.getElementById(id).charts?.[0]?.data.datasets[3].data.length > 0), ids);
    const white = await open(site.url('lesson-white.html'), { colorScheme: 'dark', waitReady: false });
    await drawn(white, ['follows', 'forced', 'bad']);
    assert.deepEqual(await figureState(white, 'follows'), { theme: 'light', background: 'rgb(255, 255, 255)', padding: 8, alert: '' });
    assert.equal((await figureState(white, 'forced')).theme, 'dark');
    assert.equal((await figureState(white, 'forced')).background, 'rgb(18, 18, 18)');
    const bad = await figureState(white, 'bad');
    assert.equal(bad.theme, 'light');
    assert.match(bad.alert, /theme must be one of auto, light, dark, not "blue": using/);
    for (const id of ['follows', 'forced']) {
      assertContrast(await white.evaluate(measureContrast, { figure: id }), `<nw-figure id=${id}>`);
    }
    await white.close();
    const dark = await open(site.url('lesson-dark.html'), { colorScheme: 'light', waitReady: false });
    await drawn(dark, ['follows']);
    assert.equal((await figureState(dark, 'follows')).theme, 'dark');
    await dark.close();
  });
});
