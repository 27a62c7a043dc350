// The CSV worker (started by csv_client.js): reads your own data's CSV text (up to 5 MB, 100,000 rows)
// off the page's thread, telling the page how far it has got. Each message is a request { id, text };
// the replies are { id, progress } (a fraction of the lines), then { id, points: { x, y } } or
// { id, error: { key, params } } (a CsvError, put in the page's language there) or { id, failed }.
import { parseCsv } from '../io/csv.js';

self.onmessage = ({ data: { id, text } }) => {
  try {
    const points = parseCsv(text, { onProgress: (progress) => self.postMessage({ id, progress }) });
    self.postMessage({ id, points });
  } catch (error) {
    self.postMessage(error.name === 'CsvError' ? { id, error: { key: error.key, params: error.params } } : { id, failed: String(error.message) });
  }
};
