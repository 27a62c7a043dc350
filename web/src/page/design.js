// The page's "Design your own attention pooling": Train, Step, Pause and Reset change the setting
// designTrained through the controller like any other setting; show() then asks the design's computation
// (compute/design_client.js) for the settings shown, once the figure is near the view, and the reply is
// drawn (figures/design.js). A reply that stopped short (the training diverged) brings the setting back
// to the epoch it reached.
import { DesignClient } from '../compute/design_client.js';
import { Player } from '../compute/player.js';
import { DesignFigure } from '../figures/design.js';
import { designRequest, maxDesignEpochs, sameRequest } from '../model/design.js';
import { t } from '../i18n/i18n.js';
import { problemText } from '../i18n/problem_text.js';
import { byId, setText } from '../lib/dom.js';
import { showProblems } from './messages.js';

// The figure is computed once it is this near the view (a reader scrolling to it finds it drawn).
const NEAR_VIEW = '400px';

class DesignSection {
  // app: the controller (page/controller.js): its session, settings, apply() and edit().
  constructor(app) {
    this.app = app;
    this.figure = new DesignFigure({
      predictions: byId('designChart'), loss: byId('designLossChart'), heatmap: byId('designHeatmap'), legend: byId('designLegend'),
      heatmapNote: byId('designHeatmapNote'), title: byId('designTitleParameters'), notice: byId('designNotice'),
      status: byId('designStatus'), featureCheck: byId('featureCheck'),
    });
    this.client = new DesignClient({ nw: app.nw, onReply: (request, reply) => this.arrived(request, reply), onError: (request, error) => this.failed(request, error) });
    this.player = new Player({ step: () => this.stepOnce(), onChange: () => this.showButtons() });
    this.near = false;
    this.asked = null; // the last request sent
    this.shown = null; // the last reply drawn: { request, reply }
  }

  bind() {
    const on = (id, handler) => byId(id).addEventListener('click', handler);
    on('designTrain', () => this.player.play(this.app.settings.designEpochs));
    on('designStep', () => { this.player.pause(); this.stepOnce(); });
    on('designPause', () => this.player.pause());
    on('designReset', () => { this.player.pause(); this.app.edit('designTrained', 0); });
    new IntersectionObserver((entries) => {
      this.near = entries.some((entry) => entry.isIntersecting);
      if (this.near) this.show();
    }, { rootMargin: NEAR_VIEW }).observe(byId('design'));
    this.showButtons();
  }

  // Nothing left to compute for the settings shown (or the figure is not near the view).
  get idle() { return !this.client.pending && !this.player.isPlaying && (!this.near || this.wanted() === null || sameRequest(this.wanted(), this.shown?.request ?? null)); }

  get where() { return this.client.where; }

  wanted() {
    const { session, settings } = this.app;
    if (!session.data || !settings) return null;
    return designRequest(session.data, settings, this.figure.capacity());
  }

  // Asks for the settings shown, unless that is what was last asked. Epochs beyond the limit for the
  // data's size are brought back to it, and said.
  show() {
    if (!this.near) return;
    const { session, settings } = this.app;
    const limit = session.data ? maxDesignEpochs(session.data.xTrain.length) : Infinity;
    if (settings && settings.designTrained > limit) {
      this.player.pause();
      this.app.apply({ ...settings, designTrained: limit }, 'replace');
      showProblems([t('design.epochLimit', { epochs: limit, n: session.data.xTrain.length })]);
      return;
    }
    const request = this.wanted();
    if (request === null || sameRequest(request, this.asked)) return;
    this.asked = request;
    this.client.request(request);
    // (A large request can take a while: replaying a link's epochs at 2000 samples, 0.7 s an epoch.)
    if (this.client.slow) setText(byId('designStatus'), t('design.computing', { epoch: request.to }));
    this.showButtons();
  }

  // One epoch more for the player or Step; null while the last one is on its way.
  stepOnce() {
    if (this.client.pending) return null;
    const { session, settings } = this.app;
    const limit = maxDesignEpochs(session.data.xTrain.length);
    if (settings.designTrained >= limit) {
      showProblems([t('design.epochLimit', { epochs: limit, n: session.data.xTrain.length })]);
      return false;
    }
    this.app.apply({ ...settings, designTrained: settings.designTrained + 1 }, this.player.isPlaying ? 'replace' : 'push');
    return true;
  }

  arrived(request, reply) {
    const { session, settings } = this.app;
    if (request.data.xTrain !== session.data.xTrain) return; // (data changed meanwhile: asked again)
    this.shown = { request, reply };
    // (Drawn with the scoring it was computed for: the settings may have moved on meanwhile.)
    const { scoring, hidden } = request.design;
    this.figure.show(reply, session.data, { ...settings, scoring, hidden }, () => this.refit());
    if (reply.problem) {
      this.player.pause();
      const { code, message } = reply.problem;
      showProblems([code === 'diverged' ? t('design.diverged', { epoch: reply.epoch + 1 }) : problemText({ name: 'NWError', code, message })]);
    }
    if (reply.epoch !== request.to && settings.designTrained === request.to) {
      // (stopped short: the settings say where it is, and what was asked is what was drawn)
      this.app.apply({ ...settings, designTrained: reply.epoch }, 'replace');
      this.asked = this.wanted();
      this.shown.request = this.asked;
    }
    this.showButtons();
    this.show(); // (settings that changed while this was computed)
  }

  // (The request that failed is not asked again until the settings change.)
  failed(request, error) {
    this.player.pause();
    this.asked = request;
    this.shown = { request, reply: this.shown ? this.shown.reply : null };
    showProblems([problemText({ name: 'NWError', code: error.code, message: error.message })]);
    this.showButtons();
  }

  // A resized heatmap asks for blocks of its new size.
  refit() {
    this.asked = null;
    this.show();
    return true;
  }

  showButtons() {
    const playing = this.player.isPlaying;
    byId('designTrain').disabled = playing;
    byId('designPause').disabled = !playing;
    byId('hidden').disabled = this.app.settings ? this.app.settings.scoring !== 'additive' : false;
    const focus = document.activeElement;
    if (playing && focus === byId('designTrain')) byId('designPause').focus();
    if (!playing && focus === byId('designPause')) byId('designTrain').focus();
  }
}

export { DesignSection };
