// WebKitGTK (the engine of Safari) for the browser tests, through its WebDriver (webkit2gtk-driver, classic
// WebDriver over HTTP, no BiDi) driving MiniBrowser on a virtual display (xvfb-run). It gives the small
// part of Playwright's page API that tests/e2e/drivers.mjs's TestPage uses: goto, evaluate,
// waitForFunction, frames, the mouse and keyboard, screenshots, and the console errors and uncaught
// exceptions of a page, which classic WebDriver cannot observe: the test server injects a probe
// (PROBE below) first into every HTML page it serves to WebKit, and each command collects what it saw.
// WebKitWebDriver runs one session at a time: every page has a driver process of its own.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { newFileAfter } from './downloads.mjs';

const DRIVER = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
// MiniBrowser's window is at least this wide: narrower views are tested in frames (see tests).
export const WEBKIT_MIN_WIDTH = 447;
// The frame that shows a page in a narrower view (see WebKitPage.goto).
const NARROW_FRAME = '#nw-narrow-view';

// Runs first in every page served to WebKit (scripts/serve.mjs injects it, before the page's own
// Content-Security-Policy): what a reader would call broken, kept for the driver to collect.
export const PROBE = `(() => {
  const problems = window.__nwProblems = [];
  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = (...args) => { problems.push({ kind: 'console', type: level, text: args.map(String).join(' ') }); original.apply(console, args); };
  }
  addEventListener('error', (event) => {
    if (event.target && event.target !== window && event.target.src) problems.push({ kind: 'console', type: 'error', text: 'Failed to load resource: ' + event.target.src });
    else problems.push({ kind: 'pageerror', text: event.message });
  }, true);
  addEventListener('unhandledrejection', (event) => problems.push({ kind: 'pageerror', text: String(event.reason && event.reason.message || event.reason) }));
  addEventListener('securitypolicyviolation', (event) => problems.push({ kind: 'console', type: 'error', text: 'Refused by the Content-Security-Policy: ' + event.blockedURI }));
})();`;
// Scripts a test asks to run before the page's own (TestPage.beforeScripts), served with the probe.
export const beforeScripts = [];
// The source scripts/serve.mjs serves as /__nw_probe.js to WebKit.
export const probeSource = () => [PROBE, ...beforeScripts].join('\n');

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// WebDriver's keys for the names Playwright's keyboard.press takes.
const KEYS = { Enter: '\uE007', Tab: '\uE004', Escape: '\uE00C', Space: ' ', ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015', Home: '\uE011', End: '\uE010', PageUp: '\uE00E', PageDown: '\uE00F', Backspace: '\uE003', Shift: '\uE008' };

// A function and its argument as the body of a WebDriver script (no eval: the page's CSP forbids it).
const callBody = (fn, arg) => `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)}))
  .then((value) => done({ value: value === undefined ? null : value }), (error) => done({ error: String(error && error.message || error) }));`;

class WebKitPage {
  constructor(driver, id, viewport) {
    Object.assign(this, { driver, id, viewport, handlers: { console: [], pageerror: [] }, frames: [] });
    this.mouse = {
      move: (x, y) => this.actions([{ type: 'pointerMove', x: Math.round(x), y: Math.round(y), origin: 'viewport' }]),
      click: (x, y) => this.actions([{ type: 'pointerMove', x: Math.round(x), y: Math.round(y), origin: 'viewport' }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }]),
    };
    this.keyboard = {
      press: (name) => {
        const keys = name.split('+').map((key) => KEYS[key] ?? key);
        return this.command('POST', 'actions', { actions: [{ type: 'key', id: 'keyboard', actions: [...keys.map((value) => ({ type: 'keyDown', value })), ...keys.reverse().map((value) => ({ type: 'keyUp', value }))] }] });
      },
    };
  }

  async command(method, path, body) {
    const response = await fetch(`${this.driver.url}/session/${this.id}/${path}`, {
      method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const { value } = await response.json();
    if (value && value.error) throw new Error(`WebKit ${path}: ${value.error}: ${value.message}`);
    return value;
  }

  actions(pointer) {
    return this.command('POST', 'actions', { actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: pointer }] });
  }

  on(event, handler) {
    if (this.handlers[event]) this.handlers[event].push(handler);
  }

  // The frames to enter (element references, from the top) before a command runs in a frame.
  async enter(path) {
    await this.command('POST', 'frame', { id: null });
    for (const selector of this.narrow ? [NARROW_FRAME, ...path] : path) {
      const element = await this.command('POST', 'element', { using: 'css selector', value: selector });
      await this.command('POST', 'frame', { id: element });
    }
  }

  // fn(arg) in the page (or the frame at path), its result as JSON; the page's problems are collected first.
  async evaluate(fn, arg, path = []) {
    await this.enter(path);
    const result = await this.command('POST', 'execute/async', { script: callBody(fn, arg), args: [] });
    await this.collect(path);
    if (result && result.error !== undefined) throw new Error(`page.evaluate: ${result.error}`);
    return result ? result.value : null;
  }

  // The element fn(arg) returns, as a handle that setFiles takes (a WebDriver element reference).
  async evaluateHandle(fn, arg) {
    const element = await this.evaluate(fn, arg);
    const id = element && Object.values(element)[0];
    if (typeof id !== 'string') throw new Error('page.evaluateHandle: not an element');
    return { page: this, id, dispose: async () => {} };
  }

  async collect(path = []) {
    let found = [];
    try {
      found = await this.command('POST', 'execute/sync', { script: 'return (window.__nwProblems || []).splice(0);', args: [] });
    } catch {
      return; // (a page being replaced)
    }
    for (const problem of found ?? []) {
      const where = path.length ? ` (in ${path.join(' > ')})` : '';
      if (problem.kind === 'pageerror') this.handlers.pageerror.forEach((handler) => handler(new Error(problem.text + where)));
      else this.handlers.console.forEach((handler) => handler({ type: () => problem.type, text: () => problem.text + where }));
    }
  }

  // Until fn(arg) is truthy (polled), as a handle with jsonValue() like Playwright's.
  async waitForFunction(fn, arg, { timeout = 30_000 } = {}, path = []) {
    const started = Date.now();
    for (;;) {
      let value;
      try {
        value = await this.evaluate(fn, arg, path);
      } catch (error) {
        // WebKitWebDriver now and then fails to read a result while the page changes; poll again.
        if (!/Could not parse script result/.test(error.message)) throw error;
      }
      if (value) return { jsonValue: async () => value, dispose: async () => {} };
      if (Date.now() - started > timeout) throw new Error(`waitForFunction timed out after ${timeout} ms: ${fn.toString().slice(0, 120)}`);
      await sleep(50);
    }
  }

  async goto(url) {
    await this.collect();
    this.shown = true;
    if (!this.narrow) {
      await this.command('POST', 'url', { url });
      return;
    }
    // A view narrower than MiniBrowser's least: the page in a frame of that size at the window's top
    // left, so that view coordinates are the same in both; every command then runs in the frame.
    if (new URL(url).protocol === 'file:') throw new Error('WebKit: a view narrower than 447 px is a frame, which cannot show a page from file://');
    const { width, height } = this.narrow;
    const wrapper = `<!doctype html><style>body{margin:0}${NARROW_FRAME}{display:block;border:0;width:${width}px;height:${height}px}</style><iframe id="${NARROW_FRAME.slice(1)}" src="${url.replace(/"/g, '&quot;')}"></iframe>`;
    await this.command('POST', 'frame', { id: null });
    await this.command('POST', 'url', { url: `data:text/html,${encodeURIComponent(wrapper)}` });
    await this.waitForFunction(() => document.readyState !== 'loading');
  }

  async reload() {
    await this.collect();
    if (!this.narrow) {
      await this.command('POST', 'refresh', {});
      return;
    }
    // The frame's document, not the wrapper (which would load the frame's first URL again).
    await this.evaluate(() => { window.__nwReloading = true; setTimeout(() => location.reload()); });
    await this.waitForFunction(() => !window.__nwReloading && document.readyState !== 'loading');
  }

  async goBack() {
    await this.command('POST', 'back', {});
  }

  // The iframe that selector names, as a frame with evaluate (Playwright's $(selector).contentFrame()).
  async $(selector, path = []) {
    return {
      contentFrame: async () => {
        const inside = [...path, selector];
        return {
          evaluate: (fn, arg) => this.evaluate(fn, arg, inside),
          waitForFunction: (fn, arg, options) => this.waitForFunction(fn, arg, options, inside),
          $: (inner) => this.$(inner, inside),
        };
      },
      dispose: async () => {},
    };
  }

  // A width under MiniBrowser's least shows the pages this page goes to next in a frame of that size
  // (see goto); a page already shown resizes its frame, if it is in one.
  async setViewportSize({ width, height }) {
    const framed = Boolean(this.narrow);
    if (width < WEBKIT_MIN_WIDTH && !framed && this.shown) throw new Error(`WebKit: a page shown in a window cannot be narrower than ${WEBKIT_MIN_WIDTH} px: open it at the narrow width (a frame)`);
    this.narrow = width < WEBKIT_MIN_WIDTH || framed ? { width, height } : null;
    if (framed) {
      await this.command('POST', 'frame', { id: null });
      await this.command('POST', 'execute/sync', { script: `const frame = document.querySelector('${NARROW_FRAME}'); frame.style.width = '${width}px'; frame.style.height = '${height}px';`, args: [] });
    }
    width = Math.max(width, WEBKIT_MIN_WIDTH);
    // The window's size is set so that the view inside it has this size.
    await this.command('POST', 'window/rect', { width, height });
    await this.command('POST', 'frame', { id: null });
    // Right after a resize the window can report a size that is not yet the new one (CI once got a
    // window size WebKit then refused as "Invalid width value"): the sizes asked for are whole,
    // positive pixels, and a refused or unsettled resize is tried again.
    for (let attempt = 1; ; attempt += 1) {
      const [innerWidth, innerHeight] = await this.command('POST', 'execute/sync', { script: 'return [window.innerWidth, window.innerHeight];', args: [] });
      if (innerWidth === width && innerHeight === height) break;
      const rect = await this.command('GET', 'window/rect');
      const asked = {
        width: Math.max(1, Math.round(rect.width + (width - innerWidth))),
        height: Math.max(1, Math.round(rect.height + (height - innerHeight))),
      };
      try {
        await this.command('POST', 'window/rect', asked);
      } catch (error) {
        if (attempt >= 5) throw new Error(`${error.message} (asked ${JSON.stringify(asked)} from window ${JSON.stringify(rect)} and view ${innerWidth} x ${innerHeight})`);
      }
      if (attempt >= 5) break;
      await sleep(100);
    }
    this.viewport = { width, height };
  }

  // The view: the window, or the frame of a narrow view (see goto).
  async screenshot({ path }) {
    let png;
    if (this.narrow) {
      await this.command('POST', 'frame', { id: null });
      const frame = await this.command('POST', 'element', { using: 'css selector', value: NARROW_FRAME });
      png = await this.command('GET', `element/${Object.values(frame)[0]}/screenshot`);
    } else {
      png = await this.command('GET', 'screenshot');
    }
    writeFileSync(path, Buffer.from(png, 'base64'));
  }

  async close() {
    this.closed();
    await this.driver.stop(this.id);
  }
}

