// The consistency figure on the page: a Compute button (the work takes tens of seconds, so it waits to be
// asked), a progress bar with Cancel while the points come in, the chart, and a note that says what the
// points show, with their numbers.
import { ConsistencyChart } from '../charts/consistency_chart.js';
import { ConsistencyRun, WORKER_URL, startBrowserWorker, workerCount } from '../compute/consistency_run.js';
import { WarmWorkers } from '../compute/warm_workers.js';
import { CONSISTENCY_NS, FIXED_W, PAGE_MAX_N } from '../model/consistency_point.js';
import { t as pageT } from '../i18n/i18n.js';
import { lazy } from '../charts/lazy.js';

import { byId } from '../lib/dom.js';
// The fixed w's test MSE is said to level off over the sizes from this n on.
const LEVEL_FROM_N = 1000;
// How near the view the figure warms its workers (as the design figure computes ahead).
const NEAR_VIEW = '400px';

const mseText = (mse) => mse.toPrecision(3);
const wText = (w) => w.toPrecision(4);

// What the points show, in sentences (all numbers from the module's points): the chosen w and its test
// MSE from the first n to the last, the fixed w's test MSE levelling off, and where the leave-one-out
// loss came from binned sums and how close they are. points in the order of n; total: how many the run
// gives (fewer than the sizes on the page's thread); '' before any point.
export function consistencyNote(points, { seed, where, done, total = CONSISTENCY_NS.length }, t = pageT) {
  if (!points.length) return '';
  const first = points[0];
  const sentences = [];
  const chosen = points.filter((p) => p.atLimit === 'none' && p.selectedMse !== null);
  if (chosen.length >= 2) {
    const [a, b] = [chosen[0], chosen[chosen.length - 1]];
    sentences.push(t('consistency.noteSelected', { w0: wText(a.w), n0: a.n.toLocaleString(t.lang), w1: wText(b.w), n1: b.n.toLocaleString(t.lang), m0: mseText(a.selectedMse), m1: mseText(b.selectedMse) }));
  }
  const level = points.filter((p) => p.n >= LEVEL_FROM_N).map((p) => p.fixedMse);
  if (level.length >= 2) {
    sentences.push(t('consistency.noteFixed', { w: FIXED_W, lo: mseText(Math.min(...level)), hi: mseText(Math.max(...level)), from: LEVEL_FROM_N.toLocaleString(t.lang), first: mseText(first.fixedMse) }));
  }
  const binned = points.filter((p) => p.approximate);
  if (binned.length) {
    const relative = Math.max(...binned.map((p) => p.lossBound / p.loss));
    sentences.push(t('consistency.noteBinned', { n: binned[0].n.toLocaleString(t.lang), bound: relative.toExponential(0) }));
  }
  sentences.push(t(where === 'worker' ? 'consistency.noteWorker' : 'consistency.notePage', { seed, max: PAGE_MAX_N.toLocaleString(t.lang) }));
  if (!done) sentences.push(t('consistency.noteSoFar', { k: points.length, of: total }));
  return sentences.join(t.lang === 'zh' ? '' : ' ');
}

class ConsistencyFigure {
  // nw: the page's module; seed(): the page's current seed.
  constructor({ nw, seed, t = pageT }) {
    Object.assign(this, { nw, seed, t });
    this.run = null;
    this.points = [];
    lazy(this, 'chart', () => new ConsistencyChart(byId('consistencyChart'), { t }));
    byId('consistencyStart').addEventListener('click', () => this.start());
    byId('consistencyCancel').addEventListener('click', () => this.cancel());
    // Workers warmed while the figure is near the view (and no run is under way), so that Compute finds
    // their module loaded; a run takes them, and the next are warmed when it ends.
    this.warm = new WarmWorkers(WORKER_URL, { count: workerCount(), startWorker: startBrowserWorker });
    new IntersectionObserver((entries) => {
      this.near = entries.some((entry) => entry.isIntersecting);
      if (this.near && !this.run) this.warm.warm();
    }, { rootMargin: NEAR_VIEW }).observe(byId('consistencyFigure'));
  }

  start() {
    this.cancel();
    this.points = [];
    const seed = this.seed();
    this.state = { seed, where: 'page', done: false, total: CONSISTENCY_NS.length };
    byId('consistencyChart').parentElement.hidden = false;
    // The disabled button would drop the keyboard's focus: it goes to Cancel, and back when the run ends.
    const hadFocus = document.activeElement === byId('consistencyStart');
    byId('consistencyStart').disabled = true;
    byId('consistencyProgress').hidden = false;
    if (hadFocus) byId('consistencyCancel').focus();
    this.showProgress();
    this.run = new ConsistencyRun({
      nw: this.nw,
      seed,
      warm: this.warm,
      onPoint: (point) => {
        // Two workers may finish out of the order of n: the chart and the note take them in it.
        this.points = [...this.points, point].sort((a, b) => a.n - b.n);
        this.state.where = this.run.where;
        this.state.total = this.run.total;
        this.show();
      },
      onDone: (where) => this.finish({ where, done: true }),
      onError: (message) => this.finish({ problem: message }),
    });
    this.run.start();
    this.state.where = this.run.where;
    this.state.total = this.run.total;
    this.showProgress();
  }

  cancel() {
    if (!this.run) return;
    this.run.cancel();
    this.finish({});
  }

  finish({ where = this.state.where, done = false, problem }) {
    this.run = null;
    if (this.near) this.warm.warm();
    this.state = { ...this.state, where, done };
    const hadFocus = byId('consistencyProgress').contains(document.activeElement);
    byId('consistencyStart').disabled = false;
    byId('consistencyProgress').hidden = true;
    if (hadFocus) byId('consistencyStart').focus();
    this.show();
    if (problem) byId('consistencyNote').textContent = this.t('consistency.problem', { problem });
  }

  showProgress() {
    // The smallest n not yet done (others may be under way beside it).
    const next = CONSISTENCY_NS.find((n) => !this.points.some((p) => p.n === n));
    const { total } = this.state;
    byId('consistencyBar').max = total;
    byId('consistencyBar').value = this.points.length;
    byId('consistencyText').textContent = next === undefined || this.points.length >= total ? ''
      : this.t('consistency.progress', { n: next.toLocaleString(this.t.lang), k: this.points.length + 1, of: total });
  }

  show() {
    this.showProgress();
    this.chart.set(this.points);
    this.chart.draw();
    byId('consistencyNote').textContent = consistencyNote(this.points, this.state, this.t);
  }
}

export { ConsistencyFigure };
