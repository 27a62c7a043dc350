// A download for browsers that save straight into a folder without telling the driver (Firefox over
// BiDi, WebKitGTK): the one new file there once no partial file is left. Hidden names (the browser's
// own .cache in WebKit's home folder) are not downloads.
import { readdirSync } from 'node:fs';

const PARTIAL = /\.(part|wkdownload)$/;

export async function newFileAfter(folder, click, timeout = 10_000) {
  const visible = () => readdirSync(folder).filter((name) => !name.startsWith('.'));
  const before = new Set(visible());
  await click();
  for (let waited = 0; waited < timeout; waited += 50) {
    await new Promise((resolve) => { setTimeout(resolve, 50); });
    const files = visible();
    const added = files.filter((name) => !before.has(name));
    const finished = !files.some((name) => PARTIAL.test(name));
    if (added.length === 1 && finished) return added[0];
    if (added.length > 1 && finished) throw new Error(`one click downloaded ${added.join(', ')}`);
  }
  throw new Error(`no download finished within ${timeout / 1000} s`);
}
