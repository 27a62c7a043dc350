// The recipes of docs/embedding.md ("Lessons that are not hand-written HTML"), read from the document
// and built into the page each tool makes from them, without installing the tools (the project takes no
// new dependency for them): Jupyter's IFrame (run by IPython where this machine's Python has it, else
// its template), a Markdown HTML block kept as it is (MkDocs, Jupyter Book's MyST), MDX's JSX rendered
// as React renders an iframe (compiled by the project's esbuild), and each tool's way of adding
// embed.js. Every figure must load and show whole; and the "served, not opened as a file" rule holds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { distDir, inEachBrowser, lessonSite } from './browser.mjs';

const doc = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
// The fenced block (or table) after <!-- recipe: name -->.
const recipe = (name) => {
  const after = doc.split(`<!-- recipe: ${name} -->\n`)[1];
  assert.ok(after, `docs/embedding.md has the recipe ${name}`);
  const fenced = after.match(/^```\w*\n([\s\S]*?)\n```/);
  return fenced ? fenced[1] : after.split('\n\n')[0];
};
const HOST = 'https://YOUR-HOST/nadaraya-watson/';
const FIGURES = ['predictions', 'weights', 'training', 'landscape', 'kernels'];

// Jupyter: the HTML IFrame(...) shows (the recipe's last line is the cell's value).
const IFRAME_TEMPLATE = (src, width, height) => `<iframe width="${width}" height="${height}" src="${src}" frameborder="0" allowfullscreen></iframe>`;
function jupyterHtml(code) {
  const lines = code.trim().split('\n');
  const last = lines.pop();
  const python = spawnSync('python3', ['-c', `${lines.join('\n')}\nprint((${last})._repr_html_())`], { encoding: 'utf8' });
  const args = last.match(/IFrame\("([^"]+)", width="([^"]+)", height=(\d+)\)/);
  assert.ok(args, 'the recipe calls IFrame(src, width=..., height=...)');
  const fromTemplate = IFRAME_TEMPLATE(args[1], args[2], args[3]);
  if (python.status !== 0) return { html: fromTemplate, by: 'template' };
  // Where IPython runs, its output is the template's (the same element and attributes).
  const squeezed = python.stdout.replace(/\s+/g, ' ').replace(/\s*(>|<)\s*/g, '$1').replace(/ >/g, '>').trim();
  assert.equal(squeezed, fromTemplate, 'IPython\'s IFrame makes the element the template does');
  return { html: python.stdout, by: 'IPython' };
}

