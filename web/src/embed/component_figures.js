// What each <nw-figure figure="..."> shows: its charts, caption and notes, built in the element's shadow
// root and drawn from a Session by the same figure modules as the page's (figures/), with the page's
// dictionary in the element's language (build's t). `controls` names the controls the element
// adds above the figure: 'w' (the distance scale), 'train', or the design's 'scoring' and 'designTrain'.
import { buildDesign } from './component_design.js';
import { drawKernelPanel, kernelPanels } from '../figures/kernels.js';
import { LandscapeFigure } from '../figures/landscape.js';
import { PredictionsFigure } from '../figures/predictions.js';
import { boundaryNote, formatW, stageText, weightsEstimatorNote } from '../figures/texts.js';
import { describeTraining, drawLoss, drawW, lossChart, wChart } from '../figures/training.js';
import { describeWeights, drawHeatmap, heatmapW, partHeatmap } from '../figures/weights.js';

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

// The figure's titles sit one level under the lesson's last heading before the element (h2 after an h1;
// 2 without one), so that the lesson's outline stays in order for screen readers.
function titleLevel(element) {
  const before = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .filter((heading) => heading.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING);
  return before.length ? Math.min(6, Number(before.at(-1).tagName[1]) + 1) : 2;
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
      const predictions = new PredictionsFigure(canvases.chart, { onQuery, t });
      return {
        charts: [predictions.chart.chart],
        render(session, s) {
          const query = predictions.set(session, s, session.predictions(s.w));
          predictions.draw();
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
      const mark = { at: null };
      const elements = ({ canvases }) => ({ canvas: canvases.heatmap, legend: canvases.heatmapLegend, note: canvases.heatmapNote });
      const charts = {
        nonparametric: partHeatmap(elements(nonparametric), 'nonparametric', () => mark.at, onQuery, t),
        parametric: partHeatmap(elements(parametric), 'parametric', () => mark.at, onQuery, t),
      };
      const titles = { nonparametric: nonparametric.canvases.heatmap.closest('figure').querySelector('.title'), parametric: parametric.canvases.heatmap.closest('figure').querySelector('.title') };
      return {
        charts: [charts.nonparametric.chart, charts.parametric.chart],
        render(session, s) {
          const { xMin, xMax } = session.xRange;
          mark.at = { x: Math.min(xMax, Math.max(xMin, s.query)), shown: session.attentionShown(s) };
          const described = describeWeights(session, s, t);
          drawHeatmap(charts.nonparametric, session, heatmapW('nonparametric', session, s));
          nonparametric.notes[0].textContent = weightsEstimatorNote(session, t);
          titles.nonparametric.textContent = t('weights.nonparametricTitle', { 0: `(w = ${formatW(s.w)})` });
          nonparametric.canvases.heatmap.setAttribute('aria-label', described.nonparametric);
          drawHeatmap(charts.parametric, session, heatmapW('parametric', session, s));
          titles.parametric.textContent = session.canTrain ? t('figure.parametricTitle', { w: formatW(session.learnedW), stage: stageText(session, t) })
            : t('weights.parametricTitle', { 0: t('weights.cannotTrain') });
          parametric.canvases.heatmap.setAttribute('aria-label', described.parametric);
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
      const loss = lossChart(canvases.loss, t);
      const w = wChart(canvases.w, t);
      return {
        charts: [loss.chart, w.chart],
        render(session) {
          drawLoss(loss, session);
          drawW(w, session);
          describeTraining(session, canvases.loss, canvases.w, t);
        },
      };
    },
  },

  design: {
    controls: ['scoring', 'designTrain'],
    build(root, { t, host }) {
      return buildDesign(root, { t, host, figure, el: element });
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
      const landscape = new LandscapeFigure(canvases.chart, { t });
      return {
        charts: [landscape.chart.chart],
        render(session, s) {
          note.textContent = landscape.draw(session, s);
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
      const panels = kernelPanels(container, t);
      const title = container.previousElementSibling;
      return {
        charts: panels.flatMap((panel) => [panel.predictions, panel.heatmap.chart]),
        render(session, s) {
          title.textContent = t('figure.kernelsTitleW', { w: formatW(s.w) });
          for (const panel of panels) drawKernelPanel(panel, session, s.w);
        },
      };
    },
  },
};

const FIGURE_NAMES = Object.keys(views);

export { FIGURE_NAMES, element, titleLevel, views };
