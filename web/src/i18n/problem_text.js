// What the reader is told of a failure, in t's language. The module's NWError is recognised by its
// code, never by its English text: a training step that diverged gets the dictionaries' own sentence,
// any other refusal the dictionaries' frame around the module's detail. The page's
// own errors (CSV, session files) are written from the dictionaries already and pass as they are.
import { t as pageT } from './i18n.js';

function problemText(error, { t = pageT, epoch = null, w = null } = {}) {
  if (error && error.name === 'NWError' && typeof error.code === 'string') {
    if (error.code === 'diverged' && epoch !== null) return t('problem.diverged', { epoch, w });
    return t('problem.module', { message: error.message });
  }
  return error && error.message ? error.message : String(error);
}

export { problemText };
