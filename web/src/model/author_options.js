// A lesson author's options for an embed (?controls=, ?caption=) and <nw-figure> (the same attributes):
// which controls show and the caption. They are not settings (not in the address's hash, not sent in
// nw:change): what is wrong with one is said with the option's name, and the rest still applies.
import { t as pageT } from '../i18n/i18n.js';

// Every control an embed can show, by name: the setting each changes, `train` for the training
// buttons (Train, Step, Pause, Reset, Train to convergence) with the training status, and `designTrain`
// for the design's (Train, Step, Pause, Reset) with its status. A figure shows those of its own that
// are named (<nw-figure> has only `w`, `train`, `scoring` and `designTrain`).
const CONTROL_NAMES = ['query', 'attend', 'kernel', 'estimator', 'w', 'lr', 'epochs', 'loo', 'loss', 'train',
  'scoring', 'hidden', 'optimizer', 'designLr', 'designEpochs', 'designTrain'];
// A caption is plain text of at most this many characters (a longer one is cut, and said so).
const CAPTION_MAX = 300;

// controls: null (the option is absent: every control of the figure), or the value: `none` (or empty)
// for no control, else names separated by commas or spaces. Returns { controls: a Set of names, or
// null for all; problem: a message naming the option, or null }. Unknown names are left out.
function parseControls(text, t = pageT) {
  if (text === null) return { controls: null, problem: null };
  const names = text.split(/[\s,]+/).filter((name) => name !== '');
  if (names.length === 1 && names[0] === 'none') return { controls: new Set(), problem: null };
  const unknown = names.filter((name) => !CONTROL_NAMES.includes(name));
  const problem = unknown.length === 0 ? null
    : t('problem.controls', { name: 'controls', value: unknown.join(', ').slice(0, 60), none: 'none', choices: CONTROL_NAMES.join(', ') });
  return { controls: new Set(names.filter((name) => CONTROL_NAMES.includes(name))), problem };
}

// caption: null (absent: the figure's own captions), '' (no caption), or the author's text, with its
// white space collapsed, at most CAPTION_MAX characters. Returns { caption, problem }.
function parseCaption(text, t = pageT) {
  if (text === null) return { caption: null, problem: null };
  const caption = text.replace(/\s+/g, ' ').trim();
  if (caption.length <= CAPTION_MAX) return { caption, problem: null };
  return { caption: `${caption.slice(0, CAPTION_MAX - 1)}…`, problem: t('problem.captionLong', { name: 'caption', max: CAPTION_MAX }) };
}

// Both options from a getter of their raw values (URL parameters or attributes). Returns { controls,
// caption, problems: [{ option, message }] }.
function authorOptions(get, t = pageT) {
  const { controls, problem: controlsProblem } = parseControls(get('controls'), t);
  const { caption, problem: captionProblem } = parseCaption(get('caption'), t);
  const problems = [['controls', controlsProblem], ['caption', captionProblem]]
    .filter(([, message]) => message !== null).map(([option, message]) => ({ option, message }));
  return { controls, caption, problems };
}

export { CAPTION_MAX, CONTROL_NAMES, authorOptions, parseCaption, parseControls };
