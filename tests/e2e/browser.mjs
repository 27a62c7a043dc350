// Shared set-up for the browser tests: Debian's Chromium through playwright-core, the built dist/ served
// on 127.0.0.1 or opened from file://, and a record of console errors and failed requests.
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const distDir = fileURLToPath(new URL('../../dist/', import.meta.url));
export const artifactsDir = fileURLToPath(new URL('../../artifacts/', import.meta.url));
export const fileUrl = pathToFileURL(`${distDir}index.html`).href;

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function serveDist() {
  const { server, url } = await startServer(distDir, 0);
  return { url: `${url}index.html`, close: () => new Promise((resolve) => server.close(resolve)) };
}

// A page that records what a reader would call broken: console errors, page errors, failed requests,
// requests to any other host, and dialogs (which it dismisses). beforeGoto(context) may set up routes.
export async function openPage(browser, url, { width = 1280, height = 1000, beforeGoto = null } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  if (beforeGoto) await beforeGoto(context);
  const page = await context.newPage();
  const problems = [];
  const dialogs = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('request', (request) => {
    const target = new URL(request.url());
    if (!['file:', 'data:', 'blob:'].includes(target.protocol) && target.hostname !== '127.0.0.1') {
      problems.push(`request to another host: ${request.url()}`);
    }
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  await page.goto(url);
  await page.waitForSelector('#loading[hidden]', { state: 'attached' });
  return { page, context, problems, dialogs };
}

export async function screenshot(page, name) {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: `${artifactsDir}${name}.png`, fullPage: true });
}

// One Chromium and one static server for a whole test file: { browser, server } once started.
export function useBrowserAndServer() {
  const shared = {};
  before(async () => {
    shared.browser = await launchBrowser();
    shared.server = await serveDist();
  });
  after(async () => {
    await shared.server?.close();
    await shared.browser?.close();
  });
  return shared;
}
