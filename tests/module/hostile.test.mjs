// The module under hostile JavaScript (issue 14): every public function, given any JS value in any
// argument, returns a correct result or throws an NWError naming the parameter, and leaves the wasm
// stack pointer, the heap's size and the allocator's totals exactly as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { assertContract } from './contract.mjs';
import { createNW, modulePath } from './module.mjs';

// The object given to the factory becomes Emscripten's Module, whose internals (stackSave, HEAP8, the
// handle count) these tests read; the module itself (nw) carries only the public API.
const emscriptenModule = {};
const nw = await createNW(emscriptenModule);

// What the tests can see of the module's memory: the wasm stack pointer (stackSave), the heap's size,
// the allocator's totals (mallinfo, through heapStats) and Embind's
// count of live JS value handles.
function memoryState() {
  const { arena, inUse, free } = nw.heapStats();
  return {
    stackPointer: emscriptenModule.stackSave(),
    heapSize: emscriptenModule.HEAP8.buffer.byteLength,
    arena,
    inUse,
    free,
    handles: emscriptenModule.count_emval_handles(),
  };
}

// Runs `calls` twice and checks that the second run leaves the memory exactly as it found it (the first
// run may make one-time allocations, such as Embind's cache of method signatures).
function assertMemoryUnchanged(calls) {
  calls();
  const before = memoryState();
  calls();
  assert.deepEqual(memoryState(), before);
}

function describe(value) {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}

// An NWError whose message matches `pattern`, whose code is in nw.d.ts's union and whose parameter is a
// name the API uses (and, given in `expected`, that code and parameter).
function assertNWError(call, pattern, label, expected) {
  let thrown;
  try {
    call();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof nw.NWError, `${label}: expected an NWError, got ${describe(thrown)}`);
  assert.match(thrown.message, pattern, label);
  assertContract(thrown, label, expected);
}

