// Shared set-up for the browser tests: each test file runs once per browser (Chromium and Firefox ESR,
// or those named in NW_BROWSERS) on the built dist/, served on 127.0.0.1 or opened from file://.
import { after, before, describe, test } from 'node:test';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { launchBrowser, selectedBrowsers } from './drivers.mjs';
import { WEBKIT_MIN_WIDTH, probeSource } from './webkit.mjs';

export const distDir = fileURLToPath(new URL('../../dist/', import.meta.url));
export const fileUrl = pathToFileURL(`${distDir}index.html`).href;

// WebKit (MiniBrowser: AppleWebKit without Chrome in its user agent) gets the probe that collects its
// console errors and uncaught exceptions, first in every HTML page (see webkit.mjs).
const fromWebKit = (request) => /AppleWebKit/.test(request.headers['user-agent'] ?? '') && !/Chrom/.test(request.headers['user-agent'] ?? '');
const webkitProbe = {
  extra: { '/__nw_probe.js': (request) => (fromWebKit(request) ? probeSource() : null) },
  html: (text, request) => (fromWebKit(request) ? text.replace(/<head>/i, '<head><script src="/__nw_probe.js"></script>') : text),
};

// A static server for dir on 127.0.0.1 that counts the requests for each path (requested.get('/x.js')).
export async function serveDir(dir) {
  const { server, url } = await startServer(dir, 0, webkitProbe);
  const requested = new Map();
  server.on('request', (request) => {
    const { pathname } = new URL(request.url, url);
    requested.set(pathname, (requested.get(pathname) ?? 0) + 1);
  });
  return { url: `${url}index.html`, requested, close: () => new Promise((resolve) => server.close(resolve)) };
}

// Lessons for one test file: a copy of dist/ in a temporary folder with the files of `files`
// ({ 'lesson.html': text, ... }) beside it, served on 127.0.0.1 while the file's tests run.
// site.url('lesson.html') is a file's address there, site.dir the folder.
export function lessonSite(files) {
  const site = { dir: null, server: null, url: (name) => site.server.url.replace('index.html', name) };
  before(async () => {
    site.dir = mkdtempSync(join(tmpdir(), 'nw-lesson-'));
    cpSync(distDir, site.dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(site.dir, name), text);
    site.server = await serveDir(site.dir);
  });
  after(async () => {
    await site.server?.close();
    rmSync(site.dir, { recursive: true, force: true });
  });
  return site;
}

// One describe per browser, named "<browser>: <title>", with the browser and a server of dist/ started
// before its tests and closed after them. body(env) declares the tests through env.test, which puts
// the browser's name in each test's name; env.browser.newPage() and env.server.url are there once
// the tests run.
export function inEachBrowser(title, body) {
  for (const kind of selectedBrowsers()) {
    describe(`${kind.name}: ${title}`, () => {
      const env = {
        kind,
        name: kind.name,
        // A phone's width that a page already shown can be resized to. MiniBrowser's window is at least
        // 447 px wide: a page opened narrower is shown in a frame as wide as asked (webkit.mjs), but a
        // shown page cannot be resized below 447.
        narrow: kind.key === 'webkit' ? WEBKIT_MIN_WIDTH : 375,
        test: (name, ...optionsAndFn) => test(`${kind.name}: ${name}`, ...optionsAndFn),
        // A new page (own context) already at url and ready; options: { width, height, colorScheme,
        // waitReady (false for a page that is not ours) }.
        open: async (url, options = {}) => {
          const page = await env.browser.newPage(options);
          try {
            await page.goto(url, { waitReady: options.waitReady ?? true });
          } catch (error) {
            await page.close();
            throw error;
          }
          return page;
        },
      };
      before(async () => {
        env.browser = await launchBrowser(kind);
        env.server = await serveDir(distDir);
      });
      after(async () => {
        await env.server?.close();
        await env.browser?.close();
      });
      body(env);
    });
  }
}
