// Reads a CSV in the CSV worker (csv.worker.js) where the page can start one (over http), with its
// progress; where it cannot (file://, a sandboxed frame) or the worker fails, on the page's thread in one
// task (5 MB take a few hundred milliseconds). One text at a time: a newer read supersedes an older one,
// whose promise then never settles.
import { CsvError, parseCsv } from '../io/csv.js';
import { inSandbox } from '../embed/sandbox.js';

// Beside index.html in dist/ (bundled from web/src/compute/csv.worker.js).
const WORKER_URL = 'csv_worker.js';

class CsvClient {
  // startWorker stands in for the browser's Worker (the tests replace it).
  constructor({ startWorker = (url) => {
    if (inSandbox()) throw new Error('a sandboxed frame cannot start a worker');
    return new Worker(url);
  } } = {}) {
    this.startWorker = startWorker;
    this.worker = undefined; // started at the first read; null where none can run
    this.current = null; // { id, text, resolve, reject, onProgress }
    this.nextId = 1;
  }

  // A promise of { x, y } (numbers), or a CsvError in the page's language; onProgress(fraction) meanwhile.
  read(text, onProgress = () => {}) {
    return new Promise((resolve, reject) => {
      this.current = { id: this.nextId++, text, resolve, reject, onProgress };
      const worker = this.ensureWorker();
      if (worker) worker.postMessage({ id: this.current.id, text });
      else this.readHere(this.current);
    });
  }

  // The read under way, if any, never settles, and its progress stops being told.
  cancel() {
    this.current = null;
  }

  ensureWorker() {
    if (this.worker !== undefined) return this.worker;
    try {
      this.worker = this.startWorker(WORKER_URL);
      this.worker.onmessage = ({ data }) => this.reply(data);
      this.worker.onerror = (event) => {
        event.preventDefault?.();
        this.stopWorker();
      };
    } catch {
      this.worker = null;
    }
    return this.worker;
  }

  reply({ id, progress, points, error, failed }) {
    const current = this.current;
    if (!current || id !== current.id) return; // superseded
    if (progress !== undefined) {
      current.onProgress(progress);
      return;
    }
    this.current = null;
    if (points) current.resolve(points);
    else if (error) current.reject(new CsvError(error.key, error.params));
    else this.readHere({ ...current, failed }); // (the worker's own failure: try here)
  }

  // The worker is gone (it failed to load or crashed): the read under way, and every later one, here.
  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    if (this.current) this.readHere(this.current);
  }

  readHere(request) {
    if (this.current === request) this.current = null;
    try {
      request.resolve(parseCsv(request.text));
    } catch (error) {
      request.reject(error);
    }
  }
}

export { CsvClient };
