// What the three engines do differently, tested in each: a lesson's sandboxed frame (Safari's engine
// refuses the page's own files there, so the page says what the author can do; the others load it),
// and no sideways scroll from a long select (WebKit counted its cut-off text as overflow of the page) at
// 375 px (in a frame: MiniBrowser's window is at least 447 px wide) and from 447 to 1300 px.
import assert from 'node:assert/strict';
import { translator } from '../../web/src/i18n/all.js';
import { inEachBrowser, lessonSite } from './browser.mjs';

const site = lessonSite({
  'sandboxed.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A sandboxed figure</title><link rel="icon" href="data:,"></head>
<body><iframe id="figure" sandbox="allow-scripts" src="index.html?embed=weights" title="Weights" style="width: 700px; height: 700px; border: 0"></iframe></body></html>`,
  'narrow.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A phone's width</title><link rel="icon" href="data:,"></head>
<body style="margin: 0"><iframe id="page" src="index.html" title="The page at 375 px" style="width: 375px; height: 812px; border: 0"></iframe></body></html>`,
});

// The text of the page's "cannot load here" message in its two languages, as index.html shows it.
const blockedText = (key) => translator('en')(key).replace('{0}', 'sandbox="allow-scripts"').replace('{1}', 'allow-same-origin').replace('{2}', '<nw-figure>');

inEachBrowser('what the engines do differently', (env) => {
  const { test } = env;

  test('a sandboxed frame: the figure where the engine loads it, else the words for the author', async () => {
    const lesson = await env.browser.newPage({ width: 900, height: 800 });
    await lesson.goto(site.url('sandboxed.html'), { waitReady: false });
    const frame = await lesson.frame('#figure');
    const state = await frame.waitForFunction(() => {
      const blocked = document.querySelector('.blocked');
      const shown = blocked && blocked.getClientRects().length > 0;
      const ready = document.querySelector('#loading[hidden]') !== null && window.nwPage?.debug.idle;
      return shown || ready ? { shown, ready: Boolean(ready), texts: [...document.querySelectorAll('.blocked p')].map((p) => p.textContent.replace(/\s+/g, ' ').trim()) } : null;
    });
    if (env.kind.key === 'webkit') {
      assert.deepEqual(state.shown, true, 'WebKit refuses the page\'s files in a sandbox: the message shows');
      assert.deepEqual(state.texts, [blockedText('page.blocked'), blockedText('page.blockedZh')]);
    } else {
      assert.deepEqual([state.shown, state.ready], [false, true], 'the figure loads, and the message stays hidden');
    }
    await lesson.close();
  });

  test('no sideways scroll at 375 px (in a frame) and from 447 to 1300 px', async () => {
    const lesson = await env.browser.newPage({ width: 900, height: 900 });
    await lesson.goto(site.url('narrow.html'), { waitReady: false });
    const frame = await lesson.frame('#page');
    await frame.waitForFunction(() => document.querySelector('#loading[hidden]') !== null && window.nwPage.debug.idle);
    // (Firefox draws a scrollbar in the frame: the page is then 363 px wide, as wide as it scrolls.)
    const [client, scroll, frameWidth] = await frame.evaluate(() => [document.documentElement.clientWidth, document.documentElement.scrollWidth, window.innerWidth]);
    assert.equal(frameWidth, 375);
    assert.ok(scroll <= client, `at 375 px the page scrolls sideways by ${scroll - client} px`);
    assert.deepEqual(lesson.problems, []);
    await lesson.close();
    const wide = [];
    for (const lang of ['en', 'zh']) {
      const page = await env.open(`${env.server.url}?lang=${lang}`, { width: 447, height: 800 });
      for (let width = 447; width <= 1300; width += 23) {
        await page.resize({ width, height: 800 });
        const [client, scroll] = await page.evaluate(() => [document.documentElement.clientWidth, document.documentElement.scrollWidth]);
        if (scroll > client) wide.push(`${lang} ${width}: ${scroll - client} px`);
      }
      assert.deepEqual(page.problems, []);
      await page.close();
    }
    assert.deepEqual(wide, [], 'no width at which the page scrolls sideways');
  });
});
