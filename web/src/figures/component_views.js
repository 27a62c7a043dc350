// What each <nw-figure figure="..."> shows: its charts, caption and notes, built in the element's shadow
// root, and how they are drawn from a Session (every number from the WebAssembly module), with the
// page's dictionary in the element's language (build's t). `controls` names the controls the element
// adds above the figure: 'w' (the distance scale) or 'train'.
import { estimator } from '../charts/colors.js';
import { HeatmapChart } from '../charts/heatmap_chart.js';
import { FOUR_KERNELS, KernelPanel } from '../charts/kernel_panel.js';
import { LandscapeChart } from '../charts/landscape_chart.js';
import { PredictionsChart } from '../charts/predictions_chart.js';
import { TrainingChart } from '../charts/training_chart.js';
import { LANDSCAPE_MAX_TRAIN, landscapeCurve, landscapeNote, runReach, runSteps } from '../model/landscape.js';
import { boundaryNote, describeTraining, formatW, labelLines, stageText, weightsEstimatorNote, weightsShape } from './texts.js';

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
function figure(root, { title, charts, caption, notes = [], t }) {
  const canvases = {};
  const parts = [element('h3', { className: 'title' }, title)];
  for (const { name, label, square = false, legend = false } of charts) {
    canvases[name] = element('canvas', { role: 'img', 'aria-label': label });
    parts.push(element('div', { className: square ? 'chart square' : 'chart' }, canvases[name]));
    if (legend) {
      canvases[`${name}Legend`] = element('canvas', { className: 'legend', width: 240, height: 28, role: 'img', 'aria-label': t('weights.legendLabel') });
      canvases[`${name}Note`] = element('p', { className: 'note' });
      parts.push(canvases[`${name}Legend`], canvases[`${name}Note`]);
    }
  }
  const noteElements = notes.map(() => element('p', { className: 'note' }));
  root.append(element('figure', { className: 'figure' }, ...parts, element('figcaption', {}, caption), ...noteElements));
  return { canvases, notes: noteElements };
}

function heatmap(canvases, name, onQuery, t) {
  return new HeatmapChart(canvases[name], { legendCanvas: canvases[`${name}Legend`], note: canvases[`${name}Note`], onQuery, t });
}

