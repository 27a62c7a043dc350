// The heatmap client the page's figures send their heatmap and drag-preview requests to (a worker over
// http, else the page's thread: compute/heatmap_client.js). Started after the first render, so that its
// worker's module loads while the reader looks. Every reply's predictions enter the Session as that w's
// line (Session.acceptBlocks: the one place blocks from elsewhere enter it), then go to the request's
// own figure (request.onResult).
import { HeatmapClient } from '../compute/heatmap_client.js';

function startHeatmapClient({ session, figures, onProblem }) {
  const client = new HeatmapClient({
    computeHere: (request) => request.compute(request.maxCells),
    onResult: (request, blocks) => {
      session.acceptBlocks(request, blocks);
      request.onResult(blocks);
    },
    onError: (request, message) => (request.onError ? request.onError(message) : onProblem(message)),
  });
  figures.useHeatmapClient(client);
  return client;
}

export { startHeatmapClient };
