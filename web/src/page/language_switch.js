// The header's link to the page in the other language: this page with ?lang= the other language, the
// rest of its query string (embed, id) and the hash (every setting) kept.
import { HTML_LANG, t } from '../i18n/i18n.js';

function showLanguageSwitch(link, hash) {
  const other = t.lang === 'zh' ? 'en' : 'zh';
  const params = new URLSearchParams(location.search);
  params.set('lang', other);
  link.href = `?${params}${hash}`;
  link.hreflang = HTML_LANG[other];
  link.lang = HTML_LANG[other];
}

export { showLanguageSwitch };
