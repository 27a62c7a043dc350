// Figure 2, the attention weights as heatmaps (nonparametric at the settings' w, parametric at the learned
// w), for the page and <nw-figure> alike: the charts, what each is computed from, and their descriptions.
import { HeatmapChart } from '../charts/heatmap_chart.js';
import { lazy } from '../charts/lazy.js';
import { t as pageT } from '../i18n/i18n.js';
import { formatW, stageText, weightsShape } from './texts.js';

// elements: { canvas, legend, note }.
const heatmapChart = ({ canvas, legend, note }, { onQuery, queryMark, t = pageT }) => new HeatmapChart(canvas, { legendCanvas: legend, note, onQuery, queryMark, t });

// The heatmap of `part` ('nonparametric' or 'parametric'): a hovered row reports the part too
// (onQuery(x, part)), and the query's row is outlined as currentMark() says ({ x, shown: the part whose
// attention the predictions chart shows } or null), read at each draw.
function partHeatmap(elements, part, currentMark, onQuery, t = pageT) {
  return heatmapChart(elements, {
    onQuery: (x) => onQuery(x, part),
    queryMark: () => { const mark = currentMark(); return mark && { x: mark.x, shown: mark.shown === part }; },
    t,
  });
}

// The page's two heatmaps ({ charts: { nonparametric, parametric }, markQuery }), each chart created
// when first used (charts/lazy.js). elementsOf(part): its { canvas, legend, note }. A hovered row reports
// its heatmap (onQuery(x, part)). markQuery(x, shownPart) outlines the query's row on both, solid on the
// heatmap whose attention the predictions chart shows; charts not yet created read it when drawn.
function pageHeatmaps(elementsOf, onQuery) {
  const charts = {};
  const created = new Set();
  let mark = null;
  for (const part of ['nonparametric', 'parametric']) {
    lazy(charts, part, () => {
      created.add(part);
      return partHeatmap(elementsOf(part), part, () => mark, onQuery);
    });
  }
  const markQuery = (x, shownPart) => {
    if (mark && mark.x === x && mark.shown === shownPart) return;
    mark = { x, shown: shownPart };
    for (const part of created) charts[part].chart.draw();
  };
  // Until a heatmap is created, its note holds what it will most likely say once drawn (null: no
  // weights to show), so that drawing it near the view does not move what lies below it (the button a
  // reader who jumped to step 3 is about to press). Once created, the chart writes its own note.
  const planNote = (part, shape) => {
    if (created.has(part)) return;
    const { canvas, note } = elementsOf(part);
    note.textContent = shape === null ? '' : plannedBlocksNote(canvas.parentElement, shape.rows, shape.cols);
  };
  return { charts, markQuery, planNote };
}

// The downsampling note of a rows x cols heatmap drawn in `box` as it is laid out now: its chart area is
// the box less its axes (about 56 x 40 CSS pixels), one block per device pixel at most, as the module
// makes blocks (steps of ceil(rows / capacity)).
function plannedBlocksNote(box, rows, cols, t = pageT) {
  const ratio = window.devicePixelRatio || 1;
  const rowStep = Math.ceil(rows / Math.max(1, Math.round((box.clientHeight - 40) * ratio)));
  const colStep = Math.ceil(cols / Math.max(1, Math.round((box.clientWidth - 56) * ratio)));
  if (rowStep <= 1 && colStep <= 1) return '';
  return t('heatmap.blocksNote', { rows, cols, blockRows: Math.ceil(rows / rowStep), blockCols: Math.ceil(cols / colStep), rowStep, colStep });
}

// The w a heatmap shows, or null: the parametric one has none when the kernel cannot be trained.
const heatmapW = (part, session, s) => (part === 'nonparametric' ? s.w : session.canTrain ? session.learnedW : null);

// compute(maxCells) of a heatmap's blocks (with the predictions of the same pass: the line at that w).
const blocksAt = (session, w, kernel = session.kernel) => (maxCells) => session.blocks(w, { kernel, maxCells, withPredictions: true });

// Draws a heatmap computed here at w (null: emptied, not left stale).
function drawHeatmap(chart, session, w) {
  if (w === null) chart.clear();
  else chart.show(blocksAt(session, w), session.data.xTest, session.data.xTrain);
  chart.draw();
}

// The heatmaps' text alternatives, with the numbers they show.
function describeWeights(session, s, t = pageT) {
  const shape = weightsShape(session, t);
  return {
    nonparametric: t('describe.nonparametricWeights', { w: formatW(s.w), shape }),
    parametric: session.canTrain ? t('describe.parametricWeights', { w: formatW(session.learnedW), stage: stageText(session, t), shape }) : t('describe.noParametricWeights'),
  };
}

export { blocksAt, describeWeights, drawHeatmap, heatmapW, pageHeatmaps, partHeatmap };