const views = {
  predictions: {
    controls: ['w'],
    build(root, { onQuery, t }) {
      const { canvases, notes: [note] } = figure(root, {
        title: t('png.predictions'),
        charts: [{ name: 'chart', label: t('predictions.chartLabel') }],
        caption: t('figure.predictionsCaption'),
        notes: ['note'],
        t,
      });
      const chart = new PredictionsChart(canvases.chart, { xMin: 0, xMax: 5, onQuery, t });
      return {
        charts: [chart.chart],
        render(session, s) {
          const { xMin, xMax } = session.xRange;
          const query = Math.min(xMax, Math.max(xMin, s.query));
          chart.setRange(xMin, xMax);
          chart.setData(session.data, session.predictions(s.w));
          labelLines(chart, session, t);
          chart.setQuery(query, session.queryWeights(query, session.attentionFollowsW(s) ? s.w : session.learnedW));
          chart.draw();
          const learned = session.canTrain ? t('describe.learned', { w: formatW(session.learnedW), stage: stageText(session, t), mse: '' }) : t('describe.noParametric');
          canvases.chart.setAttribute('aria-label', t('describe.predictions', { query: query.toFixed(2), averageMse: '', w: formatW(s.w), nonparametricMse: '', learned }));
          note.textContent = boundaryNote(session, s.w, t);
        },
      };
    },
  },

  weights: {
    controls: ['w'],
    build(root, { onQuery, t }) {
      const nonparametric = figure(root, {
        title: t('png.nonparametricWeights'),
        charts: [{ name: 'heatmap', label: t('weights.nonparametricLabel'), square: true, legend: true }],
        caption: t('figure.weightsCaption'),
        notes: ['estimator'],
        t,
      });
      const parametric = figure(root, {
        title: t('png.parametricWeights'),
        charts: [{ name: 'heatmap', label: t('weights.parametricLabel'), square: true, legend: true }],
        caption: t('weights.parametricCaption'),
        t,
      });
      const charts = { nonparametric: heatmap(nonparametric.canvases, 'heatmap', onQuery, t), parametric: heatmap(parametric.canvases, 'heatmap', onQuery, t) };
      const titles = { nonparametric: nonparametric.canvases.heatmap.closest('figure').querySelector('.title'), parametric: parametric.canvases.heatmap.closest('figure').querySelector('.title') };
      return {
        charts: [charts.nonparametric.chart, charts.parametric.chart],
        render(session, s) {
          const { xTest, xTrain } = session.data;
          charts.nonparametric.show((maxCells) => session.blocks(s.w, { maxCells }), xTest, xTrain);
          charts.nonparametric.draw();
          nonparametric.notes[0].textContent = weightsEstimatorNote(session, t);
          titles.nonparametric.textContent = t('weights.nonparametricTitle', { 0: `(w = ${formatW(s.w)})` });
          nonparametric.canvases.heatmap.setAttribute('aria-label', t('describe.nonparametricWeights', { w: formatW(s.w), shape: weightsShape(session, t) }));
          if (session.canTrain) {
            charts.parametric.show((maxCells) => session.blocks(session.learnedW, { maxCells }), xTest, xTrain);
            titles.parametric.textContent = t('figure.parametricTitle', { w: formatW(session.learnedW), stage: stageText(session, t) });
            parametric.canvases.heatmap.setAttribute('aria-label', t('describe.parametricWeights', { w: formatW(session.learnedW), stage: stageText(session, t), shape: weightsShape(session, t) }));
          } else {
            charts.parametric.clear();
            titles.parametric.textContent = t('weights.parametricTitle', { 0: t('weights.cannotTrain') });
            parametric.canvases.heatmap.setAttribute('aria-label', t('describe.noParametricWeights'));
          }
          charts.parametric.draw();
        },
      };
    },
  },

  training: {
    controls: ['train'],
    build(root, { t }) {
      const { canvases } = figure(root, {
        title: t('training.legend'),
        charts: [{ name: 'loss', label: t('figure.lossLabel') }, { name: 'w', label: t('wChart.label') }],
        caption: t('figure.trainingCaption'),
        t,
      });
      const loss = new TrainingChart(canvases.loss, {
        series: [{ label: t('chart.trainingLoss'), color: estimator.parametric, yTitle: t('chart.loss') }, { label: t('chart.testMse'), color: estimator.query, yTitle: t('chart.testMse') }],
        t,
      });
      const w = new TrainingChart(canvases.w, { series: [{ label: 'w', color: estimator.parametric, yTitle: 'w' }], t });
      return {
        charts: [loss.chart, w.chart],
        render(session) {
          loss.setSeries(0, session.losses, 1);
          loss.setSeries(1, session.testMses, 0);
          w.setSeries(0, session.ws, 0);
          loss.draw();
          w.draw();
          describeTraining(session, canvases.loss, canvases.w, t);
        },
      };
    },
  },

  landscape: {
    controls: ['train'],
    build(root, { t }) {
      const { canvases, notes: [note] } = figure(root, {
        title: t('landscape.title'),
        charts: [{ name: 'chart', label: t('landscape.label') }],
        caption: t('landscape.caption'),
        notes: ['note'],
        t,
      });
      const chart = new LandscapeChart(canvases.chart, { t });
      let curve = null;
      let curveOf = null; // the session data and objective the curve was computed for
      return {
        charts: [chart.chart],
        render(session, s) {
          const tooMany = session.data.xTrain.length > LANDSCAPE_MAX_TRAIN;
          canvases.chart.parentElement.hidden = tooMany;
          if (!tooMany) {
            const of = [session.data, session.kernel, session.estimator, session.objective.leaveOneOut, session.objective.loss];
            if (!curve || !of.every((value, i) => value === curveOf[i]) || runReach(session) > curve.wMax) {
              curve = landscapeCurve(session, s);
              curveOf = of;
            }
            chart.set({ curve, steps: runSteps(session), best: curve.best });
            chart.draw();
          }
          note.textContent = landscapeNote(session, tooMany ? null : curve, t);
        },
      };
    },
  },

  kernels: {
    controls: ['w'],
    build(root, { t }) {
      const container = element('div', { className: 'panels' });
      root.append(element('figure', { className: 'figure' },
        element('h3', { className: 'title' }, t('figure.kernelsTitle')), container,
        element('figcaption', {}, t('figure.kernelsCaption'))));
      const panels = FOUR_KERNELS.map(([kernel, title]) => new KernelPanel(container, { kernel, title: t(title), t }));
      const title = container.previousElementSibling;
      return {
        charts: panels.flatMap((panel) => [panel.predictions, panel.heatmap.chart]),
        render(session, s) {
          title.textContent = t('figure.kernelsTitleW', { w: formatW(s.w) });
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
