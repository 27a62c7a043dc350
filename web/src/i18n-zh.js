// Entry point of dist/i18n-zh.js: the Chinese dictionary as a classic script of its own, loaded by the page (page.js)
// only for a reader who reads Chinese. Separate bundles share no modules: it hands the dictionary over
// through a global, which page.js reads and registers.
import zh from './i18n/zh.js';

(globalThis.nwDictionaries ??= {}).zh = zh;
