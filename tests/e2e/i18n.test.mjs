// The page in Chinese and English: ?lang=zh shows no English word in any text, label or chart (the few
// Latin names and symbols that stay are tests/page/english_allowed.mjs's), <html lang> follows, the
// language switch keeps every setting, a bad ?lang= is named in a message, and <nw-figure lang>.
import assert from 'node:assert/strict';
import { englishWords } from '../page/english_allowed.mjs';
import { fileUrl, inEachBrowser, lessonSite } from './browser.mjs';

// Every text a reader can see or hear: visible text nodes (outside formulas and code), the options of
// selects, accessible names and titles, placeholders, alt texts, the document's title, and each chart's
// axis titles, legend entries and tooltip lines (Chart.js draws them on canvases).
function collectTexts() {
  const texts = [];
  const add = (where, text) => { if (text && text.trim()) texts.push({ where, text: text.trim() }); };
  const name = (element) => (element.id ? `#${element.id}` : element.tagName.toLowerCase());
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || element.closest('math, code, script, style')) continue;
    const option = element.closest('option');
    if (!option && (element.getClientRects().length === 0 || getComputedStyle(element).visibility === 'hidden')) continue;
    add(name(option ?? element), node.textContent);
  }
  for (const attribute of ['aria-label', 'title', 'placeholder', 'alt']) {
    for (const element of document.querySelectorAll(`[${attribute}]`)) add(`${name(element)}[${attribute}]`, element.getAttribute(attribute));
  }
  add('title', document.title);
  for (const canvas of document.querySelectorAll('canvas')) {
    const chart = nwPage.Chart.getChart(canvas);
    if (!chart) continue;
    for (const [axis, scale] of Object.entries(chart.options.scales ?? {})) {
      if (scale.title?.display) add(`${canvas.id} axis ${axis}`, scale.title.text);
    }
    if (chart.options.plugins.legend.display !== false) {
      for (const item of chart.legend?.legendItems ?? []) add(`${canvas.id} legend`, item.text);
    }
    for (const body of chart.tooltip?.body ?? []) for (const line of body.lines) add(`${canvas.id} tooltip`, line);
  }
  return texts;
}

const englishIn = (texts) => texts.map(({ where, text }) => ({ where, text, words: englishWords(text) })).filter(({ words }) => words.length > 0);

// Scrolls to each figure in turn, so that the figures drawn once near the view are drawn (a chart is
// created only then: until it is, Chart.getChart gives undefined).
async function scrollThrough(page) {
  for (const id of ['nonparametricHeatmap', 'lossChart', 'wChart', 'parametricHeatmap', 'kernelPanels', 'landscapeChart', 'exerciseList']) {
    await page.evaluate((target) => document.getElementById(target).scrollIntoView({ block: 'center' }), id);
    // Each figure is waited for while it is in view (scrolled past at once, it might never be drawn).
    if (id.endsWith('Heatmap')) await page.waitForFunction((target) => nwPage.Chart.getChart(document.getElementById(target))?.$heatmap.cellCount > 0, id);
    if (id === 'kernelPanels') await page.waitForFunction(() => nwPage.Chart.getChart(document.getElementById('kernel-epanechnikov-heatmap'))?.$heatmap.cellCount > 0);
    if (id === 'landscapeChart') await page.waitForFunction(() => nwPage.Chart.getChart(document.getElementById('landscapeChart'))?.data.datasets[0].data.length > 0);
  }
}

// Hovers the middle of a heatmap until Chart.js shows the tooltip of the cell there.
async function hoverHeatmap(page, id) {
  const point = await page.evaluate((target) => {
    const chart = nwPage.Chart.getChart(document.getElementById(target));
    chart.canvas.scrollIntoView({ block: 'center' });
    const { left, top, width, height } = chart.chartArea;
    const rect = chart.canvas.getBoundingClientRect();
    return { x: rect.left + left + width / 2, y: rect.top + top + height / 2 };
  }, id);
  await page.mouse.move(point.x, point.y);
  await page.waitForFunction((target) => nwPage.Chart.getChart(document.getElementById(target)).tooltip.opacity > 0, id);
}

