// One small page API over three browsers: Debian's Chromium through playwright-core, Firefox ESR through
// puppeteer-core (WebDriver BiDi; Playwright's Firefox needs its own patched build) and WebKitGTK
// through its classic WebDriver (webkit.mjs). Finding
// and using controls runs inside the page (inPage below), so both browsers are driven the same way.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { newFileAfter } from './downloads.mjs';
import { webkitKind } from './webkit.mjs';

export const artifactsDir = fileURLToPath(new URL('../../artifacts/', import.meta.url));

export const browserKinds = {
  chromium: {
    name: 'Chromium',
    launch: () => chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    }),
    // Playwright: waitForFunction(fn, arg, options); console warnings are 'warning'.
    waitForFunction: (page, fn, arg, options) => page.waitForFunction(fn, arg, options),
    setFiles: (input, path) => input.setInputFiles(path),
    beforeScripts: (page, source) => page.addInitScript(source),
    newPage: async (browser, viewport, folder, colorScheme) => {
      const context = await browser.newContext({ viewport, acceptDownloads: true, colorScheme });
      return { page: await context.newPage(), context };
    },
    // Playwright reports the download; it is saved under the name the page gave it.
    download: async (page, click, folder) => {
      const [file] = await Promise.all([page.waitForEvent('download'), click()]);
      const name = file.suggestedFilename();
      await file.saveAs(join(folder, name));
      return name;
    },
  },
  firefox: {
    name: 'Firefox ESR',
    // Puppeteer cannot emulate media features over BiDi, so a colour scheme is a preference of the
    // whole browser (0: dark, 1: light).
    launch: ({ colorScheme } = {}) => puppeteer.launch({
      browser: 'firefox', executablePath: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr', headless: true,
      extraPrefsFirefox: colorScheme ? { 'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1 } : {},
    }),
    // Puppeteer: waitForFunction(fn, options, ...args); console warnings are 'warn'.
    waitForFunction: (page, fn, arg, options) => page.waitForFunction(fn, options, arg),
    setFiles: (input, path) => input.uploadFile(path),
    beforeScripts: (page, source) => page.evaluateOnNewDocument(source),
    newPage: async (browser, viewport, folder, colorScheme) => {
      const context = await browser.createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: folder } });
      const page = await context.newPage();
      await page.setViewport(viewport);
      if (colorScheme && colorScheme !== browser.colorScheme) throw new Error(`Firefox: launch the browser with { colorScheme: '${colorScheme}' } for such a page`);
      return { page, context };
    },
    // Puppeteer has no download event over BiDi: Firefox saves into the context's folder.
    download: (page, click, folder) => newFileAfter(folder, click),
  },
};

browserKinds.webkit = webkitKind;

// NW_BROWSERS=chromium,firefox,webkit (the default) picks the browsers the tests run in (webkit: see
// webkit.mjs).
export function selectedBrowsers() {
  const keys = (process.env.NW_BROWSERS || 'chromium,firefox,webkit').split(',').map((key) => key.trim()).filter(Boolean);
  for (const key of keys) {
    if (!browserKinds[key]) throw new Error(`NW_BROWSERS: unknown browser "${key}" (known: ${Object.keys(browserKinds).join(', ')})`);
  }
  return keys.map((key) => ({ key, ...browserKinds[key] }));
}

// options.colorScheme: the reader's preference for every page of this browser ('dark' or 'light').
export async function launchBrowser(kind, options = {}) {
  const browser = await kind.launch(options);
  browser.colorScheme = options.colorScheme;
  return {
    kind,
    // A page in a fresh context (no storage shared with other pages) that records problems; colorScheme
    // 'dark' or 'light' emulates the reader's preference (default: the browser's).
    newPage: async ({ width = 1280, height = 1000, colorScheme } = {}) => {
      const folder = mkdtempSync(join(tmpdir(), 'nw-downloads-'));
      return new TestPage(kind, { ...await kind.newPage(browser, { width, height }, folder, colorScheme), folder });
    },
    close: () => browser.close(),
  };
}

