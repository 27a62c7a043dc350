// The module's declared contract, read from its sources: the error codes of nw.d.ts's ErrorCode union,
// the parameter names its signatures and option types use, and the public API list of api.js. Shared by
// the tests that check every NWError against it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
export const sources = {
  dts: read('cpp/bindings/nw.d.ts'),
  api: read('cpp/bindings/api.js'),
  errorHeader: read('cpp/include/nw/error.hpp'),
  docs: read('docs/api.md'),
};

const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
const declarations = withoutComments(sources.dts);

// The text between the braces that follow `opening` (e.g. 'interface NWModule').
export function block(text, opening) {
  const start = text.indexOf(opening);
  assert.ok(start >= 0, `${opening} is declared`);
  const open = text.indexOf('{', start);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`${opening}: no closing brace`);
}

// The names declared at the top level of a block: `name(`, `name:`, `name?:`, `readonly name:`, `get name(`.
export function memberNames(body) {
  let depth = 0;
  let topLevel = '';
  for (const char of body) {
    if (char === '{') depth++;
    if (depth === 0) topLevel += char;
    if (char === '}') depth--;
  }
  return [...topLevel.matchAll(/^\s*(?:readonly\s+|get\s+)?(\w+)\??\s*[(:]/gm)].map((match) => match[1]);
}

// Every code of the ErrorCode union.
export const errorCodes = new Set([...(/type ErrorCode =([^;]*);/.exec(declarations)?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1]));

// Every name a signature or an options type gives a parameter, and 'this' (a Trainer method's receiver).
export const parameterNames = (() => {
  const names = new Set(['this']);
  for (const opening of ['interface NWModule', 'class Trainer']) {
    for (const [, parameters] of block(declarations, opening).matchAll(/\w+\s*\(([^()]*)\)/g)) {
      for (const [, name] of parameters.matchAll(/(\w+)\??:/g)) names.add(name);
    }
  }
  for (const [, name] of declarations.matchAll(/interface (\w+Options)\b/g)) {
    for (const field of memberNames(block(declarations, `interface ${name} `))) names.add(field);
  }
  return names;
})();

// The code names of the core's nw::ErrorCode (errorCodeName), and the codes api.js raises itself.
export const coreCodes = new Set([...sources.errorHeader.matchAll(/return "([a-z-]+)";/g)].map((m) => m[1]));
export const apiCodes = new Set([...sources.api.matchAll(/new NWError\((?:`[^`]*`|\w+), '([a-z-]+)'/g)].map((m) => m[1]));

// api.js run against a stand-in Module: the names it exports, and its publicApi list.
export function runApiScript() {
  const context = vm.createContext({ Module: { ready: Promise.resolve() }, addOnPostRun() {} });
  vm.runInContext(sources.api, context, { filename: 'api.js' });
  return { exported: Object.keys(vm.runInContext('publicModule', context)), publicApi: [...vm.runInContext('publicApi', context)] };
}

// An NWError as the contract says: its code in the union, its parameter a name the API uses.
export function assertContract(error, label, expected = {}) {
  assert.equal(error?.name, 'NWError', `${label}: an NWError, got ${error}`);
  assert.ok(errorCodes.has(error.code), `${label}: code ${error.code} is one of nw.d.ts's ErrorCode (${error.message})`);
  assert.ok(parameterNames.has(error.parameter), `${label}: parameter ${error.parameter} is a name the API uses (${error.message})`);
  if (expected.code !== undefined) assert.equal(error.code, expected.code, `${label}: code (${error.message})`);
  if (expected.parameter !== undefined) assert.equal(error.parameter, expected.parameter, `${label}: parameter (${error.message})`);
}
