// Wires the page: settings from the URL -> session (WebAssembly) -> charts and tables, and back to the URL.
(function (NWPage) {
  'use strict';

  const { parse, serialize, dataKeys, objectiveKeys } = NWPage.state;
  const { estimator } = NWPage.colors;
  const byId = (id) => document.getElementById(id);
  // A shared link replays its trained epochs; each costs about nTrain^2 kernel evaluations.
  const MAX_REPLAY_WORK = 2e8;
  // The landscape evaluates L(w) this many times; above LANDSCAPE_MAX_TRAIN samples it is skipped.
  const LANDSCAPE_POINTS = 120;
  const LANDSCAPE_MAX_TRAIN = 500;
  // "Converged" when a step moves w by less than this, relatively.
  const CONVERGED = 1e-9;
  const QUERY_URL_DELAY_MS = 300;
  // After the last live change of w, the full redraw (kernel panels, tables, landscape) waits this long.
  const DRAG_SETTLE_MS = 150;
  // Cells per side, at most, of each heatmap: chartjs-chart-matrix costs about 7 microseconds a cell, and
  // the heatmaps are about 320 (main) and 250 (kernel panels) pixels wide, so more cells than a third of
  // that cost time without showing more. Larger matrices are drawn as blocks. While w is dragged the
  // nonparametric heatmap draws fewer, and its full resolution returns when the drag pauses.
  const HEATMAP_CELLS = 100;
  const PANEL_HEATMAP_CELLS = 50;
  const DRAG_HEATMAP_CELLS = 16;
  const FOUR_KERNELS = [['gaussian', 'Gaussian'], ['boxcar', 'Boxcar'], ['constant', 'Constant (= average pooling)'], ['epanechnikov', 'Epanechnikov']];

  const formatW = (w) => (Number.isFinite(w) ? w.toFixed(2) : '–');
  const formatNumber = (x, digits) => (x === null || x === undefined ? '–' : x.toFixed(digits));

  class App {
    constructor(nw) {
      this.nw = nw;
      this.session = new NWPage.Session(nw);
      this.settings = null;
      this.queryUrlTimer = null;
      this.landscapeKey = null;
      this.landscapeCurve = null;
      this.renderGeneration = 0;
      this.dragPreview = null;
      this.drawnWith = {}; // what each heatmap was last drawn with (see changed)
    }

    start() {
      document.body.classList.toggle('embed', new URLSearchParams(location.search).get('embed') === '1');
      this.createCharts();
      this.controls = new NWPage.Controls({
        onEdit: (name, value, options) => this.edit(name, value, options),
        onProblem: (message) => this.showProblems([message]),
      });
      this.player = new NWPage.Player({
        step: () => this.trainOneEpoch(),
        onChange: (playing) => { byId('train').disabled = playing || !this.session.canTrain; },
      });
      this.bindButtons();
      this.showExercises();
      window.addEventListener('popstate', () => this.loadFromUrl());
      this.loadFromUrl();
      byId('loading').hidden = true;
      // Started after the first render, so that its worker's module loads while the reader looks.
      this.dragPreview = new NWPage.DragPreview({
        computeHere: ({ w, maxCells }) => this.session.blocks(w, { maxCells, withPredictions: true }),
        onResult: (request, blocks) => this.showDragPreview(request, blocks),
        onError: (request, message) => this.showProblems([message]),
      });
    }

    createCharts() {
      this.predictionsChart = new NWPage.PredictionsChart(byId('predictionsChart'), {
        xMin: 0, xMax: 5,
        onQuery: (x) => this.edit('query', Math.round(x * 100) / 100, { live: true }),
      });
      this.heatmaps = {
        nonparametric: new NWPage.HeatmapChart(byId('nonparametricHeatmap'), { legendCanvas: byId('nonparametricLegend'), note: byId('nonparametricNote') }),
        parametric: new NWPage.HeatmapChart(byId('parametricHeatmap'), { legendCanvas: byId('parametricLegend'), note: byId('parametricNote') }),
      };
      this.lossChart = new NWPage.TrainingChart(byId('lossChart'), {
        series: [{ label: 'training loss', color: estimator.parametric, yTitle: 'loss' }, { label: 'test MSE', color: estimator.query, yTitle: 'test MSE' }],
      });
      this.wChart = new NWPage.TrainingChart(byId('wChart'), { series: [{ label: 'w', color: estimator.parametric, yTitle: 'w' }] });
      this.landscapeChart = new NWPage.LandscapeChart(byId('landscapeChart'));
      this.kernelPanels = FOUR_KERNELS.map(([kernel, title]) => new NWPage.KernelPanel(byId('kernelPanels'), { kernel, title }));
      this.pngCharts = [
        ['predictions', 'Predictions', this.predictionsChart.chart],
        ['nonparametric-weights', 'Nonparametric weights', this.heatmaps.nonparametric.chart],
        ['parametric-weights', 'Parametric weights', this.heatmaps.parametric.chart],
        ['training-loss', 'Training loss', this.lossChart.chart],
        ['learned-w', 'Learned w', this.wChart.chart],
        ['loss-landscape', 'Loss landscape', this.landscapeChart.chart],
      ];
      byId('pngChart').replaceChildren(...this.pngCharts.map(([value, label]) => new Option(label, value)));
    }

    bindButtons() {
      const on = (id, handler) => byId(id).addEventListener('click', handler);
      on('regenerate', () => this.edit('seed', (this.settings.seed + 1) % Number.MAX_SAFE_INTEGER));
      on('train', () => this.player.play(this.settings.epochs));
      on('step', () => { this.player.pause(); this.trainOneEpoch(); });
      on('pause', () => this.player.pause());
      on('reset', () => { this.player.pause(); this.edit('trained', 0); });
      on('converge', () => { this.player.pause(); this.trainToConvergence(); });
      on('useCsv', () => this.useCsv());
      on('clearData', () => {
        NWPage.ownData.clear();
        byId('csvText').value = '';
        this.edit('data', 'generated');
      });
      byId('csvFile').addEventListener('change', () => this.readFile(byId('csvFile'), (text) => {
        byId('csvText').value = text;
        this.useCsv();
      }));
      on('exportData', () => NWPage.exports.downloadText('nadaraya-watson-data.csv', 'text/csv', NWPage.exports.dataCsv(this.session.data)));
      on('exportPredictions', () => NWPage.exports.downloadText('nadaraya-watson-predictions.csv', 'text/csv',
        NWPage.exports.predictionsCsv(this.session.data, this.session.predictions(this.settings.w))));
      on('exportSession', () => NWPage.exports.downloadText('nadaraya-watson-session.json', 'application/json',
        NWPage.exports.sessionJson(this.settings, this.session, NWPage.ownData.load())));
      on('exportPng', () => {
        const [name, , chart] = this.pngCharts.find(([value]) => value === byId('pngChart').value);
        NWPage.exports.downloadUrl(`nadaraya-watson-${name}.png`, chart.toBase64Image('image/png', 1));
      });
      byId('importSession').addEventListener('change', () => this.readFile(byId('importSession'), (text) => this.importSession(text)));
    }

    showExercises() {
      byId('exerciseList').replaceChildren(...NWPage.exercises.map((exercise) => {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = exercise.title;
        button.addEventListener('click', () => this.runExercise(exercise));
        const text = document.createElement('p');
        text.textContent = exercise.explanation;
        item.append(button, text);
        return item;
      }));
    }

    runExercise(exercise) {
      this.player.pause();
      this.clearProblems();
      this.apply({ ...this.settings, ...exercise.settings }, 'push');
      if (exercise.then === 'train') this.player.play(this.settings.epochs);
      if (exercise.then === 'converge') this.trainToConvergence();
    }

    loadFromUrl() {
      this.player.pause();
      const { state, problems } = parse(location.hash);
      this.clearProblems();
      this.showProblems(problems);
      this.apply(state, 'replace');
    }

    // One setting changed by the reader. Live edits (slider drags, hovering a query) redraw without
    // adding a history entry; committed edits add one, so back and forward step through them.
    edit(name, value, { live = false } = {}) {
      this.clearProblems();
      if (value === undefined) {
        this.controls.show(this.settings);
        return;
      }
      if (dataKeys.includes(name) || objectiveKeys.includes(name) || name === 'trained') this.player.pause();
      if (live && name === 'w') {
        this.dragW(value);
        return;
      }
      const history = name === 'query' ? 'delayed' : live ? 'none' : 'push';
      this.apply({ ...this.settings, [name]: value }, history);
    }

    // While "Bandwidth w" is dragged, redraw only what w changes at once (the nonparametric line and a
    // coarse heatmap, computed by the drag preview) so each update fits in a frame; the rest follows when
    // the drag pauses.
    dragW(w) {
      this.settings = { ...this.settings, w };
      byId('wValue').textContent = formatW(w);
      const { data, kernel } = this.session;
      this.dragPreview.request({
        w, kernel, maxCells: DRAG_HEATMAP_CELLS, xTest: data.xTest, xTrain: data.xTrain, yTrain: data.yTrain,
        generation: this.renderGeneration, started: performance.now(),
      });
      clearTimeout(this.dragTimer);
      this.dragTimer = setTimeout(() => this.render(), DRAG_SETTLE_MS);
    }

    // Draws one drag preview, unless a full render has happened since it was asked for. The user timings
    // "nw:drag-update" (from the input to the drawn preview) and "nw:drag-draw" (the drawing alone) show
    // in the browser's performance tools and are what `npm run bench` reports.
    showDragPreview(request, blocks) {
      if (request.generation !== this.renderGeneration) return;
      const drawStart = performance.now();
      const { session } = this;
      const { data } = session;
      try {
        this.predictionsChart.setNonparametric(data.xTest, blocks.predictions);
        if (this.settings.attend === 'nonparametric' || !session.canTrain) {
          const query = this.predictionsChart.query;
          this.predictionsChart.setQuery(query, session.queryWeights(query, request.w));
        }
        this.predictionsChart.draw();
        this.heatmaps.nonparametric.setBlocks(blocks, data.xTest, data.xTrain);
        this.heatmaps.nonparametric.draw();
        this.drawnWith.nonparametric = null; // a coarse preview: the next render draws it in full
        byId('nonparametricTitleW').textContent = `(w = ${formatW(request.w)})`;
      } catch (error) {
        this.showProblems([error.message]);
      }
      performance.measure('nw:drag-draw', { start: drawStart });
      performance.measure('nw:drag-update', { start: request.started });
    }

    // Brings the session in line with `next` (new data or a new training run only when needed) and
    // redraws. On an error the previous settings and charts stay as they were.
    apply(next, history) {
      const previous = this.settings;
      const problems = [];
      next = { ...next };
      try {
        if (!previous || dataKeys.some((key) => next[key] !== previous[key])) {
          this.loadData(next, problems);
        } else if (objectiveKeys.some((key) => next[key] !== previous[key]) || next.trained < this.session.epoch) {
          this.session.resetTraining(next);
        }
        if (this.session.canTrain) {
          const target = this.replayLimit(next, problems);
          while (this.session.epoch < target) this.session.step();
        }
      } catch (error) {
        problems.push(error.message);
      }
      if (!this.session.data) {
        this.showProblems(problems);
        return;
      }
      this.settings = { ...next, trained: this.session.epoch };
      this.render();
      this.writeUrl(history);
      this.showProblems(problems);
    }

    // Generated data, or the reader's own from local storage (falling back to generated without it).
    loadData(next, problems) {
      if (next.data === 'own') {
        const points = NWPage.ownData.load();
        if (points) {
          this.session.useOwnData(points, next);
          return;
        }
        problems.push('Your data is not stored in this browser (it stays on the computer it was loaded on): showing generated data');
        next.data = 'generated';
      }
      this.session.generate(next);
    }

    // Epochs a link may ask to replay (and so epochs that may be trained) for this many samples.
    maxEpochs() {
      const n = this.session.data.xTrain.length;
      return Math.max(1, Math.floor(MAX_REPLAY_WORK / (n * n)));
    }

    replayLimit(next, problems) {
      const limit = this.maxEpochs();
      if (next.trained <= limit) return next.trained;
      problems.push(`Trained epochs: replaying at most ${limit} for ${this.session.data.xTrain.length} training samples`);
      return limit;
    }

    // One epoch for the player or the Step button; false stops the player.
    trainOneEpoch() {
      if (!this.session.canTrain) return false;
      const limit = this.maxEpochs();
      if (this.session.epoch >= limit) {
        this.showProblems([`Training stops at ${limit} epochs for ${this.session.data.xTrain.length} training samples, so that a shared link replays quickly`]);
        return false;
      }
      try {
        this.session.step();
      } catch (error) {
        this.showProblems([error.message]);
        return false;
      }
      this.settings = { ...this.settings, trained: this.session.epoch };
      this.render();
      this.writeUrl('replace');
      return true;
    }

    // Steps until w stops moving (or the epoch limit), then draws once.
    trainToConvergence() {
      if (!this.session.canTrain) return;
      const limit = this.maxEpochs();
      const start = this.session.epoch;
      let converged = false;
      try {
        while (this.session.epoch < limit && !converged) {
          const before = this.session.learnedW;
          this.session.step();
          converged = Math.abs(this.session.learnedW - before) <= CONVERGED * Math.abs(before);
        }
      } catch (error) {
        this.showProblems([error.message]);
      }
      if (!converged) this.showProblems([`Stopped after ${this.session.epoch} epochs (the limit for this many samples) before w settled`]);
      this.settings = { ...this.settings, trained: this.session.epoch };
      this.render();
      this.writeUrl(this.session.epoch > start ? 'push' : 'replace');
    }

    useCsv() {
      try {
        const points = NWPage.csv.parseCsv(byId('csvText').value);
        NWPage.ownData.save(points);
        this.player.pause();
        this.clearProblems();
        // Always reload: the stored data may have changed even if the setting has not.
        this.settings = { ...this.settings, data: 'generated' };
        this.apply({ ...this.settings, data: 'own', trained: 0, query: points.x[0] }, 'push');
      } catch (error) {
        this.showProblems([error.message]);
      }
    }

    readFile(input, onText) {
      const file = input.files && input.files[0];
      if (!file) return;
      if (file.size > 1_000_000) {
        this.showProblems([`${file.name.slice(0, 60)} is too large: at most 1 MB`]);
        input.value = '';
        return;
      }
      file.text().then(onText, (error) => this.showProblems([`Could not read the file: ${error.message}`]));
      input.value = '';
    }

    importSession(text) {
      let session;
      try {
        session = NWPage.exports.parseSession(text);
      } catch (error) {
        this.showProblems([error.message]);
        return;
      }
      this.player.pause();
      const { state, problems } = parse(session.settings);
      if (session.ownData) NWPage.ownData.save(session.ownData);
      this.clearProblems();
      this.showProblems(problems);
      this.settings = { ...this.settings, data: state.data === 'own' ? 'generated' : 'own' }; // forces a reload
      this.apply(state, 'push');
      const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
      if (!same(this.session.ws, session.training.ws) || !same(this.session.losses, session.training.losses)) {
        this.showProblems(['The replayed training differs from the one in the session file (was it made by another version?)']);
      }
    }

    render() {
      clearTimeout(this.dragTimer);
      this.renderGeneration += 1;
      const { settings: s, session } = this;
      const { data } = session;
      try {
        const predictions = session.predictions(s.w);
        const attendW = s.attend === 'parametric' && session.canTrain ? session.learnedW : s.w;
        const xMin = Math.min(data.xTrain[0], data.xTest[0]);
        const xMax = Math.max(data.xTrain[data.xTrain.length - 1], data.xTest[data.xTest.length - 1]);
        const query = Math.min(xMax, Math.max(xMin, s.query));
        this.predictionsChart.setRange(xMin, xMax);
        this.predictionsChart.setData(data, predictions);
        this.predictionsChart.setQuery(query, session.queryWeights(query, attendW));
        this.predictionsChart.draw();
        byId('query').min = String(xMin);
        byId('query').max = String(xMax);

        // The heatmaps and kernel panels are most of a render's time: each is redrawn only when what it
        // shows changed (not, say, when the query moves or an epoch leaves w where it was).
        if (this.changed('nonparametric', data, s.w, session.kernel)) {
          this.heatmaps.nonparametric.setBlocks(session.blocks(s.w, { maxCells: HEATMAP_CELLS }), data.xTest, data.xTrain);
          this.heatmaps.nonparametric.draw();
        }
        if (session.canTrain && this.changed('parametric', data, session.learnedW, session.kernel)) {
          this.heatmaps.parametric.setBlocks(session.blocks(session.learnedW, { maxCells: HEATMAP_CELLS }), data.xTest, data.xTrain);
          this.heatmaps.parametric.draw();
        }
        byId('nonparametricTitleW').textContent = `(w = ${formatW(s.w)})`;
        byId('parametricTitleW').textContent = session.canTrain ? `(w = ${formatW(session.learnedW)})` : '(cannot be trained)';

        this.lossChart.setSeries(0, session.losses, 1);
        this.lossChart.setSeries(1, session.testMses, 0);
        this.wChart.setSeries(0, session.ws, 0);
        this.lossChart.draw();
        this.wChart.draw();

        if (this.changed('kernels', data, s.w, session.kernel)) this.renderKernels(s.w);
        this.renderLandscape();
        this.showErrors(session.testErrors(predictions));
      } catch (error) {
        this.drawnWith = {}; // whatever failed is redrawn next time
        this.showProblems([error.message]);
      }
      this.showStatus();
      this.showEpochs();
      this.showDataNote();
      this.controls.show(s);
      for (const id of ['train', 'step', 'reset', 'converge']) byId(id).disabled = !session.canTrain || (id === 'train' && this.player.isPlaying);
      for (const id of ['nTrain', 'noiseSd', 'seed', 'regenerate']) byId(id).disabled = s.data === 'own';
    }

    // True (and remembered) when `inputs` differ from those `name` was last drawn with.
    changed(name, ...inputs) {
      const last = this.drawnWith[name];
      if (last && last.length === inputs.length && last.every((value, i) => Object.is(value, inputs[i]))) return false;
      this.drawnWith[name] = inputs;
      return true;
    }

    renderKernels(w) {
      byId('kernelNote').textContent = this.settings.kernel === 'constant'
        ? 'The constant kernel weighs every key equally: it is exactly average pooling, whatever w.' : '';
      byId('kernelsTitleW').textContent = `(w = ${formatW(w)})`;
      const { data } = this.session;
      for (const panel of this.kernelPanels) {
        const blocks = this.session.blocks(w, { kernel: panel.kernel, maxCells: PANEL_HEATMAP_CELLS, withPredictions: true });
        panel.set(data, blocks.predictions, blocks);
        panel.draw();
      }
    }

    renderLandscape() {
      const { session } = this;
      const note = byId('landscapeNote');
      const n = session.data.xTrain.length;
      const chartBox = byId('landscapeChart').parentElement;
      chartBox.hidden = n > LANDSCAPE_MAX_TRAIN;
      if (n > LANDSCAPE_MAX_TRAIN) {
        note.textContent = `The landscape is drawn for up to ${LANDSCAPE_MAX_TRAIN} training samples (it evaluates the loss ${LANDSCAPE_POINTS} times).`;
        return;
      }
      // The curve depends on the data and the objective only: recompute it when they change or the run leaves it.
      const stepsMax = session.ws.length ? Math.max(...session.ws.map(Math.abs)) : 0;
      const key = `${session.data.xTrain.length}|${session.data.yTrain[0]}|${session.data.xTrain[0]}|${session.kernel}|${session.objective.leaveOneOut}`;
      if (this.landscapeKey !== key || stepsMax > this.landscapeCurve.wMax) {
        const best = session.canTrain ? session.landscape([]).best : null;
        const wMax = Math.max(5, 1.5 * stepsMax, best ? 2 * best.w : 0, 1.2 * this.settings.w);
        const ws = Array.from({ length: LANDSCAPE_POINTS }, (_, i) => (wMax * i) / (LANDSCAPE_POINTS - 1));
        this.landscapeCurve = { ws, losses: session.landscape(ws).losses, best, wMax };
        this.landscapeKey = key;
      }
      const { best } = this.landscapeCurve;
      this.landscapeChart.set({ curve: this.landscapeCurve, steps: { ws: session.ws.slice(0, session.losses.length), losses: session.losses }, best });
      this.landscapeChart.draw();
      const what = session.objective.leaveOneOut ? 'exactly the leave-one-out cross-validation criterion L(w)' : 'L(w) with each query seeing its own key (leave-one-out is off), which only falls as w grows';
      if (!session.canTrain) {
        note.textContent = `The ${session.kernel} kernel's loss is piecewise constant in w: there is no gradient to follow and no minimiser to search for.`;
      } else if (best) {
        const last = session.losses.length ? session.losses[session.losses.length - 1] : null;
        note.textContent = `Training minimises ${what}. The star is its exact minimiser, w* = ${best.w.toFixed(4)} with L = ${best.loss.toFixed(4)}. `
          + (last === null ? 'Train to see the steps move down the curve.'
            : `After ${session.epoch} epochs, w = ${session.learnedW.toFixed(4)}; the last step started from L = ${last.toFixed(4)}, ${(100 * (last - best.loss) / best.loss).toFixed(3)}% above the minimum.`);
      }
    }

    showStatus() {
      const { session } = this;
      const status = byId('status');
      if (!session.canTrain) {
        status.textContent = session.untrainable;
        delete status.dataset.w;
        return;
      }
      const w = `w = ${formatW(session.learnedW)}`;
      status.textContent = session.epoch === 0
        ? `Epoch 0 · ${w} (w0${this.settings.data === 'own' ? '' : ', drawn at random as in the chapter'})`
        : `Epoch ${session.epoch} · loss ${session.losses[session.losses.length - 1].toFixed(4)} · ${w}`;
      status.dataset.w = String(session.learnedW);
    }

    showErrors(errors) {
      const rows = [
        ['Average pooling', '–', errors && errors.average],
        ['Nonparametric', formatW(this.settings.w), errors && errors.nonparametric],
        ['Parametric', formatW(this.session.learnedW), errors && errors.parametric],
      ];
      byId('mse').tBodies[0].replaceChildren(...rows.map((cells) => tableRow([cells[0], cells[1], formatNumber(cells[2], 4)])));
      byId('mse').title = errors ? '' : 'Your data has no known truth to compare with';
    }

    showEpochs() {
      const { losses, ws, testMses } = this.session;
      byId('epochTable').tBodies[0].replaceChildren(
        ...losses.map((loss, i) => tableRow([String(i + 1), loss.toFixed(6), ws[i + 1].toFixed(6), formatNumber(testMses[i + 1], 6)])));
    }

    showDataNote() {
      const note = byId('dataNote');
      note.textContent = this.settings.data === 'own'
        ? `Using your ${this.session.data.xTrain.length} points (kept in this browser). Test points: a grid over their range. No truth is known, so there is no test MSE.`
        : 'Paste or load x,y pairs (a header line is optional) to use them instead of the generated data.';
    }

    writeUrl(history) {
      clearTimeout(this.queryUrlTimer);
      if (history === 'none') return;
      const hash = `#${serialize(this.settings)}`;
      if (history === 'delayed') {
        this.queryUrlTimer = setTimeout(() => window.history.replaceState(null, '', hash), QUERY_URL_DELAY_MS);
      } else if (history === 'push' && hash !== location.hash) {
        window.history.pushState(null, '', hash);
      } else {
        window.history.replaceState(null, '', hash);
      }
    }

    showProblems(problems) {
      if (problems.length === 0) return;
      const box = byId('message');
      box.textContent = [box.hidden ? '' : box.textContent, ...problems].filter(Boolean).join('\n');
      box.hidden = false;
    }

    clearProblems() {
      byId('message').textContent = '';
      byId('message').hidden = true;
    }
  }

  function tableRow(cells) {
    const row = document.createElement('tr');
    for (const text of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  }

  createNW()
    .then((nw) => new App(nw).start())
    .catch((error) => {
      byId('loading').textContent = `The WebAssembly module could not start: ${error && error.message ? error.message : error}`;
    });
})((window.NWPage = window.NWPage || {}));
