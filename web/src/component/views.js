// What each <nw-figure figure="..."> shows: its charts, caption and notes, built in the element's shadow
// root, and how they are drawn from a Session (every number from the WebAssembly module). `controls`
// names the controls the element adds above the figure: 'w' (the distance scale) or 'train'.
import { estimator } from '../charts/colors.js';
import { HeatmapChart } from '../charts/heatmap_chart.js';
import { FOUR_KERNELS, KernelPanel } from '../charts/kernel_panel.js';
import { LandscapeChart } from '../charts/landscape_chart.js';
import { PredictionsChart } from '../charts/predictions_chart.js';
import { TrainingChart } from '../charts/training_chart.js';
import { LANDSCAPE_MAX_TRAIN, landscapeCurve, landscapeNote, runReach, runSteps } from '../landscape.js';

const formatW = (w) => (Number.isFinite(w) ? w.toFixed(2) : '–');

function element(tag, properties = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (name.startsWith('aria-') || name === 'role') node.setAttribute(name, value);
    else node[name] = value;
  }
  node.append(...children);
  return node;
}

// A figure with a title, chart boxes and a caption, appended to root; returns its canvases by name.
function figure(root, { title, charts, caption, notes = [] }) {
  const canvases = {};
  const parts = [element('h3', { className: 'title' }, title)];
  for (const { name, label, square = false, legend = false } of charts) {
    canvases[name] = element('canvas', { role: 'img', 'aria-label': label });
    parts.push(element('div', { className: square ? 'chart square' : 'chart' }, canvases[name]));
    if (legend) {
      canvases[`${name}Legend`] = element('canvas', { className: 'legend', width: 240, height: 28, role: 'img', 'aria-label': 'Colour scale of the weights' });
      canvases[`${name}Note`] = element('p', { className: 'note' });
      parts.push(canvases[`${name}Legend`], canvases[`${name}Note`]);
    }
  }
  const noteElements = notes.map(() => element('p', { className: 'note' }));
  root.append(element('figure', { className: 'figure' }, ...parts, element('figcaption', {}, caption), ...noteElements));
  return { canvases, notes: noteElements };
}

function heatmap(canvases, name, onQuery) {
  return new HeatmapChart(canvases[name], { legendCanvas: canvases[`${name}Legend`], note: canvases[`${name}Note`], onQuery });
}

const weightsShape = (session) => `${session.data.xTest.length} test inputs (rows) by ${session.data.xTrain.length} training inputs (columns)`;

