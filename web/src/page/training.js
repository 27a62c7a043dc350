// The page's training: Train (the player), Step, Reset, "Train to convergence" with its progress bar and
// Cancel, a link's epochs replayed in the background, and large epochs' rows from the row pool.
import { Converger } from '../compute/converger.js';
import { EpochRows, poolStopped } from '../compute/epoch_rows.js';
import { Player } from '../compute/player.js';
import { createRowPool } from '../compute/row_pool.js';
import { createSlicedRows } from '../compute/sliced_rows.js';
import { t } from '../i18n/i18n.js';
import { problemText } from '../i18n/problem_text.js';
import { byId } from '../lib/dom.js';
import { showProblems } from './messages.js';

// "Train to convergence" shows its progress bar (and Cancel) once it has run this long.
const CONVERGE_PROGRESS_AFTER_MS = 200;
// Up to this many trained epochs are replayed at once (within the render's task) on small data.
const REPLAY_HERE_MAX_EPOCHS = 10;

class Training {
  // app: the controller (page/controller.js): its session, settings, render() and writeUrl().
  constructor(app) {
    this.app = app;
    this.epochRows = new EpochRows(); // training epochs' rows from the row pool (see startPool)
    this.pendingEpoch = null; // a Step or Train epoch whose rows the pool is computing
    this.player = new Player({
      step: () => this.trainOneEpoch(),
      onChange: (playing) => this.showPlaying(playing),
    });
    this.converger = new Converger({
      session: app.session,
      epochRows: this.epochRows,
      onProgress: (progress) => this.showConvergeProgress(progress),
      onDone: (result) => this.convergeDone(result),
    });
  }

  bind() {
    const on = (id, handler) => byId(id).addEventListener('click', handler);
    on('train', () => this.player.play(this.app.settings.epochs));
    on('step', () => { this.player.pause(); this.trainOneEpoch(); });
    on('pause', () => this.player.pause());
    on('reset', () => { this.player.pause(); this.app.edit('trained', 0); });
    on('converge', () => { this.player.pause(); this.trainToConvergence(); });
    on('cancelConverge', () => this.converger.cancel());
  }

  // Workers that compute large training epochs' rows (over http; none from file://), started only
  // once the data are large enough to need them.
  startPool(nw) {
    this.epochRows.createPool = () => createRowPool(nw);
    this.epochRows.createSliced = () => createSlicedRows(nw);
    this.epochRows.prepare(this.app.session);
  }

  // Whether replaying this many epochs is left to the Converger: for data the row pool takes, or
  // epochs enough to take the page's thread longer than a frame or two (each, with its test MSE line,
  // costs about a millisecond even at 50 samples).
  replaysLater(epochs) {
    return epochs > 0 && (this.epochRows.wanted(this.app.session) || epochs > REPLAY_HERE_MAX_EPOCHS);
  }

  // One epoch for the player or the Step button; false stops the player, null means the last epoch is
  // still on its way (the player skips a tick). A large epoch's rows come from the row pool and are
  // summed here when they arrive (rows for a trainer or w that has changed meanwhile are dropped).
  trainOneEpoch() {
    const { session } = this.app;
    if (this.pendingEpoch) return null;
    const pending = session.epoch < session.maxEpochs ? this.epochRows.request(session) : null;
    if (!pending) return this.showEpoch(session.tryStep());
    this.pendingEpoch = pending;
    pending.then(({ request, rows }) => {
      if (this.pendingEpoch !== pending) return;
      this.pendingEpoch = null;
      if (session.fits(request) && !this.showEpoch(session.tryStep(rows))) this.player.pause();
    }, (error) => {
      if (this.pendingEpoch !== pending) return;
      this.pendingEpoch = null;
      if (poolStopped(error)) {
        if (!this.showEpoch(session.tryStep())) this.player.pause(); // the pool is gone: here
      } else {
        showProblems([problemText(error)]);
        this.player.pause();
      }
    });
    return true;
  }

  // The page after an epoch (or the problem that kept it from running); whether it ran.
  showEpoch({ stepped, problem }) {
    const { app } = this;
    if (problem) showProblems([problem]);
    if (!stepped) return false;
    app.settings = { ...app.settings, trained: app.session.epoch };
    app.render();
    app.writeUrl('replace');
    return true;
  }

  // Train is disabled while playing: the keyboard focus moves to Pause and back, rather than falling
  // to the page's body where a keyboard user would have to start again from the top.
  showPlaying(playing) {
    const train = byId('train');
    const pause = byId('pause');
    train.disabled = playing || !this.app.session.canTrain;
    const focus = document.activeElement;
    if (playing && focus === train) pause.focus();
    if (!playing && (focus === pause || focus === document.body || focus === null) && !train.disabled) train.focus();
  }

  // Steps until w stops moving (or the epoch limit) in slices that leave the page responsive, then draws
  // once. Past about 200 ms a progress bar with Cancel shows; while it runs, the training buttons wait.
  trainToConvergence() {
    if (!this.app.session.canTrain) return;
    this.converger.start(this.app.session.maxEpochs);
  }

  showConvergeProgress({ epoch, maxEpochs, elapsed }) {
    if (elapsed < CONVERGE_PROGRESS_AFTER_MS && byId('convergeProgress').hidden) return;
    const wasHidden = byId('convergeProgress').hidden;
    byId('convergeProgress').hidden = false;
    byId('convergeBar').max = maxEpochs;
    byId('convergeBar').value = epoch;
    const values = { epoch, maxEpochs, w: this.app.session.learnedW.toFixed(4) };
    byId('convergeText').textContent = this.converger.replaying ? t('training.replayProgress', values) : t('training.convergeProgress', values);
    this.showButtons();
    // The button pressed is disabled now: the keyboard focus goes to Cancel, not to the page's top.
    // (Not for a replay, which the reader did not start from here: a link's would scroll the page.)
    const pressed = document.activeElement === byId('converge') || document.activeElement === document.body;
    if (wasHidden && pressed && !this.converger.replaying) byId('cancelConverge').focus();
  }

  // A replay (see the controller's apply) says nothing unless it failed; superseded by new settings, it
  // leaves them the trained count to replay.
  convergeDone({ outcome, epochs, problem, replay }) {
    const { app } = this;
    const hadFocus = byId('convergeProgress').contains(document.activeElement);
    byId('convergeProgress').hidden = true;
    if (problem) showProblems([problem]);
    if (replay && outcome === 'superseded') return;
    if (!replay && outcome === 'limit') showProblems([t('training.convergeLimit', { epochs: app.session.epoch })]);
    if (!replay && (outcome === 'cancelled' || outcome === 'superseded')) showProblems([t.plural('training.convergeCancelled', epochs)]);
    if (!app.settings) return;
    app.settings = { ...app.settings, trained: app.session.epoch };
    app.render();
    app.writeUrl(epochs > 0 && !replay ? 'push' : 'replace');
    if (hadFocus && !byId('converge').disabled) byId('converge').focus();
  }

  showButtons() {
    const { session } = this.app;
    const converging = this.converger.running;
    for (const id of ['train', 'step', 'reset', 'converge']) byId(id).disabled = !session.canTrain || converging || (id === 'train' && this.player.isPlaying);
  }
}

export { Training };
