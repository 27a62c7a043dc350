// Keeps "Design your own attention pooling" showing what its settings ask for, on the page and in a
// lesson's <nw-figure figure="design"> alike: asks the design's computation (compute/design_client.js)
// for the settings shown, unless that is what was last asked, and draws each reply (figures/design.js).
// A reply that stopped short (the training diverged) brings the settings back to the epoch it reached,
// through the host, which also says what went wrong.
import { DesignClient } from '../compute/design_client.js';
import { problemText } from '../i18n/problem_text.js';
import { designRequest, sameRequest } from '../model/design.js';

class DesignFeed {
  // figure: a DesignFigure. host: { settings(), data() (the session's data, or null), stoppedAt(epoch)
  // (designTrained becomes epoch, not as a reader's change), pause() (the design's player),
  // showProblems(texts), and optionally afterReply() (what to do once a reply is drawn or refused:
  // ask() by default) }. A request that takes a while is said in the figure's status. t: the texts' language. workers false: always on this thread.
  constructor({ nw, figure, host, t, workers = true }) {
    this.figure = figure;
    this.host = host;
    this.t = t;
    this.client = new DesignClient({ nw, workers, onReply: (request, reply) => this.arrived(request, reply), onError: (request, error) => this.failed(request, error) });
    this.asked = null; // the last request sent
    this.shown = null; // the last reply drawn: { request, reply }
    this.settling = false; // while the host takes a stopped-short reply's epoch
  }

  get pending() { return this.client.pending; }

  // The request for the settings shown, or null before there are data.
  wanted() {
    const settings = this.host.settings();
    const data = this.host.data();
    return data && settings ? designRequest(data, settings, this.figure.capacity()) : null;
  }

  // Whether what is drawn is what the settings ask for.
  get current() { return this.wanted() === null || sameRequest(this.wanted(), this.shown?.request ?? null); }

  // Asks for the settings shown, unless that is what was last asked; true if it asked.
  ask() {
    const request = this.settling ? null : this.wanted();
    if (request === null || sameRequest(request, this.asked)) return false;
    this.asked = request;
    this.client.request(request);
    if (this.client.slow && request.to > 0) this.figure.showComputing(request.to);
    return true;
  }

  arrived(request, reply) {
    const data = this.host.data();
    if (!data || request.data.xTrain !== data.xTrain) return; // (data changed meanwhile: asked again, or too large)
    const settings = this.host.settings();
    this.shown = { request, reply };
    // (Drawn with the scoring it was computed for: the settings may have moved on meanwhile.)
    const { scoring, hidden } = request.design;
    this.figure.show(reply, data, { ...settings, scoring, hidden }, () => this.refit());
    if (reply.problem) {
      this.host.pause();
      const { code, message } = reply.problem;
      this.host.showProblems([code === 'diverged' ? this.t('design.diverged', { epoch: reply.epoch + 1 }) : problemText({ name: 'NWError', code, message }, { t: this.t })]);
    }
    if (reply.epoch !== request.to && settings.designTrained === request.to) {
      // (stopped short: the settings say where it is, and what was asked is what was drawn; the host's
      // render of the new settings asks nothing meanwhile)
      this.settling = true;
      try {
        this.host.stoppedAt(reply.epoch);
      } finally {
        this.settling = false;
      }
      this.asked = this.wanted();
      this.shown.request = this.asked;
    }
    this.afterReply(); // (settings that changed while this was computed)
  }

  afterReply() {
    if (this.host.afterReply) this.host.afterReply();
    else this.ask();
  }

  // (The request that failed is not asked again until the settings change.)
  failed(request, error) {
    this.host.pause();
    this.asked = request;
    this.shown = { request, reply: this.shown ? this.shown.reply : null };
    this.host.showProblems([problemText({ name: 'NWError', code: error.code, message: error.message }, { t: this.t })]);
    if (this.host.afterReply) this.host.afterReply();
  }

  // A resized heatmap asks for blocks of its new size.
  refit() {
    this.asked = null;
    this.ask();
    return true;
  }

  // Nothing more will be asked (a lesson's figure rebuilt or removed).
  dispose() { this.client.dispose(); }
}

export { DesignFeed };