// Runs in the page: finds elements the way a reader names them and acts on them. `by` is 'label' (a
// form control whose label text is exactly `name`), 'button' (accessible name exactly `name`), 'alert'
// (a rendered role=alert), or 'css'; `index` keeps only that match (in document order). Actions other
// than count, visible and point need exactly one match.
function inPage({ by, name, index, action, value }) {
  const normal = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
  const rendered = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  const labelled = (element) => [...(element.labels ?? [])].map((label) => normal(label.textContent))
    .concat(element.hasAttribute('aria-label') ? [normal(element.getAttribute('aria-label'))] : []);
  let found;
  if (by === 'label') {
    found = [...document.querySelectorAll('input, select, textarea')].filter((element) => labelled(element).includes(name));
  } else if (by === 'button') {
    found = [...document.querySelectorAll('button, [role="button"], input[type="button"], input[type="submit"]')]
      .filter((element) => normal(element.getAttribute('aria-label') ?? (element.tagName === 'INPUT' ? element.value : element.textContent)) === name);
  } else if (by === 'alert') {
    found = [...document.querySelectorAll('[role="alert"]')].filter(rendered);
  } else {
    found = [...document.querySelectorAll(name)];
  }
  if (index !== undefined) found = found.slice(index, index + 1);
  if (action === 'count') return found.length;
  if (action === 'visible') return found.length > 0 && found.every(rendered);
  if (action === 'point') {
    // Where a click would land, once the element can take one (rendered, enabled, on top); else null.
    const element = found[0];
    if (found.length !== 1 || !rendered(element) || element.disabled) return null;
    element.scrollIntoView({ block: 'center', inline: 'center' });
    const box = element.getBoundingClientRect();
    const point = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    return element.contains(document.elementFromPoint(point.x, point.y)) ? point : null;
  }
  if (found.length !== 1) throw new Error(`${by} "${name}" matches ${found.length} elements, not 1`);
  const [element] = found;
  const fire = (events) => events.forEach((type) => element.dispatchEvent(new Event(type, { bubbles: true })));
  switch (action) {
    case 'element': return element;
    case 'value': return element.value;
    case 'text': return element.innerText;
    case 'attribute': return element.getAttribute(value);
    case 'disabled': return element.disabled;
    case 'checked': return element.checked;
    case 'box': {
      element.scrollIntoView({ block: 'center', inline: 'center' });
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    }
    case 'set': // as typing or dragging it would: the new value, then the events the page listens to
      element.value = value.text;
      if (element.value !== value.text) throw new Error(`${name} does not take the value "${value.text}"`);
      fire(value.events);
      return element.value;
    case 'select':
      if (![...element.options].some((option) => option.value === value)) throw new Error(`${name} has no option "${value}"`);
      element.value = value;
      fire(['input', 'change']);
      return element.value;
    default: throw new Error(`unknown action ${action}`);
  }
}

class Locator {
  constructor(page, by, name, index) {
    Object.assign(this, { page, by, name, index });
  }

  where(action) { return { by: this.by, name: this.name, index: this.index, action }; }

  run(action, value) { return this.page.evaluate(inPage, { ...this.where(action), value }); }

  // Only the index-th match (0: the first in the page).
  nth(index) { return new Locator(this.page, this.by, this.name, index); }

  value() { return this.run('value'); }

  text() { return this.run('text'); }

  attribute(name) { return this.run('attribute', name); }

  isDisabled() { return this.run('disabled'); }

  isChecked() { return this.run('checked'); }

  isVisible() { return this.run('visible'); }

  count() { return this.run('count'); }

  // Scrolls the element to the middle of the view and returns its box in view coordinates.
  box() { return this.run('box'); }

  async set(value, events = ['input', 'change']) {
    const result = await this.run('set', { text: String(value), events });
    await this.settled();
    return result;
  }

  async select(value) {
    const result = await this.run('select', value);
    await this.settled();
    return result;
  }

  // A real click in the middle of the element, once it is rendered, enabled and not covered.
  // Scrolling to it can bring figures near the view that draw lazily above it and move it (a heatmap's
  // note appearing): the click waits until the element's place holds across two polls.
  async click() {
    let point = await this.page.waitForFunction(inPage, this.where('point'));
    for (let tries = 0; tries < 20; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const again = await this.page.waitForFunction(inPage, this.where('point'));
      if (again.x === point.x && again.y === point.y) break;
      point = again;
    }
    await this.page.mouse.click(point.x, point.y);
    await this.settled();
  }

  // After an action, until the app has drawn every figure near the view: a render draws them in slices and
  // large heatmaps come from a worker (see Figures.idle in web/src/figures.js). Other pages: at once.
  settled() {
    return this.page.waitForFunction(() => !window.nwPage || (window.nwPage.debug.idle && !window.nwPage.debug.replaying));
  }

  // Until the element is there and rendered.
  async waitFor(options) {
    await this.page.waitForFunction(inPage, this.where('visible'), options);
  }

  // Chooses the file at path in this file input, as a reader would in the file dialog.
  async setFiles(path) {
    const handle = await this.page.raw.evaluateHandle(inPage, this.where('element'));
    await this.page.kind.setFiles(handle, path);
    await handle.dispose();
  }
}

