// <nw-figure figure="design">: "Design your own attention pooling" in a lesson, drawn by the page's
// figure module (figures/design.js) and fed as the page's is (figures/design_feed.js), always on the
// lesson's thread, in slices (a component's data are the chapter's size unless its author asks for more;
// its worker's script would have to sit beside the lesson). Its controls ('scoring', 'designTrain') are
// figure_controls.js's; a training step changes the setting designTrained through the element, and an
// epoch where training stopped short is shared with the element's group.
import { DesignFeed } from '../figures/design_feed.js';
import { DesignFigure } from '../figures/design.js';

// figure(root, options) of component_figures.js and el, its element maker (passed in: that file lists
// this view among its own). host: the <nw-figure>, whose settings, adoptStoppedEpoch() and showProblems() it uses.
function buildDesign(root, { t, host, figure, el }) {
  const notice = el('p', { className: 'note' });
  root.append(notice);
  const predictions = figure(root, { title: t('design.predictionsTitle'), charts: [{ name: 'chart', label: t('design.predictionsLabel') }], caption: t('design.predictionsCaption'), t });
  const loss = figure(root, { title: t('design.lossTitle'), charts: [{ name: 'chart', label: t('design.lossLabel') }], caption: t('design.lossCaption'), t });
  const weights = figure(root, { title: t('design.weightsTitle', { 0: '' }), charts: [{ name: 'heatmap', label: t('design.weightsLabel'), square: true, legend: true }], caption: t('design.weightsCaption'), notes: ['check'], t });
  const title = el('span');
  weights.canvases.heatmap.closest('figure').querySelector('.title').append(title);
  const drawing = new DesignFigure({
    predictions: predictions.canvases.chart, loss: loss.canvases.chart, heatmap: weights.canvases.heatmap, legend: weights.canvases.heatmapLegend,
    heatmapNote: weights.canvases.heatmapNote, title, notice, status: el('span'), featureCheck: weights.notes[0],
  }, { t });
  let feed = null;
  let session = null;

  // The status the figure writes (what was drawn, or that a long request is on its way) is the controls'.
  const showStatus = () => {
    if (host.designStatus) host.designStatus.textContent = drawing.elements.status.textContent;
  };
  const feedHost = {
    settings: () => host.settings,
    data: () => session.data,
    stoppedAt: (epoch) => host.adoptStoppedEpoch(epoch),
    pause: () => host.designPlayer?.pause(),
    showProblems: (texts) => host.showProblems(texts),
    afterReply: () => {
      feed.ask();
      showStatus();
    },
  };

  return {
    get charts() { return drawing.charts ? [drawing.charts.predictions, drawing.charts.loss.chart, drawing.charts.heatmap.chart] : []; },
    get pending() { return feed !== null && feed.pending; },
    get shown() { return feed?.shown?.reply ?? null; },
    dispose() {
      if (feed) feed.dispose();
      feed = null;
    },
    render(current) {
      session = current;
      feed ??= new DesignFeed({ nw: current.nw, figure: drawing, host: feedHost, t, workers: false });
      feed.ask();
      showStatus();
    },
  };
}

export { buildDesign };