const views = {
  predictions: {
    controls: ['w'],
    build(root, { onQuery }) {
      const { canvases } = figure(root, {
        title: 'Predictions',
        charts: [{ name: 'chart', label: 'Predictions of average, nonparametric and parametric attention pooling' }],
        caption: 'Hover over the chart or tap it to choose a query: each training point is then drawn as large and as dark as the attention that query pays it.',
      });
      const chart = new PredictionsChart(canvases.chart, { xMin: 0, xMax: 5, onQuery });
      return {
        charts: [chart.chart],
        render(session, s) {
          const { xMin, xMax } = session.xRange;
          const query = Math.min(xMax, Math.max(xMin, s.query));
          chart.setRange(xMin, xMax);
          chart.setData(session.data, session.predictions(s.w));
          chart.setParametricLabel(session.canTrain ? `Parametric (${session.stage})` : 'Parametric');
          chart.setQuery(query, session.queryWeights(query, session.attentionFollowsW(s) ? s.w : session.learnedW));
          chart.draw();
          canvases.chart.setAttribute('aria-label', `Predictions at the query x = ${query.toFixed(2)}: average pooling, nonparametric at w = ${formatW(s.w)}`
            + (session.canTrain ? `, parametric at learned w = ${formatW(session.learnedW)} (${session.stage}).` : '.'));
        },
      };
    },
  },

  weights: {
    controls: ['w'],
    build(root, { onQuery }) {
      const nonparametric = figure(root, {
        title: 'Nonparametric weights',
        charts: [{ name: 'heatmap', label: 'Heatmap of the nonparametric attention weights', square: true, legend: true }],
        caption: 'Each row is one test input\'s attention over the training inputs, both sorted; darker is more weight. Hover over a row (or tap it) to see its query.',
      });
      const parametric = figure(root, {
        title: 'Parametric weights',
        charts: [{ name: 'heatmap', label: 'Heatmap of the parametric attention weights', square: true, legend: true }],
        caption: 'The same with the learned w: the sharper the kernel, the thinner the band along the diagonal.',
      });
      const charts = { nonparametric: heatmap(nonparametric.canvases, 'heatmap', onQuery), parametric: heatmap(parametric.canvases, 'heatmap', onQuery) };
      const titles = { nonparametric: nonparametric.canvases.heatmap.closest('figure').querySelector('.title'), parametric: parametric.canvases.heatmap.closest('figure').querySelector('.title') };
      return {
        charts: [charts.nonparametric.chart, charts.parametric.chart],
        render(session, s) {
          const { xTest, xTrain } = session.data;
          charts.nonparametric.show((maxCells) => session.blocks(s.w, { maxCells }), xTest, xTrain);
          charts.nonparametric.draw();
          titles.nonparametric.textContent = `Nonparametric weights (w = ${formatW(s.w)})`;
          nonparametric.canvases.heatmap.setAttribute('aria-label', `Nonparametric attention weights at w = ${formatW(s.w)}, ${weightsShape(session)}.`);
          if (session.canTrain) {
            charts.parametric.show((maxCells) => session.blocks(session.learnedW, { maxCells }), xTest, xTrain);
            titles.parametric.textContent = `Parametric weights (w = ${formatW(session.learnedW)}, ${session.stage})`;
            parametric.canvases.heatmap.setAttribute('aria-label', `Parametric attention weights at w = ${formatW(session.learnedW)} (${session.stage}), ${weightsShape(session)}.`);
          } else {
            charts.parametric.clear();
            titles.parametric.textContent = 'Parametric weights (this kernel cannot be trained)';
            parametric.canvases.heatmap.setAttribute('aria-label', 'No parametric weights: this kernel cannot be trained.');
          }
          charts.parametric.draw();
        },
      };
    },
  },

  training: {
    controls: ['train'],
    build(root) {
      const { canvases } = figure(root, {
        title: 'Training',
        charts: [{ name: 'loss', label: 'Training loss per epoch' }, { name: 'w', label: 'Learned w per epoch' }],
        caption: 'Left: the leave-one-out training loss before each epoch\'s step, and the parametric estimator\'s test MSE. Right: w at the start (drawn at random as in the chapter) and after each epoch.',
      });
      const loss = new TrainingChart(canvases.loss, {
        series: [{ label: 'training loss', color: estimator.parametric, yTitle: 'loss' }, { label: 'test MSE', color: estimator.query, yTitle: 'test MSE' }],
      });
      const w = new TrainingChart(canvases.w, { series: [{ label: 'w', color: estimator.parametric, yTitle: 'w' }] });
      return {
        charts: [loss.chart, w.chart],
        render(session) {
          loss.setSeries(0, session.losses, 1);
          loss.setSeries(1, session.testMses, 0);
          w.setSeries(0, session.ws, 0);
          loss.draw();
          w.draw();
          const { losses, ws } = session;
          canvases.loss.setAttribute('aria-label', losses.length
            ? `Training loss per epoch: ${losses[0].toFixed(4)} before the first step, ${losses[losses.length - 1].toFixed(4)} before the last of ${losses.length}.`
            : 'Training loss per epoch: no epoch has run yet.');
          canvases.w.setAttribute('aria-label', ws.length
            ? `Learned w per epoch: ${formatW(ws[0])} at the start, ${formatW(ws[ws.length - 1])} after ${ws.length - 1} epoch${ws.length === 2 ? '' : 's'}.`
            : 'Learned w: this kernel cannot be trained.');
        },
      };
    },
  },

  landscape: {
    controls: ['train'],
    build(root) {
      const { canvases, notes: [note] } = figure(root, {
        title: 'The loss landscape',
        charts: [{ name: 'chart', label: 'The training objective L(w) with the training steps and its minimiser' }],
        caption: 'The training objective L(w) over w, with the training run\'s steps on it, and (dashed, right axis) the nonparametric estimator\'s test MSE at each w.',
        notes: ['note'],
      });
      const chart = new LandscapeChart(canvases.chart);
      let curve = null;
      let curveOf = null; // the session data and objective the curve was computed for
      return {
        charts: [chart.chart],
        render(session, s) {
          const tooMany = session.data.xTrain.length > LANDSCAPE_MAX_TRAIN;
          canvases.chart.parentElement.hidden = tooMany;
          if (!tooMany) {
            const of = [session.data, session.kernel, session.objective.leaveOneOut, session.objective.loss];
            if (!curve || !of.every((value, i) => value === curveOf[i]) || runReach(session) > curve.wMax) {
              curve = landscapeCurve(session, s);
              curveOf = of;
            }
            chart.set({ curve, steps: runSteps(session), best: curve.best });
            chart.draw();
          }
          note.textContent = landscapeNote(session, tooMany ? null : curve);
        },
      };
    },
  },

  kernels: {
    controls: ['w'],
    build(root) {
      const container = element('div', { className: 'panels' });
      root.append(element('figure', { className: 'figure' },
        element('h3', { className: 'title' }, 'Four kernels'), container,
        element('figcaption', {}, 'The constant kernel gives every key the same weight, so it is exactly average pooling; boxcar and epanechnikov give no weight beyond |d| = 1, and a query with no key that close takes its nearest key\'s value.')));
      const panels = FOUR_KERNELS.map(([kernel, title]) => new KernelPanel(container, { kernel, title }));
      const title = container.previousElementSibling;
      return {
        charts: panels.flatMap((panel) => [panel.predictions, panel.heatmap.chart]),
        render(session, s) {
          title.textContent = `Four kernels (w = ${formatW(s.w)})`;
          for (const panel of panels) {
            panel.set(session.data, session.xRange, (maxCells) => session.blocks(s.w, { kernel: panel.kernel, maxCells, withPredictions: true }));
            panel.draw();
          }
        },
      };
    },
  },
};

const FIGURE_NAMES = Object.keys(views);

export { FIGURE_NAMES, element, views };
