// A small static file server for dist/ on 127.0.0.1 (used by npm start and by the browser tests).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

// Resolves with { server, url } once listening; port 0 picks a free port. The browser tests may pass
// extra: { [path]: (request) => text or null } for files of their own (a test probe), and
// html(text, request) to change the HTML pages they are served (tests/e2e/browser.mjs).
export function startServer(root, port = 0, { extra = {}, html = (text) => text } = {}) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
      const own = extra[path]?.(request);
      if (typeof own === 'string') {
        response.writeHead(200, { 'Content-Type': contentTypes[extname(path)] ?? 'text/plain; charset=utf-8' });
        response.end(own);
        return;
      }
      let file = normalize(join(base, path));
      if (!file.startsWith(base)) throw Object.assign(new Error('outside root'), { code: 'ENOENT' });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      let body = await readFile(file);
      if (extname(file) === '.html') body = html(body.toString('utf8'), request);
      response.writeHead(200, { 'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Not found');
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolvePromise({ server, url: `http://127.0.0.1:${server.address().port}/` });
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root = 'dist', port = '8080'] = process.argv.slice(2);
  const { url } = await startServer(root, Number(port));
  console.log(`Serving ${root}/ at ${url} (Ctrl+C to stop)`);
}
