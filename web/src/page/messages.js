// The page's message box (#message): problems with settings, data or files, in the reader's language.
import { byId } from '../lib/dom.js';

// Adds problems to those shown (none: nothing changes).
function showProblems(problems) {
  if (problems.length === 0) return;
  const box = byId('message');
  box.textContent = [box.hidden ? '' : box.textContent, ...problems].filter(Boolean).join('\n');
  box.hidden = false;
}

function clearProblems() {
  byId('message').textContent = '';
  byId('message').hidden = true;
}

export { clearProblems, showProblems };
