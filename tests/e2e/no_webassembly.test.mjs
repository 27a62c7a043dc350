// A browser without WebAssembly (Safari's Lockdown Mode, a managed browser) or without its SIMD (an old
// engine): the page, an embed and <nw-figure> say so in the reader's language, with what to do, keep the
// chapter's text readable, and throw nothing uncaught. WebAssembly is removed (or made to refuse SIMD)
// before any of the page's scripts run.
import assert from 'node:assert/strict';
import { translator } from '../../web/src/i18n/all.js';
import { WEBASSEMBLY_BROWSERS } from '../../web/src/lib/webassembly.js';
import { inEachBrowser, lessonSite } from './browser.mjs';

const REMOVE = 'delete globalThis.WebAssembly;';
// An engine with WebAssembly but not its SIMD instructions refuses to validate such a module.
const NO_SIMD = `{ const validate = WebAssembly.validate; WebAssembly.validate = (bytes) => (bytes.length === 31 ? false : validate(bytes)); }`;
const words = { safari: 'Safari', browsers: WEBASSEMBLY_BROWSERS };

const site = lessonSite({
  'lesson.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,"></head><body>
<p>The lesson's own text.</p>
<nw-figure id="figure" figure="weights"></nw-figure>
<script src="nw-figure.js"></script>
</body></html>`,
});

// What a reader sees: the message, the headings and step texts shown, any figure or control shown,
// and whether the page scrolls sideways.
const seen = (page) => page.evaluate(() => {
  const visible = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
  const message = document.getElementById('message');
  return {
    message: visible(message) ? message.textContent : null,
    loading: visible(document.getElementById('loading')),
    texts: [...document.querySelectorAll('h1, h2, .step-text')].filter(visible).length,
    figures: [...document.querySelectorAll('canvas, input, select, button')].filter(visible).length,
    sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  };
});

inEachBrowser('without WebAssembly', (env) => {
  const { test } = env;

  const openWithout = async (url, script, size = { width: 1280, height: 800 }) => {
    const page = await env.browser.newPage(size);
    await page.beforeScripts(script);
    await page.goto(url, { waitReady: false });
    await page.waitForFunction(() => document.body.classList.contains('no-webassembly') || document.querySelector('nw-figure')?.shadowRoot?.querySelector('[role="alert"]:not([hidden])'));
    return page;
  };

  for (const [lang, size] of [['en', { width: 1280, height: 800 }], ['zh', { width: 375, height: 812 }]]) {
    test(`the page in ${lang} at ${size.width} px says what to do and keeps the chapter's text`, async () => {
      const page = await openWithout(`${env.server.url}?lang=${lang}`, REMOVE, size);
      const view = await seen(page);
      assert.equal(view.message, translator(lang)('problem.noWebAssembly', words));
      assert.equal(view.loading, false);
      assert.ok(view.texts >= 5, `the title, the steps' headings and texts: ${view.texts}`);
      assert.deepEqual([view.figures, view.sideways], [0, false], 'no empty figure or dead control, no sideways scroll');
      assert.deepEqual(page.problems, [], 'nothing uncaught, no console error');
      await page.close();
    });
  }

  test('an old engine without SIMD gets the same words, and an embed too', async () => {
    const page = await openWithout(`${env.server.url}?embed=weights&lang=zh`, NO_SIMD, { width: 640, height: 600 });
    const view = await seen(page);
    assert.equal(view.message, translator('zh')('problem.noWebAssembly', words));
    assert.equal(view.figures, 0);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('<nw-figure> says it in the figure, in the lesson\'s language', async () => {
    const page = await openWithout(site.url('lesson.html'), REMOVE);
    const alert = await page.evaluate(() => document.getElementById('figure').shadowRoot.querySelector('[role="alert"]').textContent);
    assert.equal(alert, translator('en')('figure.noWebAssembly', words));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
