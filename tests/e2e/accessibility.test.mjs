// axe-core's WCAG 2.x A and AA rules and its best practices (one h1, headings in order, landmarks) on the
// page: no violation at load, after training, in Chinese, in every embed, in a lesson of <nw-figure>s,
// at 375 px, in dark mode, and with the data and export panel open. The page's CSP admits only its own scripts, so axe
// is served from a copy of dist/ and added as a script of the page's own origin.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distDir, inEachBrowser, serveDir } from './browser.mjs';
import { launchBrowser } from './drivers.mjs';

const copy = { dir: null, server: null };
before(async () => {
  copy.dir = mkdtempSync(join(tmpdir(), 'nw-axe-'));
  cpSync(distDir, copy.dir, { recursive: true });
  copyFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), join(copy.dir, 'axe.min.js'));
  // A lesson of figures under its own headings: the figures' titles must fit its outline.
  writeFileSync(join(copy.dir, 'lesson.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,"></head>
<body><main><h1>Attention pooling</h1><p>The lesson's text.</p>
<nw-figure figure="predictions"></nw-figure>
<h2>The weights</h2>
<nw-figure figure="weights" caption="Each row is one query."></nw-figure>
<nw-figure figure="training" controls="none"></nw-figure>
<nw-figure figure="landscape"></nw-figure>
<nw-figure figure="kernels" lang="zh"></nw-figure></main>
<script src="nw-figure.js"></script></body></html>`);
  copy.server = await serveDir(copy.dir);
});
after(async () => {
  await copy.server?.close();
  rmSync(copy.dir, { recursive: true, force: true });
});

// The violations axe finds, as "rule: target" lines (empty when there are none).
async function violations(page) {
  await page.evaluate(() => new Promise((resolve, reject) => {
    if (window.axe) { resolve(); return; }
    const script = document.createElement('script');
    script.src = 'axe.min.js';
    script.onload = resolve;
    script.onerror = () => reject(new Error('axe.min.js did not load'));
    document.head.append(script);
  }));
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')} (${v.help})`);
  });
  return found;
}

inEachBrowser('accessibility (axe-core)', (env) => {
  const { test, open } = env;

  test('no violation at load, after training, and with the data and export panel open', async () => {
    const page = await open(copy.server.url);
    assert.deepEqual(await violations(page), [], 'at load');
    await page.button('Train').click();
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Epoch 5'));
    assert.deepEqual(await violations(page), [], 'after Train');
    await page.locator('details.more > summary').click();
    assert.deepEqual(await violations(page), [], 'with the panel open');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('no violation at 375 px, in Chinese, and in every embed', async () => {
    const embeds = ['1', 'predictions', 'weights', 'training', 'design', 'landscape', 'kernels'].map((figure) => [copy.server.url.replace('index.html', `index.html?embed=${figure}`), { width: 900, height: 700 }]);
    for (const [url, size] of [[copy.server.url, { width: 375, height: 812 }], [copy.server.url.replace('index.html', 'index.html?lang=zh'), { width: 1280, height: 800 }], ...embeds]) {
      const page = await open(url, size);
      assert.deepEqual(await violations(page), [], url);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('no violation in a lesson of <nw-figure>s, whose titles follow the lesson\'s headings', async () => {
    const page = await open(copy.server.url.replace('index.html', 'lesson.html'), { width: 1000, height: 800, waitReady: false });
    await page.waitForFunction(() => [...document.querySelectorAll('nw-figure')].every((figure) => figure.charts.length > 0 && figure.settings));
    assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('nw-figure')].map((figure) => figure.shadowRoot.querySelector('.title').getAttribute('aria-level'))),
      ['2', '3', '3', '3', '3']);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('in dark mode the page and its charts are dark, and nothing violates a rule', async () => {
    // Its own browser: Firefox takes a colour scheme only as a preference of the whole browser.
    const browser = await launchBrowser(env.kind, { colorScheme: 'dark' });
    try {
      const page = await browser.newPage({ colorScheme: 'dark' });
      await page.goto(copy.server.url);
      const colours = await page.evaluate(() => {
        const luminance = (css) => {
          const [r, g, b] = css.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
          return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        };
        // Any CSS colour as the browser computes it (rgb(...)), then its luminance.
        const of = (colour) => {
          const probe = document.createElement('span');
          probe.style.color = colour;
          document.body.append(probe);
          const computed = getComputedStyle(probe).color;
          probe.remove();
          return luminance(computed);
        };
        const chart = nwPage.Chart.getChart(document.getElementById('predictionsChart'));
        return { background: luminance(getComputedStyle(document.body).backgroundColor), text: luminance(getComputedStyle(document.body).color),
          ticks: of(chart.options.color), truth: of(chart.data.datasets[1].borderColor) };
      });
      assert.ok(colours.background < 0.1 && colours.text > 0.8, `a dark page with light text: ${JSON.stringify(colours)}`);
      assert.ok(colours.ticks > 0.7 && colours.truth > 0.9, `light axis text and a light truth line: ${JSON.stringify(colours)}`);
      await page.button('Train').click();
      await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Epoch 5'));
      assert.deepEqual(await violations(page), []);
      await page.screenshot('dark');
      assert.deepEqual(page.problems, []);
      await page.close();
    } finally {
      await browser.close();
    }
  });
});
