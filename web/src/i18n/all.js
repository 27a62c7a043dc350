// Every language's dictionary registered at once: for <nw-figure> (one script for a lesson) and the tests.
import { registerDictionary } from './i18n.js';
import zh from './zh.js';

registerDictionary('zh', zh);

export * from './i18n.js';
