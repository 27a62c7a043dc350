// The author's options (web/src/model/author_options.js): controls= and caption= parsed as the embed
// and <nw-figure> read them, with messages that name the option in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translator } from '../../web/src/i18n/all.js';
import { CAPTION_MAX, CONTROL_NAMES, authorOptions, parseCaption, parseControls } from '../../web/src/model/author_options.js';

test('controls: absent is every control, none (or empty) is no control, names by commas or spaces', () => {
  assert.deepEqual(parseControls(null), { controls: null, problem: null });
  assert.deepEqual([...parseControls('none').controls], []);
  assert.deepEqual([...parseControls('').controls], []);
  assert.deepEqual([...parseControls(' w,kernel  train ').controls], ['w', 'kernel', 'train']);
  assert.deepEqual([...parseControls(CONTROL_NAMES.join(',')).controls], CONTROL_NAMES);
});

test('an unknown control is named in the message, and the known ones still apply', () => {
  const { controls, problem } = parseControls('w,slider,none');
  assert.deepEqual([...controls], ['w']);
  assert.equal(problem, `controls: no control called slider, none; use none, or some of ${CONTROL_NAMES.join(', ')}`);
  const zh = parseControls('knob', translator('zh')).problem;
  assert.match(zh, /^controls：没有名为 knob 的控件；请使用 none，或 /);
});

test('caption: absent keeps the figure\'s own, empty shows none, white space collapsed, a long one cut and said', () => {
  assert.deepEqual(parseCaption(null), { caption: null, problem: null });
  assert.deepEqual(parseCaption(''), { caption: '', problem: null });
  assert.deepEqual(parseCaption('  Row 2\n is   query 0.1 '), { caption: 'Row 2 is query 0.1', problem: null });
  const long = parseCaption('x'.repeat(CAPTION_MAX + 1));
  assert.equal(long.caption.length, CAPTION_MAX);
  assert.equal(long.problem, `caption is cut at ${CAPTION_MAX} characters`);
  assert.equal(parseCaption('x'.repeat(CAPTION_MAX)).problem, null);
});

test('authorOptions reads both from one getter and lists the problems by option', () => {
  const values = { controls: 'w,dial', caption: 'y'.repeat(CAPTION_MAX + 5) };
  const { controls, caption, problems } = authorOptions((name) => values[name] ?? null);
  assert.deepEqual([...controls], ['w']);
  assert.equal(caption.length, CAPTION_MAX);
  assert.deepEqual(problems.map(({ option }) => option), ['controls', 'caption']);
  assert.deepEqual(authorOptions(() => null), { controls: null, caption: null, problems: [] });
});
