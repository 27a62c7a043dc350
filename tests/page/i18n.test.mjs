// The page's two languages (web/src/i18n): both dictionaries have the same keys and placeholders, every
// key the sources use is defined and every defined key is used, index.html's English is en.js's, the
// Chinese has no English left, and the language is chosen and checked as state.js says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { LANGUAGES, dictionaries, translator } from '../../web/src/i18n/all.js';
import { chooseLanguage, coerce, languageSetting } from '../../web/src/model/settings.js';
import { englishWords } from './english_allowed.mjs';
import { parseHtml, template, walk } from './html_text.mjs';

const srcDir = fileURLToPath(new URL('../../web/src/', import.meta.url));
const html = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
const sources = (function read(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return read(path);
    // (The dictionaries themselves are not sources that ask for keys.)
    const dictionary = ['en.js', 'zh.js', 'en_messages.js', 'zh_messages.js'].some((file) => path.endsWith(join('src', 'i18n', file)));
    return name.endsWith('.js') && !dictionary ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}(srcDir));
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const htmlKeys = [...walk(parseHtml(html))].flatMap((element) => Object.entries(element.attributes)
  .filter(([name]) => name === 'data-i18n' || name.startsWith('data-i18n-')).map(([, key]) => key));

test('both languages have exactly the same keys, the same placeholders in each text, and no empty text', () => {
  assert.deepEqual(LANGUAGES, ['en', 'zh']);
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const [lang, dictionary] of Object.entries(dictionaries)) {
    for (const [key, text] of Object.entries(dictionary)) {
      assert.equal(typeof text, 'string', `${lang} ${key}`);
      assert.ok(text.trim() !== '' && text === text.trim(), `${lang} ${key}: not empty, no space at its ends`);
      assert.deepEqual(placeholders(text), placeholders(en[key]), `${lang} ${key}: the placeholders of en`);
    }
  }
  // A plural has both forms.
  for (const key of Object.keys(en)) {
    if (key.endsWith('.one')) assert.ok(`${key.slice(0, -4)}.other` in en, key);
    if (key.endsWith('.other')) assert.ok(`${key.slice(0, -6)}.one` in en, key);
  }
});

test('every key the sources ask for is defined, and every defined key is used', () => {
  const asked = new Set(htmlKeys);
  for (const { path, text } of sources) {
    // t('key'), t.plural('key'), this.t('key'), t(condition ? 'a' : 'b'), and the keys tables hold
    // (a setting's label, an exercise's title and explanation, the four kernels' titles).
    for (const [, plural, key] of text.matchAll(/\bt(\.plural)?\(\s*'([^']+)'/g)) {
      for (const k of plural ? [`${key}.one`, `${key}.other`] : [key]) asked.add(k);
      assert.ok(plural ? `${key}.one` in en : key in en, `${path}: t('${key}') is defined`);
    }
    for (const [, a, b] of text.matchAll(/\bt\([^()`]*?\?\s*'([^']+)'\s*:\s*'([^']+)'/g)) {
      for (const key of [a, b]) {
        asked.add(key);
        assert.ok(key in en, `${path}: '${key}' is defined`);
      }
    }
    for (const [, key] of text.matchAll(/\b(?:label|title|explanation): '([a-z]+\.[\w.]+)'/g)) {
      asked.add(key);
      assert.ok(key in en, `${path}: '${key}' is defined`);
    }
    // (A CSV problem is named by its key: io/csv.js, put in the reader's language where it is shown.)
    for (const [, key] of text.matchAll(/\bnew CsvError\(\s*'([^']+)'/g)) {
      asked.add(key);
      assert.ok(key in en, `${path}: CsvError('${key}') is defined`);
    }
    for (const [, key] of text.matchAll(/\['\w+', '(kernels\.\w+)'\]/g)) {
      asked.add(key);
      assert.ok(key in en, `${path}: '${key}' is defined`);
    }
  }
  for (const key of htmlKeys) assert.ok(key in en, `index.html: ${key} is defined`);
  const unused = Object.keys(en).filter((key) => !asked.has(key));
  assert.deepEqual(unused, [], 'keys no source uses');
});

test('index.html\'s English is en.js\'s, and it has no text or label the dictionary does not cover', () => {
  const root = parseHtml(html);
  const uncovered = [];
  (function check(node, covered) {
    for (const child of node.children) {
      if (typeof child === 'string') {
        // Text outside a data-i18n element: symbols only (x, w), no words.
        if (!covered && /[A-Za-z]{2,}/.test(child)) uncovered.push(child.trim());
        continue;
      }
      const { tag, attributes } = child;
      if ('data-i18n' in attributes) assert.equal(template(child), en[attributes['data-i18n']], `<${tag} data-i18n="${attributes['data-i18n']}">`);
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        if (name in attributes && /[A-Za-z]{2,}/.test(attributes[name])) {
          const key = attributes[`data-i18n-${name}`];
          assert.ok(key, `<${tag} ${name}="${attributes[name]}"> has data-i18n-${name}`);
          assert.equal(attributes[name], en[key], `<${tag} ${name}> is en.js's ${key}`);
        }
      }
      if (tag === 'meta' && attributes.name === 'description') assert.equal(attributes.content, en[attributes['data-i18n-content']]);
      // Inside a data-i18n element, formulas and code are the text's placeholders and stay as they are.
      if (!['script', 'style', 'math'].includes(tag)) check(child, covered || 'data-i18n' in attributes);
    }
  }(root, false));
  assert.deepEqual(uncovered, [], 'text of index.html without a data-i18n key');
});