// A page and its context, with what a reader would call broken: console errors and warnings, page
// errors, failed requests, HTTP errors, requests to any other host, and dialogs (dismissed).
class TestPage {
  constructor(kind, { page, context, folder }) {
    Object.assign(this, { kind, raw: page, context, folder, problems: [], dialogs: [] });
    this.mouse = page.mouse;
    page.on('console', (message) => {
      if (['error', 'warning', 'warn'].includes(message.type())) this.problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      // Requests a reload or a navigation cuts short are not failures of the page: the browser's own
      // favicon request, and the drag preview's worker (started after the first render) loading its
      // script and the module. A page that could not load them would fail in other ways.
      const reason = request.failure()?.errorText ?? '';
      const cutShortMayBe = ['/favicon.svg', '/heatmap_worker.js', '/nw.js'];
      if (cutShortMayBe.some((path) => new URL(request.url()).pathname.endsWith(path)) && /ABORTED/i.test(reason)) return;
      this.problems.push(`request failed: ${request.url()} ${reason}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) this.problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    page.on('request', (request) => {
      const target = new URL(request.url());
      // (localhost: the same server under another origin, for lessons with frames of another site.)
      if (!['file:', 'data:', 'blob:'].includes(target.protocol) && !['127.0.0.1', 'localhost'].includes(target.hostname)) {
        this.problems.push(`request to another host: ${request.url()}`);
      }
    });
    page.on('dialog', (dialog) => {
      this.dialogs.push(dialog.message());
      dialog.dismiss().catch(() => {});
    });
  }

  // Until the module has started and the page has drawn (the loading note is hidden).
  // Until the page has started and drawn every figure near the view (the first render draws in slices).
  ready() { return this.waitForFunction(() => document.querySelector('#loading[hidden]') !== null && window.nwPage.debug.idle && !window.nwPage.debug.replaying); }

  // Runs source in each document this page loads, before the document's own scripts.
  beforeScripts(source) { return this.kind.beforeScripts(this.raw, source); }

  // waitReady false: for a page that is not ours (a lesson hosting our embeds).
  async goto(url, { waitReady = true } = {}) {
    await this.raw.goto(url);
    if (waitReady) await this.ready();
  }

  async reload() {
    await this.raw.reload();
    await this.ready();
  }

  goBack() { return this.raw.goBack(); }

  // A new size of the view, as a reader resizing the window or turning a phone (then two frames pass).
  async resize(size) {
    await (this.raw.setViewportSize ? this.raw.setViewportSize(size) : this.raw.setViewport(size));
    await this.evaluate(() => new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(resolve)); }));
  }

  // The document's own location: the libraries' url() learns of pushState from an event, a little later.
  url() { return this.evaluate(() => location.href); }

  evaluate(fn, arg) { return this.raw.evaluate(fn, arg); }

  // Resolves with fn(arg)'s first truthy value (as JSON).
  async waitForFunction(fn, arg, options = {}) {
    const handle = await this.kind.waitForFunction(this.raw, fn, arg, options);
    const value = await handle.jsonValue();
    await handle.dispose();
    return value;
  }

  // The document inside the iframe that selector names, of any origin (a sandboxed one too), with
  // evaluate and waitForFunction as on a page.
  async frame(selector) {
    const handle = await this.raw.$(selector);
    const frame = await handle.contentFrame();
    await handle.dispose();
    const { kind } = this;
    return {
      evaluate: (fn, arg) => frame.evaluate(fn, arg),
      waitForFunction: async (fn, arg, options = {}) => {
        const result = await kind.waitForFunction(frame, fn, arg, options);
        const value = await result.jsonValue();
        await result.dispose();
        return value;
      },
    };
  }

  label(name) { return new Locator(this, 'label', name); }

  button(name) { return new Locator(this, 'button', name); }

  alert() { return new Locator(this, 'alert', ''); }

  locator(selector) { return new Locator(this, 'css', selector); }

  // Until the page's text matches pattern.
  waitForText(pattern, options) {
    return this.waitForFunction(({ source, flags }) => new RegExp(source, flags).test(document.body.innerText),
      { source: pattern.source, flags: pattern.flags }, options);
  }

  // artifacts/<name>-<browser>.png, the whole page.
  async screenshot(name) {
    mkdirSync(artifactsDir, { recursive: true });
    await this.raw.screenshot({ path: `${artifactsDir}${name}-${this.kind.key}.png`, fullPage: true });
  }

  // Clicks locator and returns the file it downloads: { name, path } (removed on close).
  async download(locator) {
    const name = await this.kind.download(this.raw, () => locator.click(), this.folder);
    const path = join(this.folder, name);
    if (!existsSync(path)) throw new Error(`the download ${name} is not in ${this.folder}`);
    return { name, path };
  }

  async close() {
    await this.context.close();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