// Markdown: blocks between blank lines; an HTML block (its first line a complete opening tag, as
// CommonMark and Python-Markdown require) is kept as it is, any other block is a paragraph.
function markdownHtml(markdown) {
  return markdown.trim().split(/\n\s*\n/).map((block) => {
    if (!block.startsWith('<')) return `<p>${block}</p>`;
    assert.match(block.split('\n')[0], /^<[a-z]+(\s+[a-z-]+="[^"]*")*\s*>/, 'an HTML block opens with a whole tag on its first line');
    return block;
  }).join('\n');
}

// MDX: the JSX compiled by esbuild, and rendered as React DOM renders these props (a style must be an
// object, as React requires; className and htmlFor as attributes).
const REACT_LIKE = `function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (name === 'style') {
      if (typeof value !== 'object') throw new Error('The style prop expects a mapping from style properties to values, not a string.');
      for (const [property, v] of Object.entries(value)) element.style[property] = typeof v === 'number' && v !== 0 ? v + 'px' : String(v);
    } else element.setAttribute(name === 'className' ? 'class' : name === 'htmlFor' ? 'for' : name, value);
  }
  element.append(...children);
  return element;
}`;
const mdxScript = (jsx) => `${REACT_LIKE}\ndocument.getElementById('root').append(${transformSync(jsx, { loader: 'jsx', jsxFactory: 'h' }).code.trim().replace(/;$/, '')});`;

const page = ({ head = '', body, end = '' }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,">${head}</head>
<body style="margin: 0 auto; max-width: 900px"><main>${body}</main>${end}</body></html>`;
const scriptOf = (config) => config.match(/https:\/\/YOUR-HOST\/nadaraya-watson\/embed\.js/)[0];

const jupyter = jupyterHtml(recipe('jupyter'));
// The documented heights: the table's first row names the figures, its last gives their heights.
const heightRows = recipe('jupyter-heights').split('\n').filter((line) => line.startsWith('|') && !/^\|\s*---/.test(line))
  .map((line) => line.split('|').slice(2, -1).map((cell) => cell.trim()));
const heights = Object.fromEntries(heightRows[0].map((figure, i) => [figure, Number(heightRows.at(-1)[i])]));

// Records the nw:resize messages each frame of a lesson posts, by the frame's id.
const LISTEN = `<script>window.resized = {};
window.addEventListener('message', (event) => {
  if (!event.data || event.data.type !== 'nw:resize') return;
  const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === event.source);
  if (frame) window.resized[frame.id] = event.data.height;
});</script>`;

const files = {
  'jupyter.html': page({ body: `<div class="jp-OutputArea-output">${jupyter.html}</div>` }),
  'mkdocs.html': page({ body: markdownHtml(recipe('mkdocs-page')), end: `<script src="${scriptOf(recipe('mkdocs-config'))}"></script>` }),
  'docusaurus.html': page({
    head: `<script src="${scriptOf(recipe('docusaurus-config'))}"${/defer: true/.test(recipe('docusaurus-config')) ? ' defer' : ''}></script>`,
    body: '<div id="root"></div>',
    end: '<script src="docusaurus-page.js"></script>',
  }),
  'docusaurus-page.js': mdxScript(recipe('docusaurus-page')),
  'jupyter-book.html': page({ head: `<script src="${scriptOf(recipe('jupyter-book-config'))}"></script>`, body: markdownHtml(recipe('jupyter-book-page')) }),
  // For each figure, the notebook's frame at the documented height (no embed.js sizes it).
  ...Object.fromEntries(FIGURES.map((figure) => [`jupyter-${figure}.html`,
    page({ body: `<div class="jp-OutputArea-output">${IFRAME_TEMPLATE(`${HOST}index.html?embed=${figure}`, '100%', heights[figure])}</div>` })])),
  // The rule: a served lesson cannot frame a file, and a lesson opened as a file cannot load a
  // sandboxed frame; beside each, a frame that does load (so that the listener is seen to hear).
  'framing-a-file.html': page({
    head: LISTEN,
    body: `<iframe id="file" src="${pathToFileURL(`${distDir}index.html`).href}?embed=weights" title="From disk" style="width: 100%; border: 0"></iframe>
<iframe id="served" src="index.html?embed=weights" title="Served" style="width: 100%; border: 0"></iframe>`,
  }),
  'file-lesson.html': page({
    head: LISTEN,
    body: `<iframe id="sandboxed" sandbox="allow-scripts" src="index.html?embed=weights" title="Sandboxed" style="width: 100%; border: 0"></iframe>
<iframe id="plain" src="index.html?embed=weights" title="Plain" style="width: 100%; border: 0"></iframe>`,
  }),
};
const site = lessonSite(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, text.replaceAll(HOST, '')])));

// The frame's figure drawn, and how tall the frame and its content are.
const frameShown = async (lesson, selector = 'iframe') => {
  const frame = await lesson.frame(selector);
  await frame.waitForFunction(() => document.querySelector('#loading[hidden]') !== null && window.nwPage.debug.idle, undefined, { timeout: 30_000 });
  return {
    content: await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height)),
    frame: await lesson.evaluate((css) => document.querySelector(css).getBoundingClientRect().height, selector),
    width: await lesson.evaluate((css) => document.querySelector(css).getBoundingClientRect().width, selector),
  };
};

inEachBrowser('the recipes for notebooks and Markdown sites', (env) => {
  const { test } = env;

  test(`Jupyter: the recipe's IFrame (${jupyter.by}) shows its figure in the output's width`, async () => {
    const lesson = await env.browser.newPage({ width: 1000, height: 800 });
    await lesson.goto(site.url('jupyter.html'), { waitReady: false });
    const shown = await frameShown(lesson);
    assert.ok(shown.width >= 890, 'the whole width of the output');
    assert.ok(shown.content <= shown.frame, `its figure whole: ${shown.content} px in ${shown.frame}`);
    assert.deepEqual(lesson.problems, []);
    await lesson.close();
  });

  test('Jupyter: each documented height shows its figure whole from 600 to 1000 px wide', async () => {
    assert.deepEqual(Object.keys(heights), FIGURES);
    for (const figure of FIGURES) {
      for (const width of [600, 800, 1000]) {
        const lesson = await env.browser.newPage({ width, height: 800 });
        await lesson.goto(site.url(`jupyter-${figure}.html`), { waitReady: false });
        const shown = await frameShown(lesson);
        assert.equal(shown.frame, heights[figure]);
        assert.ok(shown.content <= shown.frame, `${figure} at ${width} px: ${shown.content} px of content in ${shown.frame}`);
        assert.deepEqual(lesson.problems, []);
        await lesson.close();
      }
    }
  });

  for (const [name, tool] of [['mkdocs', 'MkDocs'], ['docusaurus', 'Docusaurus (MDX)'], ['jupyter-book', 'Jupyter Book (MyST)']]) {
    test(`${tool}: the frame loads its figure and embed.js sizes it to the figure`, async () => {
      const lesson = await env.browser.newPage({ width: 900, height: 800 });
      await lesson.goto(site.url(`${name}.html`), { waitReady: false });
      await frameShown(lesson);
      // embed.js has set the frame's height to its content's.
      const sized = await lesson.waitForFunction(() => {
        const frame = document.querySelector('iframe');
        const inner = frame.contentDocument && Math.ceil(frame.contentDocument.documentElement.getBoundingClientRect().height);
        return inner > 300 && Math.abs(frame.getBoundingClientRect().height - inner) <= 1 ? { inner, border: getComputedStyle(frame).borderTopWidth } : null;
      });
      assert.equal(sized.border, '0px');
      assert.deepEqual(lesson.problems, []);
      await lesson.close();
    });
  }

  test('served, not opened as a file: a served lesson cannot frame the page from disk, a lesson from disk cannot load a sandboxed frame', async () => {
    const served = await env.browser.newPage({ width: 900, height: 800 });
    await served.goto(site.url('framing-a-file.html'), { waitReady: false });
    await served.waitForFunction(() => window.resized.served > 0);
    await served.evaluate(() => new Promise((resolve) => { setTimeout(resolve, 2000); }));
    assert.deepEqual(await served.evaluate(() => Object.keys(window.resized)), ['served']);
    await served.close();
    const fromDisk = await env.browser.newPage({ width: 900, height: 800 });
    await fromDisk.goto(pathToFileURL(`${site.dir}/file-lesson.html`).href, { waitReady: false });
    await fromDisk.waitForFunction(() => window.resized.plain > 0, undefined, { timeout: 30_000 });
    await fromDisk.evaluate(() => new Promise((resolve) => { setTimeout(resolve, 2000); }));
    assert.deepEqual(await fromDisk.evaluate(() => Object.keys(window.resized)), ['plain']);
    await fromDisk.close();
  });
});
