// The page's "Design your own attention pooling": Train, Step, Pause and Reset change the setting
// designTrained through the controller like any other setting; show() then has the figure's feed
// (figures/design_feed.js) ask for the settings shown, once the figure is near the view, and draw the
// reply. A reply that stopped short (the training diverged) brings the setting back to the epoch it reached.
import { Player } from '../compute/player.js';
import { DesignFeed } from '../figures/design_feed.js';
import { DesignFigure } from '../figures/design.js';
import { maxDesignEpochs } from '../model/design.js';
import { EXACT_MAX_TRAIN, isLarge } from '../model/large_data.js';
import { t } from '../i18n/i18n.js';
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
    this.feed = new DesignFeed({
      nw: app.nw,
      figure: this.figure,
      t,
      host: {
        settings: () => this.app.settings,
        data: () => (this.dataTooLarge ? null : this.app.session.data),
        stoppedAt: (epoch) => this.app.apply({ ...this.app.settings, designTrained: epoch }, 'replace'),
        pause: () => this.player.pause(),
        showProblems,
        afterReply: () => {
          this.showButtons();
          this.show();
        },
      },
    });
    this.player = new Player({ step: () => this.stepOnce(), onChange: () => this.showButtons() });
    this.near = false;
    const drawn = () => this.drawn();
    this.pngCharts = [
      ['design-predictions', t('png.designPredictions'), () => this.figure.charts.predictions, drawn],
      ['design-loss', t('png.designLoss'), () => this.figure.charts.loss.chart, drawn],
      ['design-weights', t('png.designWeights'), () => this.figure.charts.heatmap.chart, drawn],
    ];
  }

  // Resolves once the figure shows the settings, asked for now if it was not near the view (a PNG of
  // it). A refused request counts as shown: its figure stays as it was, and the problem is said.
  drawn() {
    this.feed.ask();
    return new Promise((resolve) => {
      const check = () => (!this.feed.pending && this.feed.current ? resolve() : setTimeout(check, 50));
      check();
    });
  }

  bind() {
    const on = (id, handler) => byId(id).addEventListener('click', handler);
    on('designTrain', () => this.player.play(this.app.settings.designEpochs));
    // (Step during a long replay asks for one epoch more at once: the replay goes on to it.)
    on('designStep', () => { this.player.pause(); this.stepOnce({ evenWhilePending: true }); });
    on('designPause', () => this.player.pause());
    on('designReset', () => { this.player.pause(); this.app.edit('designTrained', 0); });
    new IntersectionObserver((entries) => {
      this.near = entries.some((entry) => entry.isIntersecting);
      if (this.near) this.show();
    }, { rootMargin: NEAR_VIEW }).observe(byId('design'));
    this.showButtons();
  }

  // Large data of your own (model/large_data.js) is not designed on: each epoch would take minutes.
  get dataTooLarge() {
    const { data } = this.app.session;
    return Boolean(data) && isLarge(data.xTrain.length);
  }

  // Nothing left to compute for the settings shown (or the figure is not near the view).
  get idle() { return !this.feed.pending && !this.player.isPlaying && (!this.near || this.feed.current); }

  get where() { return this.feed.client.where; }

  get shown() { return this.feed.shown; }

  // Asks for the settings shown, unless that is what was last asked. Epochs beyond the limit for the
  // data's size are brought back to it, and said.
  show() {
    byId('design').classList.toggle('data-too-large', this.dataTooLarge);
    if (!this.near) return;
    const { session, settings } = this.app;
    if (this.dataTooLarge) {
      this.player.pause();
      setText(byId('designStatus'), t('design.tooLarge', { max: EXACT_MAX_TRAIN.toLocaleString(t.lang), n: session.data.xTrain.length.toLocaleString(t.lang) }));
      this.saidTooLarge = true;
      this.showButtons();
      return;
    }
    if (this.saidTooLarge) setText(byId('designStatus'), '');
    this.saidTooLarge = false;
    const limit = session.data ? maxDesignEpochs(session.data.xTrain.length) : Infinity;
    if (settings && settings.designTrained > limit) {
      this.player.pause();
      this.app.apply({ ...settings, designTrained: limit }, 'replace');
      showProblems([t('design.epochLimit', { epochs: limit, n: session.data.xTrain.length })]);
      return;
    }
    if (this.feed.ask()) this.showButtons();
  }

  // One epoch more for the player or Step; null while the last one is on its way (for the player).
  stepOnce({ evenWhilePending = false } = {}) {
    if (this.feed.pending && !evenWhilePending) return null;
    if (this.dataTooLarge) return false;
    const { session, settings } = this.app;
    const limit = maxDesignEpochs(session.data.xTrain.length);
    if (settings.designTrained >= limit) {
      showProblems([t('design.epochLimit', { epochs: limit, n: session.data.xTrain.length })]);
      return false;
    }
    this.app.apply({ ...settings, designTrained: settings.designTrained + 1 }, this.player.isPlaying ? 'replace' : 'push');
    return true;
  }

  showButtons() {
    const playing = this.player.isPlaying;
    byId('designTrain').disabled = playing || this.dataTooLarge;
    byId('designStep').disabled = this.dataTooLarge;
    byId('designPause').disabled = !playing;
    byId('hidden').disabled = this.app.settings ? this.app.settings.scoring !== 'additive' : false;
    const focus = document.activeElement;
    if (playing && focus === byId('designTrain')) byId('designPause').focus();
    if (!playing && focus === byId('designPause')) byId('designTrain').focus();
  }
}

export { DesignSection };
