// The shipped tutorial's copy-and-paste snippets, each pasted alone into a blank page (as a lesson author
// does): every figure spans the page's width, without a border, at a height that shows it whole.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { distDir, inEachBrowser, lessonSite } from './browser.mjs';

const tutorial = readFileSync(`${distDir}examples/tutorial.html`, 'utf8');
const unescape = (html) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const blocks = [...tutorial.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescape(m[1]));
const iframeBlock = blocks.find((block) => block.includes('<iframe'));
const componentBlock = blocks.find((block) => block.includes('<nw-figure'));
const loader = (block, name) => block.split('\n').find((line) => line.includes(`src="../${name}"`));
// One snippet each: an iframe (its lines up to </iframe>) with embed.js, or one <nw-figure> with nw-figure.js.
const iframes = [...iframeBlock.matchAll(/<iframe[\s\S]*?<\/iframe>/g)].map((m) => `${m[0]}\n${loader(iframeBlock, 'embed.js')}`);
const components = [...componentBlock.matchAll(/<nw-figure[\s\S]*?<\/nw-figure>/g)].map((m) => `${loader(componentBlock, 'nw-figure.js')}\n${m[0]}`);
const blank = (snippet) => `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Pasted</title><link rel="icon" href="data:,"></head><body>\n${snippet}\n</body></html>`;

// Beside the tutorial (dist/examples/), so that its "../" addresses hold as written.
const pasted = [...iframes, ...components].map((snippet, i) => [`examples/pasted-${i}.html`, snippet]);
const site = lessonSite(Object.fromEntries(pasted.map(([name, snippet]) => [name, blank(snippet)])));

inEachBrowser('the tutorial\'s snippets pasted alone', (env) => {
  const { test } = env;

  test('there is a snippet for each of the five figures, as an iframe and as <nw-figure>', () => {
    assert.equal(iframes.length, 5);
    assert.equal(components.length, 5);
  });

  for (const [name, snippet] of pasted) {
    const figure = snippet.match(/embed=(\w+)|figure="(\w+)"/).slice(1).find(Boolean);
    const element = snippet.includes('<iframe') ? 'iframe' : 'nw-figure';
    test(`${element} ${figure}: the page's width, no border, its figure whole`, async () => {
      const page = await env.browser.newPage({ width: 1000, height: 800 });
      await page.goto(site.url(name), { waitReady: false });
      // Sized once the figure has drawn and (for a frame) embed.js has set the frame's height.
      await page.waitForFunction((tag) => {
        const box = document.querySelector(tag).getBoundingClientRect();
        return tag === 'iframe' ? box.height > 200 && box.height !== 150 : box.height > 200;
      }, element, { timeout: 30_000 });
      await new Promise((resolve) => setTimeout(resolve, 500)); // the last resize
      const size = await page.evaluate((tag) => {
        const el = document.querySelector(tag);
        const style = getComputedStyle(el);
        return { width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height, border: parseFloat(style.borderTopWidth), page: document.body.clientWidth };
      }, element);
      assert.ok(size.width >= size.page - 1, `${size.width} px of the page's ${size.page}`);
      assert.equal(size.border, 0);
      assert.ok(size.height > 200 && size.height < 1200, `${size.height} px tall`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }
});
