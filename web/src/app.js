// Wires the page: settings from the URL -> session (WebAssembly) -> charts and tables, and back to the URL.
(function (NWPage) {
  'use strict';

  const { parse, serialize, dataKeys } = NWPage.state;
  const { estimator } = NWPage.colors;
  const byId = (id) => document.getElementById(id);
  const X_RANGE = { xMin: 0, xMax: 5 };
  // A shared link replays its trained epochs; each costs about nTrain^2 kernel evaluations.
  const MAX_REPLAY_WORK = 2e8;
  const QUERY_URL_DELAY_MS = 300;

  const formatW = (w) => w.toFixed(2);

  class App {
    constructor(nw) {
      this.session = new NWPage.Session(nw);
      this.settings = null;
      this.queryUrlTimer = null;
    }

    start() {
      document.body.classList.toggle('embed', new URLSearchParams(location.search).get('embed') === '1');
      this.predictionsChart = new NWPage.PredictionsChart(byId('predictionsChart'), {
        ...X_RANGE,
        onQuery: (x) => this.edit('query', Math.round(x * 100) / 100, { live: true }),
      });
      this.heatmaps = {
        nonparametric: new NWPage.HeatmapChart(byId('nonparametricHeatmap'), {
          legendCanvas: byId('nonparametricLegend'), note: byId('nonparametricNote'),
        }),
        parametric: new NWPage.HeatmapChart(byId('parametricHeatmap'), {
          legendCanvas: byId('parametricLegend'), note: byId('parametricNote'),
        }),
      };
      this.lossChart = new NWPage.TrainingChart(byId('lossChart'), { label: 'loss', color: estimator.parametric, yTitle: 'loss' });
      this.wChart = new NWPage.TrainingChart(byId('wChart'), { label: 'w', color: estimator.parametric, yTitle: 'w' });
      this.controls = new NWPage.Controls({
        onEdit: (name, value, options) => this.edit(name, value, options),
        onProblem: (message) => this.showProblems([message]),
      });
      this.player = new NWPage.Player({
        step: () => this.trainOneEpoch(),
        onChange: (playing) => { byId('train').disabled = playing; },
      });

      byId('regenerate').addEventListener('click', () => this.edit('seed', (this.settings.seed + 1) % Number.MAX_SAFE_INTEGER));
      byId('train').addEventListener('click', () => this.player.play(this.settings.epochs));
      byId('step').addEventListener('click', () => { this.player.pause(); this.trainOneEpoch(); });
      byId('pause').addEventListener('click', () => this.player.pause());
      byId('reset').addEventListener('click', () => { this.player.pause(); this.edit('trained', 0); });
      window.addEventListener('popstate', () => this.loadFromUrl());

      this.loadFromUrl();
      byId('loading').hidden = true;
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
      if (dataKeys.includes(name) || name === 'lr' || name === 'trained') this.player.pause();
      const history = name === 'query' ? 'delayed' : live ? 'none' : 'push';
      this.apply({ ...this.settings, [name]: value }, history);
    }

    // Brings the session in line with `next` (new data or a new training run only when needed) and
    // redraws. On an error the previous settings and charts stay as they were.
    apply(next, history) {
      const previous = this.settings;
      const problems = [];
      try {
        if (!previous || dataKeys.some((key) => next[key] !== previous[key])) {
          this.session.generate(next);
        } else if (next.lr !== previous.lr || next.trained < this.session.epoch) {
          this.session.resetTraining(next.lr);
        }
        const target = this.replayLimit(next, problems);
        while (this.session.epoch < target) this.session.step();
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

    // Epochs a link may ask to replay (and so epochs that may be trained) for this many samples.
    static maxEpochs(nTrain) {
      return Math.max(1, Math.floor(MAX_REPLAY_WORK / (nTrain * nTrain)));
    }

    replayLimit(next, problems) {
      const limit = App.maxEpochs(next.nTrain);
      if (next.trained <= limit) return next.trained;
      problems.push(`Trained epochs: replaying at most ${limit} for ${next.nTrain} training samples`);
      return limit;
    }

    // One epoch for the player or the Step button; false stops the player.
    trainOneEpoch() {
      const limit = App.maxEpochs(this.settings.nTrain);
      if (this.session.epoch >= limit) {
        this.showProblems([`Training stops at ${limit} epochs for ${this.settings.nTrain} training samples, so that a shared link replays quickly`]);
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

    render() {
      const { settings: s, session } = this;
      const { data } = session;
      try {
        const predictions = session.predictions(s.w);
        const attendW = s.attend === 'parametric' ? session.learnedW : s.w;
        this.predictionsChart.setData(data, predictions);
        this.predictionsChart.setQuery(s.query, session.queryWeights(s.query, attendW));
        this.predictionsChart.draw();

        this.heatmaps.nonparametric.setWeights(session.weights(s.w), data.xTest, data.xTrain);
        this.heatmaps.parametric.setWeights(session.weights(session.learnedW), data.xTest, data.xTrain);
        this.heatmaps.nonparametric.draw();
        this.heatmaps.parametric.draw();
        byId('nonparametricTitleW').textContent = `(w = ${formatW(s.w)})`;
        byId('parametricTitleW').textContent = `(w = ${formatW(session.learnedW)})`;

        this.lossChart.setSeries(session.losses, 1);
        this.wChart.setSeries(session.ws, 0);
        this.lossChart.draw();
        this.wChart.draw();

        this.showErrors(session.testErrors(predictions));
      } catch (error) {
        this.showProblems([error.message]);
      }
      this.showStatus();
      this.showEpochs();
      this.controls.show(s);
    }

    showStatus() {
      const { session } = this;
      const w = `w = ${formatW(session.learnedW)}`;
      byId('status').textContent = session.epoch === 0
        ? `Epoch 0 · ${w} (w0, drawn at random as in the chapter)`
        : `Epoch ${session.epoch} · loss ${session.losses[session.losses.length - 1].toFixed(4)} · ${w}`;
      byId('status').dataset.w = String(session.learnedW);
    }

    showErrors(errors) {
      const rows = [
        ['Average pooling', '–', errors.average],
        ['Nonparametric', formatW(this.settings.w), errors.nonparametric],
        ['Parametric', formatW(this.session.learnedW), errors.parametric],
      ];
      byId('mse').tBodies[0].replaceChildren(...rows.map((cells) => tableRow([cells[0], cells[1], cells[2].toFixed(4)])));
    }

    showEpochs() {
      const { losses, ws } = this.session;
      byId('epochTable').tBodies[0].replaceChildren(
        ...losses.map((loss, i) => tableRow([String(i + 1), loss.toFixed(6), ws[i + 1].toFixed(6)])));
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