// Runs `node --expose-gc` on `source` (CommonJS; NW_MODULE is the module's path) and returns the JSON
// object it prints last.
function runChild(source) {
  const child = spawnSync(process.execPath, ['--expose-gc', '-e', source], {
    env: { ...process.env, NW_MODULE: modulePath },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(child.status, 0, `child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

function detachedFloat64Array() {
  const array = new Float64Array([1, 2]);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

const throwing = (what) => () => {
  throw new Error(what);
};

// Item 1: values whose reading runs user code that throws, or that Number() cannot convert.
const hostileArrays = [
  ['a Proxy whose get trap throws', () => new Proxy([1, 2], { get: throwing('trap') }), /^NAME\.length could not be read: Error: trap$/, 'unreadable'],
  ['a Proxy throwing on one entry', () => new Proxy([1, 2], { get: (t, k) => (k === '1' ? throwing('trap')() : t[k]) }), /^NAME\[1\] could not be read: Error: trap$/, 'unreadable'],
  ['a revoked Proxy', () => { const { proxy, revoke } = Proxy.revocable([1, 2], {}); revoke(); return proxy; }, /^NAME could not be read: TypeError: .*revoked/, 'unreadable'],
  ['an entry with a throwing getter', () => Object.defineProperty([1, 2], 1, { get: throwing('getter') }), /^NAME\[1\] could not be read: Error: getter$/, 'unreadable'],
  ['an entry whose valueOf throws', () => [1, { valueOf: throwing('valueOf') }], /^NAME\[1\] must be a finite number, got object$/, 'wrong-type'],
  ['a BigInt64Array', () => new BigInt64Array(2), /^NAME must be an array or typed array of numbers, got BigInt64Array$/, 'wrong-type'],
  ['a BigUint64Array', () => new BigUint64Array(2), /^NAME must be an array or typed array of numbers, got BigUint64Array$/, 'wrong-type'],
  ['a BigInt entry', () => [1, 2n], /^NAME\[1\] must be a finite number, got bigint$/, 'wrong-type'],
  ['a Symbol entry', () => [Symbol('s'), 2], /^NAME\[0\] must be a finite number, got symbol$/, 'wrong-type'],
  ['a detached Float64Array', detachedFloat64Array, /^NAME must not be a detached Float64Array \(its buffer was transferred\)$/, 'unreadable'],
  // Item 2
  ['a sparse Array of length 2^29', () => new Array(2 ** 29), /^NAME must have at most 134217728 entries \(the module's memory is 1 GiB\), got 536870912$/, 'too-large'],
  ['a sparse Array of length 2^32 - 1', () => new Array(2 ** 32 - 1), /^NAME must have at most 134217728 entries .*got 4294967295$/, 'too-large'],
  ['a Proxy claiming a length of 2^53 - 1', () => new Proxy([1, 2], { get: (t, k) => (k === 'length' ? 2 ** 53 - 1 : t[k]) }), /^NAME must have at most 134217728 entries/, 'too-large'],
  ['a Proxy claiming a length of -1', () => new Proxy([1, 2], { get: (t, k) => (k === 'length' ? -1 : t[k]) }), /^NAME\.length must be an integer >= 0, got -1$/, 'wrong-type'],
  ['a Proxy claiming a length of "2"', () => new Proxy([1, 2], { get: (t, k) => (k === 'length' ? '2' : t[k]) }), /^NAME\.length must be an integer >= 0, got string$/, 'wrong-type'],
  // Item 6: Number() would convert these; they are refused.
  ['text entries', () => ['1', '2'], /^NAME\[0\] must be a finite number, got string$/, 'wrong-type'],
  ['a null entry', () => [null, 4], /^NAME\[0\] must be a finite number, got object$/, 'wrong-type'],
  ['boolean entries', () => [true, false], /^NAME\[0\] must be a finite number, got boolean$/, 'wrong-type'],
  ['array entries', () => [[5], [7]], /^NAME\[0\] must be a finite number, got object$/, 'wrong-type'],
  ['a Number object entry', () => [new Number(3), 4], /^NAME\[0\] must be a finite number, got object$/, 'wrong-type'],
  ['a hole', () => { const a = [1, 2]; delete a[1]; return a; }, /^NAME\[1\] must be a finite number, got undefined$/, 'wrong-type'],
  ['an array-like object', () => ({ length: 2, 0: 1, 1: 2 }), /^NAME must be an array or typed array of numbers, got object$/, 'wrong-type'],
  ['a DataView', () => new DataView(new ArrayBuffer(16)), /^NAME must be an array or typed array of numbers, got object$/, 'wrong-type'],
  ['a string', () => '12', /^NAME must be an array or typed array of numbers, got string$/, 'wrong-type'],
];

// Every array argument of every function, with valid companions of length 2.
const two = [0, 1];
const arrayArguments = [
  ['queries', (a) => nw.predict(a, two, two)],
  ['keys', (a) => nw.predict(two, a, two)],
  ['values', (a) => nw.predict(two, two, a)],
  ['values', (a) => nw.averagePool(a)],
  ['queries', (a) => nw.attentionWeights(a, two)],
  ['keys', (a) => nw.attentionWeights(two, a)],
  ['queries', (a) => nw.attentionBlocks(a, two, two)],
  ['keys', (a) => nw.attentionBlocks(two, a, two)],
  ['values', (a) => nw.attentionBlocks(two, two, a)],
  ['predicted', (a) => nw.meanSquaredError(a, two)],
  ['truth', (a) => nw.meanSquaredError(two, a)],
  ['xTrain', (a) => nw.looLoss(a, two)],
  ['yTrain', (a) => nw.looLoss(two, a)],
  ['xTrain', (a) => nw.selectBandwidth(a, two)],
  ['yTrain', (a) => nw.selectBandwidth(two, a)],
  ['xTrain', (a) => new nw.Trainer(a, two)],
  ['yTrain', (a) => new nw.Trainer(two, a)],
  ['queries', (a) => nw.localLinear(a, two, two)],
  ['keys', (a) => nw.localLinear(two, a, two)],
  ['values', (a) => nw.localLinear(two, two, a)],
  ['xTrain', (a) => nw.aicLoss(a, two)],
  ['yTrain', (a) => nw.aicLoss(two, a)],
];

// Items 1 and 7: options objects that throw when read, or hide keys.
const hostileOptions = [
  ['a throwing getter', () => ({ get w() { throw new Error('boom'); } }), /^w could not be read: Error: boom$/, 'unreadable', 'w'],
  ['a Proxy whose ownKeys trap throws', () => new Proxy({}, { ownKeys: throwing('trap') }), /^options could not be read: Error: trap$/, 'unreadable', 'options'],
  ['a Proxy whose get trap throws', () => new Proxy({ w: 1 }, { get: throwing('trap') }), /^w could not be read: Error: trap$/, 'unreadable', 'w'],
  ['a Proxy whose getOwnPropertyDescriptor trap throws', () => new Proxy({ w: 1 }, { getOwnPropertyDescriptor: throwing('trap') }), /^w could not be read: Error: trap$/, 'unreadable', 'w'],
  ['a Proxy whose getPrototypeOf trap throws', () => new Proxy({}, { getPrototypeOf: throwing('trap') }), /^options could not be read: Error: trap$/, 'unreadable', 'options'],
  ['an endless chain of Proxy prototypes', () => { const p = new Proxy({}, { getPrototypeOf: () => p }); return p; }, /^options must be a plain object, got one with more than 100 prototypes$/, 'wrong-type', 'options'],
  ['a revoked Proxy', () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; }, /^options could not be read: TypeError: .*revoked/, 'unreadable', 'options'],
  ['an inherited typo', () => Object.create({ W: 100 }), /^options: inherited option 'W' \(only the object's own properties are read\)$/, 'unknown-option', 'options'],
  ['an inherited known name', () => Object.create({ w: 100 }), /^options: inherited option 'w'/, 'unknown-option', 'options'],
  ['an inherited non-enumerable name', () => Object.create(Object.defineProperty({}, 'w', { value: 100 })), /^options: inherited option 'w'/, 'unknown-option', 'options'],
  ['a class instance', () => new (class Settings { constructor() { this.w = 2; } })(), /^options: inherited option 'constructor'/, 'unknown-option', 'options'],
  ['a non-enumerable own name', () => Object.defineProperty({}, 'w', { value: 2 }), /^options: option 'w' is not enumerable \(only own enumerable properties are read\)$/, 'unknown-option', 'options'],
  ['a Symbol key', () => ({ [Symbol('w')]: 2 }), /^options: unknown option Symbol\(w\)$/, 'unknown-option', 'options'],
  ['a 100 000-character key', () => ({ ['k'.repeat(100_000)]: 1 }), /^options: unknown option 'k{64}\.\.\.'$/, 'unknown-option', 'options'],
  ['a BigInt value', () => ({ kernel: 1n }), /^kernel must be a string, got bigint$/, 'wrong-type', 'kernel'],
  ['a Symbol value', () => ({ kernel: Symbol('gaussian') }), /^kernel must be a string, got symbol$/, 'wrong-type', 'kernel'],
  ['a String object', () => ({ kernel: new String('gaussian') }), /^kernel must be a string, got object$/, 'wrong-type', 'kernel'],
  ['a 10-million-character kernel name', () => ({ kernel: 'g'.repeat(1e7) }), /^kernel must be one of .*, got 'g{40}'$/, 'unknown-value', 'kernel'],
  ['an array', () => [1], /^options must be an object, got object$/, 'wrong-type', 'options'],
  ['a function', () => () => 1, /^options must be an object, got function$/, 'wrong-type', 'options'],
  ['a BigInt', () => 1n, /^options must be an object, got bigint$/, 'wrong-type', 'options'],
];

// Every options argument, with valid other arguments.
const xs = [0, 1, 2];
const ys = [1, 3, 2];
const optionArguments = [
  (o) => nw.predict(xs, xs, ys, o),
  (o) => nw.attentionWeights(xs, xs, o),
  (o) => nw.attentionBlocks(xs, xs, ys, o),
  (o) => nw.looLoss(xs, ys, o),
  (o) => nw.selectBandwidth(xs, ys, o),
  (o) => new nw.Trainer(xs, ys, o),
  (o) => nw.generateData(o),
  (o) => nw.localLinear(xs, xs, ys, o),
  (o) => nw.aicLoss(xs, ys, o),
];

test('item 1, 2, 6: hostile arrays give an NWError naming the parameter, for every array argument', () => {
  assertMemoryUnchanged(() => {
    for (const [label, make, pattern, code] of hostileArrays) {
      for (const [name, call] of arrayArguments) {
        const named = new RegExp(pattern.source.replace('NAME', name));
        assertNWError(() => call(make()), named, `${label} as ${name} of ${call}`, { code, parameter: name });
      }
    }
  });
});

test('item 1, 7: hostile options give an NWError naming the option, for every options argument', () => {
  assertMemoryUnchanged(() => {
    for (const [label, make, pattern, code, parameter] of hostileOptions) {
      for (const call of optionArguments) {
        // The kernel's messages hold only where kernel is a known option (generateData has none).
        const noKernel = call === optionArguments[6] && pattern.source.startsWith('^kernel');
        const expected = noKernel ? /^options: unknown option 'kernel'/ : pattern;
        const data = noKernel ? { code: 'unknown-option', parameter: 'options' } : { code, parameter };
        assertNWError(() => call(make()), expected, `${label} to ${call}`, data);
      }
    }
  });
});

test('item 1: hostile values where a number or a kernel name is expected give an NWError naming it', () => {
  const scalars = [
    [1n, 'bigint'], [Symbol('x'), 'symbol'], [{ valueOf: throwing('valueOf') }, 'object'],
    [new Proxy({}, { get: throwing('trap') }), 'object'], [new Number(1), 'object'], ['1', 'string'], [null, 'object'],
  ];
  assertMemoryUnchanged(() => {
    for (const [value, type] of scalars) {
      const wrong = (parameter) => ({ code: 'wrong-type', parameter });
      assertNWError(() => nw.target(value), new RegExp(`^x must be a number, got ${type}$`), 'target', wrong('x'));
      assertNWError(() => nw.testGrid(value, 1, 5), new RegExp(`^xMin must be a number, got ${type}$`), 'testGrid xMin', wrong('xMin'));
      assertNWError(() => nw.testGrid(0, value, 5), new RegExp(`^xMax must be a number, got ${type}$`), 'testGrid xMax', wrong('xMax'));
      assertNWError(() => nw.testGrid(0, 1, value), new RegExp(`^n must be a number, got ${type}$`), 'testGrid n', wrong('n'));
      assertNWError(() => nw.kernelValue('gaussian', value), new RegExp(`^d must be a number, got ${type}$`), 'kernelValue d', wrong('d'));
      if (type !== 'string') {
        assertNWError(() => nw.kernelValue(value, 1), new RegExp(`^kernel must be a string, got ${type}$`), 'kernelValue kernel', wrong('kernel'));
        assertNWError(() => nw.isTrainable(value), new RegExp(`^kernel must be a string, got ${type}$`), 'isTrainable kernel', wrong('kernel'));
        assertNWError(() => nw.isTrainable('gaussian', value), new RegExp(`^estimator must be a string, got ${type}$`), 'isTrainable estimator', wrong('estimator'));
      }
    }
  });
});

test('well-formed arrays of every kind give the same result as a plain Array', () => {
  const keys = [0, 1, 2.5, 4];
  const values = [3, -1, 2, 8];
  const expected = Array.from(nw.predict([0.2, 3], keys, values, { w: 1.5 }));
  const shared = new Float64Array(new SharedArrayBuffer(32));
  shared.set(keys);
  const resizable = new Float64Array(new ArrayBuffer(32, { maxByteLength: 64 }));
  resizable.set(keys);
  const kinds = {
    'a Float64Array': new Float64Array(keys),
    'a Float32Array': new Float32Array(keys),
    'an Int16Array': new Int16Array([0, 1, 2, 4]),
    'a view at an offset': new Float64Array([9, ...keys]).subarray(1),
    'a SharedArrayBuffer view': shared,
    'a resizable ArrayBuffer view': resizable,
    'a frozen Array': Object.freeze([...keys]),
    'a Proxy of an Array': new Proxy([...keys], {}),
    'a typed array with a throwing own length': Object.defineProperty(new Float64Array(keys), 'length', { get: throwing('length') }),
    'a typed array subclass with a throwing species': new (class extends Float64Array { static get [Symbol.species]() { throw new Error('species'); } })(keys),
    'a typed array with a fake toStringTag': Object.defineProperty(new Float64Array(keys), Symbol.toStringTag, { value: 'BigInt64Array' }),
  };
  const asKeys = { 'an Int16Array': [0, 1, 2, 4] };
  for (const [label, array] of Object.entries(kinds)) {
    const want = asKeys[label] ? Array.from(nw.predict([0.2, 3], asKeys[label], values, { w: 1.5 })) : expected;
    assert.deepEqual(Array.from(nw.predict([0.2, 3], array, values, { w: 1.5 })), want, label);
  }
});

test('item 4: Trainers dropped without delete() are freed once collected (18,000 of n = 4000)', () => {
  // Before the FinalizationRegistry, 16,000 such Trainers held 995 MiB and at 18,000 every call failed.
  const result = runChild(`
    const createNW = require(process.env.NW_MODULE);
    createNW().then(async (nw) => {
      const data = nw.generateData({ nTrain: 4000, seed: 1 });
      const before = nw.heapStats().inUse;
      let failures = 0;
      for (let i = 0; i < 18000; i++) {
        try { new nw.Trainer(data.xTrain, data.yTrain); } catch { failures++; }
        if (i % 1000 === 999) { gc(); await new Promise((resolve) => setTimeout(resolve, 0)); }
      }
      gc();
      await new Promise((resolve) => setTimeout(resolve, 0));
      // delete() unregisters: deleted Trainers are not freed twice.
      for (let i = 0; i < 100; i++) new nw.Trainer(data.xTrain, data.yTrain).delete();
      gc();
      await new Promise((resolve) => setTimeout(resolve, 0));
      const predict = Array.from(nw.predict([1], [0, 2], [1, 3]));
      console.log(JSON.stringify({ failures, before, after: nw.heapStats().inUse, arena: nw.heapStats().arena, predict }));
    });
  `);
  assert.equal(result.failures, 0);
  assert.equal(result.after, result.before, 'every dropped Trainer was freed');
  assert.ok(result.arena < 256 * 2 ** 20, `the heap stayed small: ${result.arena} bytes`);
  assert.deepEqual(result.predict, [2]);
});

test('item 5: a deleted Trainer says so in an NWError', () => {
  const trainer = new nw.Trainer(xs, ys);
  trainer.step();
  trainer.delete();
  const deleted = { code: 'deleted', parameter: 'this' };
  assertNWError(() => trainer.step(), /^step: this trainer was deleted; create a new Trainer$/, 'step', deleted);
  assertNWError(() => trainer.w, /^w: this trainer was deleted; create a new Trainer$/, 'w', deleted);
  assertNWError(() => trainer.epoch, /^epoch: this trainer was deleted; create a new Trainer$/, 'epoch', deleted);
  trainer.delete(); // a second delete() does nothing
  const step = nw.Trainer.prototype.step;
  assertNWError(() => step.call({}), /^step: called on something that is not an nw\.Trainer$/, 'step on a plain object');
  assertNWError(() => step.call(undefined), /^step: called on something that is not an nw\.Trainer$/, 'step on undefined');
  assertNWError(() => nw.Trainer.prototype.delete.call(5), /^delete: called on something that is not an nw\.Trainer$/, 'delete on 5');
});

test('item 6: entries that Number() converts are refused, docs/api.md\'s examples first', () => {
  assertNWError(() => nw.averagePool(['1', '2']), /^values\[0\] must be a finite number, got string$/, 'text');
  assertNWError(() => nw.averagePool([null, 4]), /^values\[0\] must be a finite number, got object$/, 'null');
  assertNWError(() => nw.averagePool([true, false]), /^values\[0\] must be a finite number, got boolean$/, 'booleans');
  assertNWError(() => nw.averagePool([[5], [7]]), /^values\[0\] must be a finite number, got object$/, 'arrays');
  assert.equal(nw.averagePool([5, 7]), 6, 'numbers are still accepted');
});

test('item 7: inherited and non-enumerable options are refused, own enumerable ones used', () => {
  assertNWError(() => nw.predict([1], xs, ys, Object.create({ W: 100 })), /^options: inherited option 'W'/, 'inherited W');
  assertNWError(() => nw.predict([1], xs, ys, Object.create({ w: 100 })), /^options: inherited option 'w'/, 'inherited w');
  const own = Array.from(nw.predict([0.5], xs, ys, { w: 100 }));
  assert.deepEqual(Array.from(nw.predict([0.5], xs, ys, Object.assign(Object.create(null), { w: 100 }))), own, 'a null-prototype object');
  assert.deepEqual(Array.from(nw.predict([0.5], xs, ys, { get w() { return 100; } })), own, 'a getter is read once');
  assert.deepEqual(Array.from(nw.predict([0.5], xs, ys, new Proxy({ w: 100 }, {}))), own, 'a Proxy of a plain object');
  assertNWError(() => nw.predict([1], xs, ys, JSON.parse('{"__proto__": {"w": 100}}')), /^options: unknown option '__proto__'/, 'an own __proto__ key');
  // A polluted Object.prototype is neither searched nor used.
  Object.prototype.w = 1e-9;
  try {
    assert.deepEqual(Array.from(nw.predict([0.5], xs, ys, { w: 100 })), own);
    assert.deepEqual(Array.from(nw.predict([0.5], xs, ys)), Array.from(nw.predict([0.5], xs, ys, { w: 1 })));
  } finally {
    delete Object.prototype.w;
  }
});

test('item 8: kernelValue refuses a d that is not finite', () => {
  for (const kernel of nw.kernelNames()) {
    assertNWError(() => nw.kernelValue(kernel, NaN), /^d must be a finite number, got NaN$/, kernel);
    assertNWError(() => nw.kernelValue(kernel, -Infinity), /^d must be a finite number, got -Infinity$/, kernel);
  }
  assert.equal(nw.kernelValue('epanechnikov', 0.5), 0.75);
});

test('item 9: attentionBlocks refuses empty values; null asks for no predictions', () => {
  assertNWError(() => nw.attentionBlocks([1], [1, 2], []), /^values must not be empty \(null asks for no predictions\)$/, '[]');
  assertNWError(() => nw.attentionBlocks([1], [1, 2], new Float64Array(0)), /^values must not be empty/, 'Float64Array(0)');
  assert.equal(nw.attentionBlocks([1], [1, 2], null).predictions, undefined);
  assert.equal(nw.attentionBlocks([1], [1, 2]).predictions, undefined);
  assert.deepEqual(Array.from(nw.attentionBlocks([1], [1, 2], [4, 6], { w: 1e9 }).predictions), [4]);
});

test('item 10: running out of memory names the input that did not fit, and the module recovers', () => {
  // Fills a fresh module's 1 GiB with Trainers of 2^23 points (128 MiB each) until an array no longer fits.
  const result = runChild(`
    const createNW = require(process.env.NW_MODULE);
    createNW().then((nw) => {
      const big = new Float64Array(2 ** 23);
      const trainers = [];
      let copyError;
      for (let i = 0; i < 10 && !copyError; i++) {
        try { trainers.push(new nw.Trainer(big, big)); } catch (error) { copyError = [error.name + ': ' + error.message, error.code, error.parameter]; }
      }
      let matrixError;
      try { nw.attentionWeights(new Float64Array(4096), new Float64Array(4096)); } catch (error) { matrixError = [error.name + ': ' + error.message, error.code, error.parameter]; }
      const heapSize = nw.heapStats().arena;
      for (const trainer of trainers) trainer.delete();
      const matrix = nw.attentionWeights(new Float64Array(4096), new Float64Array(4096)).data.length;
      console.log(JSON.stringify({ trainers: trainers.length, copyError, matrixError, heapSize, matrix }));
    });
  `);
  assert.ok(result.trainers >= 5 && result.trainers < 8, `${result.trainers} Trainers fitted`);
  assert.match(result.copyError[0], /^NWError: out of memory: not enough left in this module for [xy]Train \(8388608 entries\)$/);
  assert.equal(result.copyError[1], 'out-of-memory');
  assert.equal(result.copyError[2], result.copyError[0].match(/for ([xy]Train)/)[1], 'the parameter is the array that did not fit');
  assert.match(result.matrixError[0], /^NWError: out of memory: not enough left in this module for queries x keys$/);
  assert.deepEqual(result.matrixError.slice(1), ['out-of-memory', 'queries']);
  assert.ok(result.heapSize <= 2 ** 30);
  assert.equal(result.matrix, 4096 * 4096, 'after delete() the memory is usable again');
});

// ---- Property test: many random values of every class, in every argument of every function. ----

// mulberry32: a small seeded generator, so that a failure can be replayed from its seed.
function randomSource(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A generated argument: `plain` is an ordinary value the call must treat exactly like `value`, or
// HOSTILE when the call must throw an NWError naming this parameter.
const HOSTILE = Symbol('hostile');

const numberPool = [0, -0, 1, -1, 0.5, 2.5, 3, 7, 50, 1e-300, 1e300, -1e300, 5e-324, Number.MAX_VALUE, 2 ** 53, NaN, Infinity, -Infinity];
const kernelPool = ['gaussian', 'boxcar', 'constant', 'epanechnikov', 'triangular', 'Gauss', '', 'g'.repeat(100)];
// Values that are neither numbers nor strings, several of which run user code when converted.
const hostileScalarPool = [
  () => '1', () => null, () => true, () => 1n, () => Symbol('s'), () => undefined, () => [1], () => new Number(1),
  () => ({ valueOf: throwing('valueOf') }), () => ({ [Symbol.toPrimitive]: throwing('toPrimitive') }),
  () => new Proxy({}, { get: throwing('trap'), getPrototypeOf: throwing('trap') }), () => () => 1, () => new Date(0),
];
// Entries that make an otherwise fine Array hostile.
const hostileEntryPool = ['1', '', null, true, undefined, [5], new Number(3), 1n, Symbol('e'), { valueOf: () => 3 }, { valueOf: throwing('valueOf') }];
// Option values per known name: valid and invalid-but-well-typed (both sides of a comparison refuse those alike).
const optionPools = {
  w: numberPool, w0: numberPool, lr: [0.5, 0.01, 1e6, 0, -1, NaN], kernel: kernelPool, leaveOneOut: [true, false, 0, 'no'],
  maxBlockRows: [1, 2, 200, 0, 5000, 2.5], maxBlockCols: [1, 3, 200, -1, NaN], nTrain: [1, 2, 50, 0, -5, 2.5, NaN, 1e9],
  nTest: [1, 3, 0, 1e9], noiseSd: [0, 0.5, -1, Infinity], xMin: [0, 1, -1, NaN], xMax: [5, 1, 2e6, 0], seed: [0, 1, 2 ** 53, -1, 1.5],
  rowBegin: [0, 1, 3, -1, 2.5, NaN, 1e9], rowEnd: [0, 2, 5, -2, Infinity],
  lossSum: [0, 1.5, -1, NaN, Infinity, '1'], gradSum: [[0], [0.5], [0, 0, 0, 0, 0, 0, 0, 0], [NaN], [], 'x'],
  loss: ['squared', 'halfSquared', 'mean'], estimator: ['nadarayaWatson', 'localLinear', 'll', 3], criterion: ['looCv', 'aic', 'AIC', null],
  scoring: ['gaussian', 'dotProduct', 'additive', 'dot', 1], optimizer: ['sgd', 'adam', 'rmsprop', null], hidden: [1, 3, 8, 0, 65, 2.5, NaN],
  s0: [1, -0.5, 1e300, NaN], dim: [1, 2, 3, 0, 65, 1.5],
  parameters: [{ w: 1 }, { s: 0.5 }, { wq: [1, -1], wk: [-1, 1], b: [0, 0.5], v: [1, 2] }, { wq: [1], wk: [1, 2], b: [0], v: [1] },
    { s: 'x' }, { w: 1, s: 2 }, { wq: [NaN], wk: [1], b: [0], v: [1] }, null, [1], 'w'],
};

class Generator {
  constructor(seed) {
    this.random = randomSource(seed);
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  chance(p) {
    return this.random() < p;
  }

  number() {
    return this.chance(0.7) ? this.pick(numberPool) : (this.random() - 0.5) * 10 ** Math.floor(this.random() * 12);
  }

  finiteNumbers(length) {
    return Array.from({ length }, () => (this.chance(0.95) ? Math.round((this.random() * 8 - 2) * 100) / 100 : this.pick(numberPool)));
  }

  // An array argument of `length` entries (sometimes another length, possibly 0).
  array(length) {
    const numbers = this.finiteNumbers(this.chance(0.9) ? length : Math.floor(this.random() * 4));
    if (this.chance(0.75)) return this.wellFormedArray(numbers);
    return { value: this.hostileArray(numbers), plain: HOSTILE };
  }

  wellFormedArray(numbers) {
    const kinds = [
      () => ({ value: numbers, plain: numbers }),
      () => ({ value: new Float64Array(numbers), plain: numbers }),
      () => ({ value: new Float32Array(numbers), plain: Array.from(new Float32Array(numbers)) }),
      () => ({ value: new Int32Array(numbers), plain: Array.from(new Int32Array(numbers)) }),
      () => ({ value: new Uint8ClampedArray(numbers), plain: Array.from(new Uint8ClampedArray(numbers)) }),
      () => ({ value: new Proxy([...numbers], {}), plain: numbers }),
      () => ({ value: Object.freeze([...numbers]), plain: numbers }),
      () => ({ value: new Float64Array([0, ...numbers]).subarray(1), plain: numbers }),
      () => ({ value: Object.defineProperty(new Float64Array(numbers), 'length', { get: throwing('length') }), plain: numbers }),
      () => ({ value: Object.assign([...numbers], { extra: 'ignored' }), plain: numbers }),
    ];
    return this.pick(kinds)();
  }

  hostileArray(numbers) {
    const withEntry = (entry) => {
      const array = numbers.length > 0 ? [...numbers] : [1];
      array[Math.floor(this.random() * array.length)] = entry;
      return array;
    };
    const kinds = [
      () => withEntry(this.pick(hostileEntryPool)),
      () => Object.defineProperty(numbers.length > 0 ? [...numbers] : [1], 0, { get: throwing('getter') }),
      () => this.pick(hostileArrays)[1](),
      () => this.notAnArray(),
      () => {
        const length = this.pick([-1, 2 ** 40, '3', NaN, 1.5]);
        return new Proxy([...numbers], { get: (target, key) => (key === 'length' ? length : target[key]) });
      },
      () => new Proxy([...numbers, 1], { get: (target, key) => (key === '0' ? throwing('trap')() : target[key]) }),
      () => { const array = new Array(numbers.length + 2); array[0] = 1; return array; }, // holes from index 1
    ];
    return this.pick(kinds)();
  }

  // An options argument with names from `known`.
  options(known) {
    if (this.chance(0.1)) return { value: this.pick([undefined, null]), plain: undefined };
    const plain = {};
    for (const key of known) if (this.chance(0.4)) plain[key] = this.pick(optionPools[key]);
    if (this.chance(0.05)) plain.W = 3; // a typo: refused alike on both sides
    if (this.chance(0.75)) {
      const wrappers = [
        () => ({ ...plain }),
        () => Object.assign(Object.create(null), plain),
        () => new Proxy({ ...plain }, {}),
        () => Object.freeze({ ...plain }),
        () => Object.defineProperties({}, Object.fromEntries(Object.keys(plain).map((k) => [k, { get: () => plain[k], enumerable: true }]))),
      ];
      return { value: this.pick(wrappers)(), plain };
    }
    const kinds = [
      () => this.pick(hostileOptions)[1](),
      () => ({ ...plain, [this.pick(known)]: this.hostileOptionValue() }),
      () => Object.defineProperty({ ...plain }, this.pick(known), { get: throwing('getter'), enumerable: true }),
      () => Object.create({ ...plain, [this.pick(known)]: 1 }),
      () => this.pick([1, 'w', true, 1n, Symbol('o'), () => ({})]),
    ];
    return { value: this.pick(kinds)(), plain: HOSTILE };
  }

  notAnArray() {
    for (;;) {
      const value = this.pick(hostileScalarPool)();
      // (null and undefined are fine for attentionBlocks' values; validation.test.mjs refuses them elsewhere)
      if (!Array.isArray(value) && value != null) return value;
    }
  }

  // A value no option takes: not a number, string, boolean, null or undefined (those are refused alike
  // with or without wrapping, so they count as well-formed).
  hostileOptionValue() {
    for (;;) {
      const value = this.pick(hostileScalarPool)();
      if ((typeof value === 'object' && value !== null) || ['bigint', 'symbol', 'function'].includes(typeof value)) return value;
    }
  }

  scalar(kind) {
    if (this.chance(0.75)) {
      const value = kind === 'kernel' ? this.pick(kernelPool) : this.number();
      return { value, plain: value };
    }
    const value = this.pick(hostileScalarPool)();
    return { value, plain: kind === 'kernel' && typeof value === 'string' ? value : HOSTILE };
  }
}


// One Trainer's life: two steps, its state, a method on a foreign `this`, delete, a step after delete.
function trainerSession(xTrain, yTrain, options) {
  const trainer = new nw.Trainer(xTrain, yTrain, options);
  try {
    const steps = [];
    for (let i = 0; i < 2; i++) {
      try {
        steps.push(trainer.step());
      } catch (error) {
        if (!(error instanceof nw.NWError)) throw error;
        steps.push(error.message);
      }
    }
    assertNWError(() => nw.Trainer.prototype.step.call(new Proxy({}, { get: throwing('trap') })), /^step: called on something that is not/, 'foreign this');
    return { steps, parameters: trainer.parameters, scoring: trainer.scoring, epoch: trainer.epoch };
  } finally {
    trainer.delete();
    assertNWError(() => trainer.step(), /^step: this trainer was deleted/, 'step after delete');
  }
}

const known = {
  kernelOptions: ['w', 'kernel'],
  predict: ['w', 'kernel', 'estimator'],
  blocks: ['w', 'kernel', 'maxBlockRows', 'maxBlockCols'],
  loo: ['w', 'kernel', 'leaveOneOut', 'loss', 'estimator'],
  binnedLoss: ['w', 'leaveOneOut', 'loss'],
  looRows: ['w', 'kernel', 'leaveOneOut', 'estimator', 'rowBegin', 'rowEnd'],
  sumLooRows: ['w', 'loss'],
  select: ['kernel', 'leaveOneOut', 'loss', 'estimator', 'criterion'],
  trainer: ['w0', 'lr', 'kernel', 'leaveOneOut', 'loss', 'estimator', 'scoring', 'optimizer', 'hidden', 's0', 'seed', 'parameters'],
  scoring: ['scoring', 'parameters'],
  scoringBlocks: ['scoring', 'parameters', 'maxBlockRows', 'maxBlockCols'],
  scoringLoss: ['scoring', 'parameters', 'leaveOneOut', 'loss'],
  scoringRows: ['scoring', 'parameters', 'leaveOneOut', 'rowBegin', 'rowEnd', 'lossSum', 'gradSum'],
  features: ['w'],
  dim: ['dim'],
  data: ['nTrain', 'nTest', 'noiseSd', 'xMin', 'xMax', 'seed'],
};

// Every public function: its parameters (name and kind) and how to call it.
const publicFunctions = [
  { name: 'generateData', params: [['options', known.data]], call: (o) => nw.generateData(o) },
  { name: 'target', params: [['x', 'number']], call: (x) => nw.target(x) },
  { name: 'averagePool', params: [['values', 'array']], call: (v) => nw.averagePool(v) },
  { name: 'meanSquaredError', params: [['predicted', 'array'], ['truth', 'array']], call: (p, t) => nw.meanSquaredError(p, t) },
  { name: 'predict', params: [['queries', 'array'], ['keys', 'array'], ['values', 'array'], ['options', known.predict]], call: (q, k, v, o) => nw.predict(q, k, v, o) },
  { name: 'localLinear', params: [['queries', 'array'], ['keys', 'array'], ['values', 'array'], ['options', known.kernelOptions]], call: (q, k, v, o) => nw.localLinear(q, k, v, o) },
  { name: 'aicLoss', params: [['xTrain', 'array'], ['yTrain', 'array'], ['options', known.predict]], call: (x, y, o) => nw.aicLoss(x, y, o) },
  { name: 'attentionWeights', params: [['queries', 'array'], ['keys', 'array'], ['options', known.kernelOptions]], call: (q, k, o) => nw.attentionWeights(q, k, o) },
  { name: 'attentionBlocks', params: [['queries', 'array'], ['keys', 'array'], ['values', 'optional array'], ['options', known.blocks]], call: (q, k, v, o) => nw.attentionBlocks(q, k, v, o) },
  { name: 'looLoss', params: [['xTrain', 'array'], ['yTrain', 'array'], ['options', known.loo]], call: (x, y, o) => nw.looLoss(x, y, o) },
  { name: 'binnedLooLoss', params: [['xTrain', 'array'], ['yTrain', 'array'], ['options', known.binnedLoss]], call: (x, y, o) => nw.binnedLooLoss(x, y, o) },
  { name: 'looLossRows', params: [['xTrain', 'array'], ['yTrain', 'array'], ['options', known.looRows]], call: (x, y, o) => nw.looLossRows(x, y, o) },
  { name: 'sumLooRows', params: [['lossRows', 'array'], ['gradRows', 'array'], ['options', known.sumLooRows]], call: (l, g, o) => nw.sumLooRows(l, g, o) },
  { name: 'selectBandwidth', params: [['xTrain', 'array'], ['yTrain', 'array'], ['options', known.select]], call: (x, y, o) => nw.selectBandwidth(x, y, o) },
  { name: 'testGrid', params: [['xMin', 'number'], ['xMax', 'number'], ['n', 'number']], call: (a, b, n) => nw.testGrid(a, b, n) },
  { name: 'kernelValue', params: [['kernel', 'kernel'], ['d', 'number']], call: (k, d) => nw.kernelValue(k, d) },
  { name: 'kernelNames', params: [], call: () => nw.kernelNames() },
  { name: 'isTrainable', params: [['kernel', 'kernel']], call: (k) => nw.isTrainable(k) },
  { name: 'Trainer', params: [['xTrain', 'array'], ['yTrain', 'array'], ['options', known.trainer]], call: trainerSession },
  { name: 'scoringWeights', params: [['queries', 'array'], ['keys', 'array'], ['options', known.scoring]], call: (q, k, o) => nw.scoringWeights(q, k, o) },
  { name: 'scoringPredict', params: [['queries', 'array'], ['keys', 'array'], ['values', 'array'], ['options', known.scoring]], call: (q, k, v, o) => nw.scoringPredict(q, k, v, o) },
  { name: 'scoringBlocks', params: [['queries', 'array'], ['keys', 'array'], ['values', 'optional array'], ['options', known.scoringBlocks]], call: (q, k, v, o) => nw.scoringBlocks(q, k, v, o) },
  { name: 'gaussianFeatures', params: [['queries', 'array'], ['keys', 'array'], ['options', known.features]], call: (q, k, o) => nw.gaussianFeatures(q, k, o) },
  { name: 'dotProductWeights', params: [['queryFeatures', 'array'], ['keyFeatures', 'array'], ['options', known.dim]], call: (q, k, o) => nw.dotProductWeights(q, k, o) },
  { name: 'scoringLooLoss', params: [['xTrain', 'array'], ['yTrain', 'array'], ['options', known.scoringLoss]], call: (x, y, o) => nw.scoringLooLoss(x, y, o) },
  { name: 'scoringLooRows', params: [['xTrain', 'array'], ['yTrain', 'array'], ['options', known.scoringRows]], call: (x, y, o) => nw.scoringLooRows(x, y, o) },
];

function generateArgument(generator, [name, kind], length) {
  if (Array.isArray(kind)) return generator.options(kind);
  if (kind === 'array') return generator.array(length);
  if (kind === 'optional array' && generator.chance(0.2)) {
    const value = generator.pick([null, undefined]);
    return { value, plain: value };
  }
  if (kind === 'optional array') return generator.array(length);
  return generator.scalar(kind);
}

// A valid value for a parameter, standing in for a hostile one.
function validArgument([name, kind], length) {
  if (Array.isArray(kind)) return undefined;
  if (kind.endsWith('array')) return kind.startsWith('optional') ? null : Array.from({ length }, (_, i) => i);
  if (kind === 'kernel') return 'gaussian';
  return { x: 1, xMin: 0, xMax: 1, n: 1, d: 0 }[name];
}

function outcome(call) {
  try {
    return { result: call() };
  } catch (error) {
    return { error };
  }
}

// Makes `count` random calls; returns how many returned and how many threw an NWError.
function runRandomCalls(seed, count) {
  const generator = new Generator(seed);
  const tally = { returned: 0, refused: 0 };
  for (let i = 0; i < count; i++) {
    const fn = generator.pick(publicFunctions);
    const length = 1 + Math.floor(generator.random() * 5);
    const args = fn.params.map((param) => generateArgument(generator, param, length));
    const label = `seed ${seed}, call ${i}: ${fn.name}`;
    const got = outcome(() => fn.call(...args.map((a) => a.value)));
    const hostile = fn.params.filter((param, j) => args[j].plain === HOSTILE).map(([name, kind]) => (Array.isArray(kind) ? ['options', ...kind, 'w', 'kernel'] : [name])).flat();
    if (got.error !== undefined && !(got.error instanceof nw.NWError)) {
      assert.fail(`${label}: threw ${describe(got.error)}, not an NWError`);
    }
    if (got.error !== undefined) assertContract(got.error, label);
    if (hostile.length > 0) {
      if (!got.error) assert.fail(`${label}: a hostile argument (${hostile}) was accepted: ${args.map((a) => describe(a.value)).join(' | ')}`);
      const names = hostile.some((name) => got.error.message.startsWith(name) && !/\w/.test(got.error.message[name.length] ?? ''));
      // Otherwise the error must be the one that a well-formed but invalid argument gets on its own
      // (C++ may check it before the hostile argument's type).
      const own = () => outcome(() => fn.call(...args.map((a, j) => (a.plain === HOSTILE ? validArgument(fn.params[j], length) : a.plain))));
      assert.ok(names || own().error?.message === got.error.message, `${label}: '${got.error.message}' names none of ${hostile}`);
    } else {
      const expected = outcome(() => fn.call(...args.map((a) => a.plain)));
      if (expected.error) assert.equal(got.error?.message, expected.error.message, label);
      else assert.deepEqual(got.result, expected.result, label);
    }
    tally[got.error ? 'refused' : 'returned']++;
  }
  return tally;
}

test('property: random values of every class in every argument give a correct result or a named NWError', (t) => {
  // The same calls twice: the first makes the allocator's one-time growth (its arena reaches the largest
  // block any of them needs); the second must then leave everything exactly as it found it.
  runRandomCalls(2, 30_000);
  const before = memoryState();
  const started = performance.now();
  const tally = runRandomCalls(2, 30_000);
  const seconds = (performance.now() - started) / 1000;
  const after = memoryState();
  t.diagnostic(`30,000 random calls in ${seconds.toFixed(1)} s: ${tally.returned} returned, ${tally.refused} refused with an NWError`);
  t.diagnostic(`before ${JSON.stringify(before)}`);
  t.diagnostic(`after  ${JSON.stringify(after)}`);
  assert.ok(tally.returned > 3000 && tally.refused > 3000, 'both kinds of outcome are exercised');
  assert.deepEqual(after, before);
});

// Runs `calls` round-robin `count` times; every call must throw an NWError.
function refuseMany(calls, count) {
  let refused = 0;
  for (let i = 0; i < count; i++) {
    try {
      calls[i % calls.length]();
    } catch (error) {
      if (error instanceof nw.NWError) refused++;
    }
  }
  assert.equal(refused, count, 'every call threw an NWError');
}

test('a million hostile calls leave the stack pointer, the heap size and the free heap exactly as they were', (t) => {
  const detached = detachedFloat64Array();
  const sparse = new Array(2 ** 29);
  const throwingGetter = { get w() { throw new Error('boom'); } };
  const trap = new Proxy([1, 2], { get: throwing('trap') });
  const deleted = new nw.Trainer(xs, ys);
  deleted.delete();
  // The classes of items 1, 2, 5, 6 and 7: refused in JS before anything enters wasm (before the fix,
  // each of the first seven leaked 48 bytes of wasm stack, and the arrays already copied in).
  const refusedInJs = [
    () => nw.predict(xs, xs, ys, throwingGetter),
    () => nw.predict(trap, xs, ys),
    () => nw.averagePool([1, { valueOf: throwing('valueOf') }]),
    () => nw.averagePool(new BigInt64Array(2)),
    () => nw.meanSquaredError([1, 2n], [1, 2]),
    () => nw.looLoss(xs, [Symbol('s'), 1, 2]),
    () => nw.attentionWeights(detached, xs),
    () => nw.averagePool(sparse),
    () => nw.averagePool(['1', '2']),
    () => nw.predict([1], xs, ys, Object.create({ W: 100 })),
    () => deleted.step(),
  ];
  // Refused in C++ (an exception caught at the boundary, which costs more): items 8 and 9, a bad option, a
  // non-finite entry, a huge kernel name, a non-number option and a refused trainer.
  const longName = 'g'.repeat(1e6);
  const refusedInWasm = [
    () => nw.kernelValue('gaussian', NaN),
    () => nw.attentionBlocks([1], [1, 2], []),
    () => nw.predict([1], xs, ys, { W: 3 }),
    () => nw.predict([1], [1, NaN, 2], ys),
    () => nw.kernelValue(longName, 1),
    () => nw.generateData({ seed: 1n }),
    () => new nw.Trainer(xs, ys, { lr: 0 }),
    () => nw.isTrainable('Gauss'),
  ];
  refuseMany([...refusedInJs, ...refusedInWasm], 100); // one-time allocations happen here
  const before = memoryState();
  let started = performance.now();
  refuseMany(refusedInJs, 1_000_000);
  const jsSeconds = (performance.now() - started) / 1000;
  const afterJs = memoryState();
  started = performance.now();
  refuseMany(refusedInWasm, 100_000);
  const wasmSeconds = (performance.now() - started) / 1000;
  const after = memoryState();
  t.diagnostic(`1,000,000 calls refused in JS: ${jsSeconds.toFixed(1)} s; 100,000 refused in C++: ${wasmSeconds.toFixed(1)} s`);
  t.diagnostic(`before ${JSON.stringify(before)}`);
  t.diagnostic(`after  ${JSON.stringify(after)}`);
  assert.deepEqual(afterJs, before);
  assert.deepEqual(after, before);
  assert.deepEqual(Array.from(nw.predict([0.5, 1.5], xs, ys, { w: 2 })), Array.from(nw.predict([0.5, 1.5], new Float64Array(xs), ys, { w: 2 })));
});

// Found by the property test: the core's selectBandwidth read an empty xTrain before validating it (a
// wasm trap: callRaw turned it into an NWError, but the heap its frames held was lost).
test('selectBandwidth refuses empty arrays before reading them', () => {
  assertMemoryUnchanged(() => {
    assertNWError(() => nw.selectBandwidth([], []), /^xTrain must not be empty$/, 'both empty');
    assertNWError(() => nw.selectBandwidth([], [1, 2]), /^xTrain must not be empty$/, 'xTrain empty');
  });
});

test('the unchecked Embind bindings are not on the module: its functions are the checked public ones', () => {
  const exposed = Object.keys(nw).filter((key) => /^raw[A-Z]/.test(key) || key === 'RawTrainer');
  assert.deepEqual(exposed, []);
  // The public functions still reach them.
  assert.deepEqual(nw.kernelNames(), ['gaussian', 'boxcar', 'constant', 'epanechnikov', 'triangular']);
  const stats = nw.heapStats();
  for (const key of ['arena', 'inUse', 'free']) assert.ok(Number.isInteger(stats[key]) && stats[key] >= 0, `${key}: ${stats[key]}`);
  // (No relation between the three is asserted: emmalloc counts free space beyond its first region, so
  // after the heap has grown, free can exceed arena.)
});