test('the Chinese has no English words left, and its prose uses full-width punctuation', () => {
  for (const [key, text] of Object.entries(zh)) {
    // Placeholders, the element's name in its message and the nw:set message name are not words to translate.
    const prose = text.replace(/\{\w+\}/g, '').replace(/<nw-figure>|nw:set/g, '');
    assert.deepEqual(englishWords(prose), [], `zh ${key}: ${text}`);
    const han = '[\\u3400-\\u9fff]';
    assert.doesNotMatch(text, new RegExp(`${han}[,;:?!()]|[,;:?!()]${han}`), `zh ${key}: full-width punctuation beside Chinese: ${text}`);
  }
});

test('t fills placeholders, falls back to English, and plural picks the form', () => {
  const tEn = translator('en');
  const tZh = translator('zh');
  assert.equal(tEn('status.epoch', { epoch: 3, loss: '1.2345', w: '0.47' }), 'Epoch 3 · loss 1.2345 · w = 0.47');
  assert.equal(tZh('status.epoch', { epoch: 3, loss: '1.2345', w: '0.47' }), '第 3 个迭代周期 · 损失 1.2345 · w = 0.47');
  assert.equal(tEn.plural('stage.after', 1), 'after 1 epoch');
  assert.equal(tEn.plural('stage.after', 2), 'after 2 epochs');
  assert.equal(translator('fr').lang, 'en');
  assert.equal(tZh('no.such.key'), 'no.such.key');
});

test('the language: ?lang= first, else the browser\'s (Chinese for any zh-*), a bad value named in the browser\'s language', () => {
  assert.deepEqual(chooseLanguage('?lang=zh', ['en-US']), { lang: 'zh', problem: null });
  assert.deepEqual(chooseLanguage('?lang=en', ['zh-CN', 'zh']), { lang: 'en', problem: null });
  assert.deepEqual(chooseLanguage('?embed=weights', ['zh-CN']), { lang: 'zh', problem: null });
  assert.deepEqual(chooseLanguage('', ['zh-TW']), { lang: 'zh', problem: null });
  assert.deepEqual(chooseLanguage('', ['en-GB', 'zh-CN']), { lang: 'en', problem: null }, 'the first preference decides');
  assert.deepEqual(chooseLanguage('', []), { lang: 'en', problem: null });
  assert.deepEqual(chooseLanguage('?lang=xx', ['en-US']), { lang: 'en', problem: 'Language (lang) must be one of en, zh' });
  assert.deepEqual(chooseLanguage('?lang=fr', ['zh-CN']), { lang: 'zh', problem: '语言（lang）必须是以下之一：en, zh' });
  assert.deepEqual(chooseLanguage('?lang=', ['en']), { lang: 'en', problem: 'Language (lang) must be one of en, zh' });
  // The same check as every setting's.
  assert.deepEqual(coerce(languageSetting, 'zh'), { value: 'zh' });
});

test('a kernel that cannot be trained (the module\'s isTrainable says so) is named in the reader\'s language', async () => {
  const { Session } = await import('../../web/src/model/session.js');
  const { untrainableText } = await import('../../web/src/figures/texts.js');
  const { landscapeNote } = await import('../../web/src/model/landscape.js');
  const { createNW } = await import('../module/module.mjs');
  const nw = await createNW();
  for (const [kernel, zhName] of [['boxcar', '矩形'], ['constant', '常数']]) {
    const session = new Session(nw);
    session.generate({ nTrain: 50, nTest: 50, noiseSd: 0.5, seed: 1, kernel, loo: 'on', loss: 'squared', lr: 0.5, estimator: 'nadarayaWatson' });
    assert.equal(nw.isTrainable(kernel, 'nadarayaWatson'), false);
    assert.equal(session.canTrain, false, 'the page asks the module, not its message');
    const zhT = translator('zh');
    for (const text of [untrainableText(session, zhT), landscapeNote(session, null, zhT)]) {
      assert.ok(text.includes(zhName) && !text.includes(kernel), text);
    }
    assert.match(untrainableText(session, translator('en')), new RegExp(`^kernel: ${kernel} cannot be trained`));
  }
});