// One WebKitWebDriver on a free port under xvfb-run, with one MiniBrowser session: a page.
// Downloads land in the browser's home folder: `folder`, one per page.
async function startDriver(folder) {
  const port = await freePort();
  const child = spawn('xvfb-run', ['-a', '-s', '-screen 0 1600x1200x24', DRIVER, `--port=${port}`], {
    stdio: 'ignore', detached: true,
    // The reader's language, as the other browsers' (WebKit takes it from the locale; a bare
    // machine's C gives navigator.language 'C').
    env: { ...process.env, LANG: 'en_US.UTF-8', LANGUAGE: 'en_US', ...(folder ? { HOME: folder } : {}) },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    try {
      const status = await (await fetch(`${url}/status`)).json();
      if (status.value && status.value.ready !== false) break;
    } catch {
      if (waited > 20_000) throw new Error('WebKitWebDriver did not start within 20 s');
    }
    await sleep(100);
  }
  return {
    url,
    stop: async (id) => {
      try {
        if (id) await fetch(`${url}/session/${id}`, { method: 'DELETE' });
      } finally {
        try { process.kill(-child.pid); } catch { /* already gone */ }
      }
    },
  };
}

export const webkitKind = {
  name: 'WebKit',
  // No browser process to launch: each page starts its own driver and MiniBrowser. Closing the
  // "browser" closes the pages a failed test left open (their drivers would keep Node running).
  launch: async () => {
    const pages = new Set();
    return { pages, close: async () => { await Promise.all([...pages].map((page) => page.close())); } };
  },
  waitForFunction: (page, fn, arg, options) => page.waitForFunction(fn, arg, options),
  // A file input takes a path as typed keys in WebDriver (the file dialog never opens).
  setFiles: (input, path) => input.page.command('POST', `element/${input.id}/value`, { text: path }),
  beforeScripts: (page, source) => { beforeScripts.push(source); page.ownBeforeScripts.push(source); },
  // colorScheme 'dark': MiniBrowser's --dark-mode (GTK's dark variant), which WebKit reports to the
  // page as prefers-color-scheme: dark; otherwise light.
  newPage: async (browser, viewport, folder, colorScheme) => {
    const driver = await startDriver(folder);
    const args = ['--automation', ...(colorScheme === 'dark' ? ['--dark-mode'] : [])];
    const response = await fetch(`${driver.url}/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ capabilities: { alwaysMatch: { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args } } } }),
    });
    const { value } = await response.json();
    if (!value || !value.sessionId) await driver.stop(null);
    if (!value || !value.sessionId) throw new Error(`WebKit: no session: ${JSON.stringify(value)}`);
    const page = new WebKitPage(driver, value.sessionId, viewport);
    browser.pages.add(page);
    page.closed = () => browser.pages.delete(page);
    page.ownBeforeScripts = [];
    await page.command('POST', 'url', { url: 'about:blank' });
    try {
      await page.setViewportSize(viewport);
    } catch (error) {
      await page.close();
      throw error;
    }
    // Its context closes with it, and the scripts it asked to run first go.
    const context = {
      close: async () => {
        for (const source of page.ownBeforeScripts) beforeScripts.splice(beforeScripts.indexOf(source), 1);
        await page.close();
      },
    };
    return { page, context };
  },
  // WebKitGTK saves downloads into its home folder, which is the page's folder (startDriver).
  download: (page, click, folder) => newFileAfter(folder, click),
};
