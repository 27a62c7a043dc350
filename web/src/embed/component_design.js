// <nw-figure figure="design">: "Design your own attention pooling" in a lesson, drawn by the page's
// figure module (figures/design.js) from the same computation (compute/design_work.js), always on the
// lesson's thread (a component's data are the chapter's size unless its author asks for more; its
// worker's script would have to sit beside the lesson). Its controls ('scoring', 'designTrain') are
// figure_controls.js's; a training step changes the setting designTrained through the element.
import { DesignClient } from '../compute/design_client.js';
import { DesignFigure } from '../figures/design.js';
import { designRequest, sameRequest } from '../model/design.js';
import { problemText } from '../i18n/problem_text.js';

// figure(root, options) of component_figures.js and el, its element maker (passed in: that file lists
// this view among its own). host: the <nw-figure>, whose settings, edit() and showProblems() it uses.
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
  let client = null;
  let asked = null;
  let shown = null;
  let session = null;

  function ask() {
    if (!session || !host.settings || !client) return;
    const request = designRequest(session.data, host.settings, drawing.capacity());
    if (sameRequest(request, asked)) return;
    asked = request;
    client.request(request);
  }

  function arrived(request, reply) {
    if (request.data.xTrain !== session.data.xTrain) return;
    shown = reply;
    drawing.show(reply, session.data, host.settings, () => { asked = null; ask(); return true; });
    if (host.designStatus) host.designStatus.textContent = drawing.elements.status.textContent;
    if (reply.problem) {
      host.designPlayer?.pause();
      host.showProblems([reply.problem.code === 'diverged' ? t('design.diverged', { epoch: reply.epoch + 1 }) : problemText({ name: 'NWError', ...reply.problem }, { t })]);
    }
    if (reply.epoch !== request.to && host.settings.designTrained === request.to) {
      host.settings = { ...host.settings, designTrained: reply.epoch };
      asked = designRequest(session.data, host.settings, drawing.capacity());
    }
    ask();
  }

  return {
    get charts() { return drawing.charts ? [drawing.charts.predictions, drawing.charts.loss.chart, drawing.charts.heatmap.chart] : []; },
    get pending() { return client !== null && client.pending; },
    get shown() { return shown; },
    dispose() {
      if (client) client.dispose();
      client = null;
    },
    render(current) {
      session = current;
      client ??= new DesignClient({ nw: current.nw, workers: false, onReply: arrived, onError: (request, error) => host.showProblems([problemText({ name: 'NWError', ...error }, { t })]) });
      ask();
    },
  };
}

export { buildDesign };
