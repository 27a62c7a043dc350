// The page's test surface, window.nwPage.debug: everything the browser tests and `npm run bench` read of
// the running page (and the few things they do to it), so that they depend on this file, not on the
// controller's internals. The page itself never reads it. This comment is its documentation.
//
//   idle              every figure near the view shows the last render (no slice, no worker reply to come,
//                     the design figure, if near the view, drawn for the settings shown)
//   busy              training, converging, an epoch on its way, or not idle
//   settings          a copy of the settings shown
//   session           the Session (model/session.js): its data, ws, trainer and module. Tests may wrap
//                     its methods (session.blocks, trainer.step) to count where work runs.
//   renders           how many full renders have run (a drag preview does not count)
//   heatmapsOn        'worker' or 'page': where large heatmaps and drag previews are computed now
//   heatmapWorkerUsed true once the figures hand large heatmaps to the heatmap worker
//   stopHeatmapWorker() stops that worker, as when it fails (the page's thread takes over)
//   rowPool           { ready, size } of the training epochs' worker pool, or null before it starts
//   slicedRows        true once epochs' rows have been computed in slices on the page's thread
//   playing, converging, replaying
//   consistency       { points, where, list } of the consistency figure: how many points, where they are
//                     computed ('worker' or 'page'), and the points themselves (copies: { n, w, selectedMse,
//                     fixedMse, ... } as the module computed them)
//   figure(part)      { drawnFor: { data, w } | null, waitingForWorker } of a lazily drawn part
//                     ('nonparametric', 'parametric', 'loss', 'w', 'kernel0'..'kernel3', 'landscape').
//                     drawnFor is the same object until the part is drawn again or marked stale, so `===`
//                     on it tells whether the part was drawn in between (even with equal data and w)
//   heatmapChart(part) the HeatmapChart of 'nonparametric' or 'parametric' (its blocks and capacity())
//   waitingForWorker  how many parts wait for the heatmap worker
//   apply(settings)   shows these settings, as a link would (no history entry)
//   design            { idle, where, playing, shown } of "Design your own attention pooling": where it is
//                     computed ('worker' or 'page') and the last reply drawn ({ epoch, parameters, losses,
//                     testMses, blocks, gaussian, featureCheck } as the module computed them), or null
function pageDebug(app) {
  const drawnFor = new WeakMap(); // the figures' inputs of one drawing -> its drawnFor
  return {
    get idle() { return app.figures.idle && app.design.idle; },
    get busy() { return app.player.isPlaying || app.converger.running || app.pendingEpoch !== null || !this.idle; },
    get settings() { return { ...app.settings }; },
    get session() { return app.session; },
    get renders() { return app.renderCount; },
    get heatmapsOn() { return app.heatmapClient ? app.heatmapClient.where : 'page'; },
    get heatmapWorkerUsed() { return Boolean(app.heatmapClient && app.heatmapClient.worker !== null && app.figures.heatmapClient !== null); },
    stopHeatmapWorker() { app.heatmapClient.stopWorker(); },
    get rowPool() {
      const { pool } = app.epochRows;
      return pool ? { ready: pool.ready === true, size: pool.size } : null;
    },
    get slicedRows() { return app.epochRows.sliced !== null; },
    get playing() { return app.player.isPlaying; },
    get converging() { return app.converger.running; },
    get replaying() { return app.converger.replaying; },
    get consistency() {
      const { points, state } = app.consistency;
      return { points: points.length, where: state.where, list: points.map((point) => ({ ...point })) };
    },
    figure(part) {
      const inputs = app.figures.drawnWith[part];
      if (inputs && !drawnFor.has(inputs)) drawnFor.set(inputs, { data: inputs[0], w: inputs[1] });
      return { drawnFor: inputs ? drawnFor.get(inputs) : null, waitingForWorker: app.figures.offloaded.has(part) };
    },
    heatmapChart(part) { return app.figures.heatmaps[part]; },
    get waitingForWorker() { return app.figures.offloaded.size; },
    apply(settings) { app.apply(settings, 'replace'); },
    get design() {
      const { design } = app;
      // workerLoaded: the design worker said its module loaded (from then on it is never timed out).
      return {
        idle: design.idle, where: design.where, playing: design.player.isPlaying, shown: design.shown ? design.shown.reply : null,
        workerLoaded: design.feed.client.workerLoaded === true,
      };
    },
  };
}

export { pageDebug };
