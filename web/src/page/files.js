// The page's files: your own data (CSV typed, pasted or read from a file), downloads of the data, the
// predictions, the session and a chart as PNG, and a session file read back. Where downloads may be
// blocked (a sandboxed frame) the text or image is shown to copy instead.
import { CsvClient } from '../compute/csv_client.js';
import { MAX_BYTES } from '../io/csv.js';
import { chartPng, dataCsv, downloadText, downloadUrl, downloadsMayBeBlocked, parseSession, predictionsCsv, sessionJson } from '../io/exports.js';
import { ownData } from '../io/own_data.js';
import { t } from '../i18n/i18n.js';
import { problemText } from '../i18n/problem_text.js';
import { parse } from '../model/settings.js';
import { byId } from '../lib/dom.js';
import { clearProblems, showProblems } from './messages.js';

// A file larger than this is not read: the CSV limit (100,000 rows take about 4 MB), also for a session
// file (which carries your data).
const MAX_FILE_BYTES = MAX_BYTES;
// A file's text longer than this is read without being copied into the CSV box (megabytes in a
// textarea are slow to lay out and to edit), which is then emptied; a longer text shows its progress.
const BOX_MAX_CHARS = 100_000;

class Files {
  // app: the controller (page/controller.js), whose settings and session the files read and replace.
  constructor(app) {
    this.app = app;
    this.csv = new CsvClient();
    this.reading = null; // the CSV read under way (a newer one supersedes it)
  }

  bind() {
    const { app } = this;
    const on = (id, handler) => byId(id).addEventListener('click', handler);
    on('useCsv', () => this.useCsv(byId('csvText').value));
    on('clearData', () => {
      ownData.clear();
      this.stopReading();
      byId('csvText').value = '';
      app.edit('data', 'generated', { restoreKernel: true }); // (the kernel large data ruled out comes back)
    });
    byId('csvFile').addEventListener('change', () => this.readFile(byId('csvFile'), (text) => {
      byId('csvText').value = text.length <= BOX_MAX_CHARS ? text : '';
      this.useCsv(text);
    }));
    on('exportData', () => this.exportText('nadaraya-watson-data.csv', 'text/csv', dataCsv(app.session.data)));
    on('exportPredictions', () => {
      const { session } = app;
      const predictions = session.predictions(app.settings.w);
      const bounds = { nonparametric: session.boundsOf(predictions.nonparametric), parametric: session.boundsOf(predictions.parametric) };
      this.exportText('nadaraya-watson-predictions.csv', 'text/csv', predictionsCsv(session.data, predictions, bounds));
    });
    on('exportSession', () => this.exportText('nadaraya-watson-session.json', 'application/json',
      sessionJson(app.settings, app.session, ownData.load())));
    on('exportPng', async () => {
      const [name, , chartOf, drawn] = app.pngCharts.find(([value]) => value === byId('pngChart').value);
      app.figures.renderLazy(app.session, app.settings, { all: true }); // a figure not yet scrolled to
      if (drawn) await drawn(); // (the design's figure, computed apart)
      this.exportImage(`nadaraya-watson-${name}.png`, chartPng(chartOf()));
    });
    byId('importSession').addEventListener('change', () => this.readFile(byId('importSession'), (text) => this.importSession(text)));
  }

  // A download, or where downloads may be blocked (a sandboxed frame), the text to copy instead.
  exportText(filename, type, text) {
    if (!downloadsMayBeBlocked()) {
      downloadText(filename, type, text);
      return;
    }
    this.showExportFallback(t('export.fallbackText', { filename }));
    byId('exportFallbackText').hidden = false;
    byId('exportFallbackText').value = text;
    byId('exportFallbackImage').hidden = true;
  }

  exportImage(filename, dataUrl) {
    if (!downloadsMayBeBlocked()) {
      downloadUrl(filename, dataUrl);
      return;
    }
    this.showExportFallback(t('export.fallbackImage', { filename }));
    byId('exportFallbackText').hidden = true;
    byId('exportFallbackImage').hidden = false;
    byId('exportFallbackImage').src = dataUrl;
  }

  showExportFallback(note) {
    byId('exportFallback').hidden = false;
    byId('exportFallbackNote').textContent = note;
  }

  // Reads CSV text (off the page's thread where a worker runs, with a progress bar for a long text)
  // and uses it. A broken CSV's problem names its line or the limit, and the data in use stay.
  async useCsv(text) {
    const { app } = this;
    app.stopConverging();
    clearProblems();
    const progress = byId('csvProgress');
    progress.value = 0;
    progress.hidden = text.length <= BOX_MAX_CHARS;
    const reading = this.csv.read(text, (fraction) => { progress.value = fraction; });
    this.reading = reading;
    let points;
    try {
      points = await reading;
    } catch (error) {
      if (this.reading === reading) showProblems([problemText(error)]);
      return;
    } finally {
      if (this.reading === reading) progress.hidden = true;
    }
    if (this.reading !== reading) return;
    this.reading = null;
    ownData.save(points);
    app.training.player.pause();
    // Always reload: the stored data may have changed even if the setting has not.
    app.settings = { ...app.settings, data: 'generated' };
    app.apply({ ...app.settings, data: 'own', trained: 0, query: points.x[0] }, 'push', { restoreKernel: true });
  }

  // A CSV still being read is not used (other data replace it): its read is dropped, and its bar hidden.
  stopReading() {
    this.reading = null;
    this.csv.cancel();
    byId('csvProgress').hidden = true;
  }

  readFile(input, onText) {
    const file = input.files && input.files[0];
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      showProblems([t('problem.fileTooLarge', { name: file.name.slice(0, 60), mb: MAX_FILE_BYTES / 1e6 })]);
      input.value = '';
      return;
    }
    file.text().then(onText, (error) => showProblems([t('problem.fileUnreadable', { message: error.message })]));
    input.value = '';
  }

  importSession(text) {
    const { app } = this;
    app.stopConverging();
    let session;
    try {
      session = parseSession(text);
    } catch (error) {
      showProblems([problemText(error)]);
      return;
    }
    app.training.player.pause();
    this.stopReading();
    const { state, problems } = parse(session.settings);
    if (session.ownData) ownData.save(session.ownData);
    clearProblems();
    showProblems(problems);
    app.settings = { ...app.settings, data: state.data === 'own' ? 'generated' : 'own' }; // forces a reload
    app.session.setAside = null; // (a session file says which kernel it wants: no earlier one comes back after it)
    app.apply(state, 'push', { replayNow: true });
    const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
    if (!same(app.session.ws, session.training.ws) || !same(app.session.losses, session.training.losses)) {
      showProblems([t('problem.replayDiffers')]);
    }
  }
}

export { Files };
