// Reads a CSV in the CSV worker (csv.worker.js) where the page can start one (over http), with its
// progress; where it cannot (file://, a sandboxed frame) or the worker fails, on the page's thread in one
// task (5 MB take a few hundred milliseconds). One text at a time: a newer read supersedes an older one,
// whose promise then never settles.
import { CsvError, parseCsv } from '../io/csv.js';
import { inSandbox } from '../embed/sandbox.js';

// Beside index.html in dist/ (bundled from web/src/compute/csv.worker.js).
const WORKER_URL = 'csv_worker.js';
// A worker silent this long (no progress: it tells some every 10,000 lines, a few milliseconds apart)
// is given up, and the text read on the page's thread: a hung worker cannot keep the data from coming.
const SILENCE_MS = 10_000;

class CsvClient {
  // startWorker and timers stand in for the browser's Worker and timers (the tests replace them).
  constructor({
    startWorker = (url) => {
      if (inSandbox()) throw new Error('a sandboxed frame cannot start a worker');
      return new Worker(url);
    },
    timers = { setTimeout: (...args) => setTimeout(...args), clearTimeout: (id) => clearTimeout(id) },
  } = {}) {
    this.startWorker = startWorker;
    this.timers = timers;
    this.silence = null; // the timer that gives a silent worker up
    this.worker = undefined; // started at the first read; null where none can run
    this.current = null; // { id, text, resolve, reject, onProgress }
    this.nextId = 1;
  }

  // A promise of { x, y } (numbers), or a CsvError in the page's language; onProgress(fraction) meanwhile.
  read(text, onProgress = () => {}) {
    return new Promise((resolve, reject) => {
      this.current = { id: this.nextId++, text, resolve, reject, onProgress };
      const worker = this.ensureWorker();
      if (worker) {
        worker.postMessage({ id: this.current.id, text });
        this.listen();
      } else {
        this.readHere(this.current);
      }
    });
  }

  // The read under way, if any, never settles, and its progress stops being told.
  cancel() {
    this.current = null;
    this.listen();
  }

  // (Re)starts the silence timer while a read is under way in the worker.
  listen() {
    this.timers.clearTimeout(this.silence);
    this.silence = this.current && this.worker ? this.timers.setTimeout(() => this.stopWorker(), SILENCE_MS) : null;
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

  reply({ id, progress, points, error }) {
    const current = this.current;
    if (!current || id !== current.id) return; // superseded
    if (progress !== undefined) {
      this.listen();
      current.onProgress(progress);
      return;
    }
    this.current = null;
    this.listen();
    if (points) current.resolve(points);
    else if (error) current.reject(new CsvError(error.key, error.params));
    else this.readHere(current); // (the worker's own failure: try here)
  }

  // The worker is gone (it failed to load or crashed): the read under way, and every later one, here.
  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.listen();
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