const site = lessonSite({
  'lesson-zh.html': `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>课程</title><link rel="icon" href="data:,"></head><body>
<nw-figure id="training" figure="training"></nw-figure>
<nw-figure id="weights" figure="weights" lang="en"></nw-figure>
<script src="nw-figure.js"></script>
</body></html>`,
});

// The texts of a <nw-figure>'s shadow root: its visible text, accessible names, and its charts' texts.
const figureTexts = (page, id) => page.evaluate((figureId) => {
  const figure = document.getElementById(figureId);
  const texts = [...figure.shadowRoot.querySelectorAll('h3, label, button, figcaption, .status, .note, .problem:not([hidden])')].map((e) => e.textContent);
  texts.push(...[...figure.shadowRoot.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')));
  for (const chart of figure.charts) {
    for (const scale of Object.values(chart.options.scales)) if (scale.title?.display) texts.push(scale.title.text);
    for (const item of chart.legend?.legendItems ?? []) texts.push(item.text);
  }
  return texts.filter((text) => text.trim()).map((text) => ({ where: figureId, text }));
}, id);

inEachBrowser('the page in Chinese and English', (env) => {
  const { test, open } = env;

  test('the tests\' browser prefers English, so the page is English without ?lang=', async () => {
    const page = await open(env.server.url);
    assert.match(await page.evaluate(() => navigator.language), /^en/);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.evaluate(() => document.title), 'Attention pooling: Nadaraya-Watson kernel regression');
    assert.equal(await page.locator('#languageSwitch').text(), '中文');
    await page.close();
  });

  for (const [width, height] of [[1280, 800], [375, 812]]) {
    test(`?lang=zh at ${width}x${height}: no English word in any text, label, title or chart, <html lang="zh-Hans">`, async () => {
      // The wide one with local-linear pooling on, so that its notes (predictions, heatmaps) are among the texts.
      const localLinear = width > 1000;
      const page = await open(`${env.server.url}?lang=zh${localLinear ? '#estimator=localLinear' : ''}`, { width, height });
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
      assert.equal(await page.evaluate(() => document.title), '注意力汇聚：Nadaraya-Watson 核回归');
      // Every part shown: the figures drawn, the closed panels opened, one epoch trained, a tooltip up.
      await page.evaluate(() => { for (const details of document.querySelectorAll('details')) details.open = true; });
      await scrollThrough(page);
      await page.button('单步').click();
      await page.waitForFunction(() => /第 1 个迭代周期/.test(document.getElementById('status').textContent));
      await scrollThrough(page);
      await hoverHeatmap(page, 'nonparametricHeatmap');
      const texts = await page.evaluate(collectTexts);
      assert.ok(texts.length > 150, `${texts.length} texts`);
      assert.ok(texts.some(({ where }) => where === 'nonparametricHeatmap tooltip'), 'the tooltip is among them');
      assert.ok(texts.some(({ where }) => where === 'predictionsChart legend'), 'the legend is among them');
      if (localLinear) {
        for (const id of ['#estimatorNote', '#weightsEstimatorNote']) assert.ok(texts.some(({ where, text }) => where === id && text.length > 20), `${id} is among them`);
      }
      assert.ok(texts.some(({ where, text }) => where === '#landscapeNote' && text.includes('AICc')), 'the landscape note with the AIC');
      assert.deepEqual(englishIn(texts), []);
      // Chinese labels fit their buttons: no button's text is wider than the button.
      const overflowing = await page.evaluate(() => [...document.querySelectorAll('button')]
        .filter((button) => button.getClientRects().length > 0 && button.scrollWidth > button.clientWidth + 1).map((button) => button.textContent));
      assert.deepEqual(overflowing, []);
      assert.deepEqual(page.problems, []);
      await page.screenshot(`i18n-zh-${width}`);
      await page.close();
    });
  }

  test('the language switch goes to English and back, keeping every setting, a changed one too', async () => {
    const page = await open(`${env.server.url}?lang=zh#seed=3&kernel=epanechnikov`);
    await page.label('距离缩放 w').set('2.5');
    await page.label('迭代周期数').set('7');
    await page.locator('#languageSwitch').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en' && document.querySelector('#loading[hidden]') !== null);
    assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('lang')), 'en');
    assert.equal(await page.label('Distance scale w').value(), '2.5');
    assert.equal(await page.label('Epochs').value(), '7');
    assert.equal(await page.label('Seed').value(), '3');
    assert.equal(await page.label('Kernel').value(), 'epanechnikov');
    assert.equal(await page.button('Train').isVisible(), true);
    assert.equal(await page.locator('#languageSwitch').text(), '中文');
    await page.locator('#languageSwitch').click();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans' && document.querySelector('#loading[hidden]') !== null);
    assert.equal(await page.label('距离缩放 w').value(), '2.5');
    assert.equal(await page.button('训练').isVisible(), true);
    // Following the link leaves the page while its drag preview's worker may still be loading nw.js:
    // Chromium reports that request as aborted, which is the navigation's doing, not a problem.
    assert.deepEqual(page.problems.filter((problem) => !/^request failed: .*\/(nw|heatmap_worker)\.js net::ERR_ABORTED$/.test(problem)), []);
    await page.close();
  });

  test('a bad ?lang= is named in a message and the page stays in the browser\'s language', async () => {
    const page = await open(`${env.server.url}?lang=xx#w=3`);
    assert.equal(await page.alert().text(), 'Language (lang) must be one of en, zh');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.label('Distance scale w').value(), '3', 'the other settings still apply');
    await page.close();
  });

  test('?lang=zh from file:// too (the Chinese texts are a script of their own beside page.js)', async () => {
    const page = await open(`${fileUrl}?lang=zh`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
    assert.equal(await page.button('训练').isVisible(), true);
    assert.equal(await page.evaluate(() => nwPage.Chart.getChart(document.getElementById('predictionsChart')).data.datasets[1].label), '真实函数');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('an embed takes ?lang= too', async () => {
    const page = await open(`${env.server.url}?embed=weights&lang=zh`);
    assert.equal(await page.locator('#stepNonparametricTitle').count(), 1);
    assert.equal(await page.label('距离缩放 w').isVisible(), true);
    await page.close();
  });

  test('<nw-figure> speaks the lesson\'s language, or its lang attribute\'s, and changes with it', async () => {
    const page = await open(site.url('lesson-zh.html'), { waitReady: false });
    const drawn = (id) => page.waitForFunction((figureId) => document.getElementById(figureId)?.charts?.length > 0
      && document.getElementById(figureId).charts.every((chart) => chart.data.datasets.some((set) => set.data.length > 0) || chart.$heatmap?.cellCount > 0), id);
    await drawn('training');
    await drawn('weights');
    assert.deepEqual(englishIn(await figureTexts(page, 'training')), [], 'a lesson in zh-CN: Chinese');
    const english = await figureTexts(page, 'weights');
    assert.ok(english.some(({ text }) => text === 'Distance scale w'), 'lang="en": English');
    await page.evaluate(() => document.getElementById('weights').setAttribute('lang', 'zh'));
    await page.waitForFunction(() => document.getElementById('weights').shadowRoot.querySelector('label').textContent === '距离缩放 w');
    await drawn('weights');
    assert.deepEqual(englishIn(await figureTexts(page, 'weights')), []);
    await page.evaluate(() => document.getElementById('weights').setAttribute('lang', 'xx'));
    await page.waitForFunction(() => document.getElementById('weights').shadowRoot.querySelector('.problem:not([hidden])')?.textContent.includes('语言（lang）必须是以下之一：en, zh'));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
