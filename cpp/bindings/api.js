// The public JavaScript API over the Embind glue (appended to the module with --post-js). Conversions
// only, no math. Every argument is read here, once, before anything enters wasm: arrays become fresh
// Float64Arrays of numbers and options fresh objects of own data properties, so no getter, Proxy trap
// or valueOf runs (and throws) while C++ frames are live; an exception crossing them would leak wasm
// stack and heap. Every raw call is still guarded: { error } results and anything thrown become NWError.

// The module's public API, written once: the module exports exactly these names (see the end of this
// file), nw.d.ts's NWModule declares them and docs/api.md documents them; tests/module/api_table.test.mjs
// checks that the four agree.
const publicApi = Object.freeze([
  'NWError', 'Trainer', 'generateData', 'target', 'predict', 'localLinear', 'binnedPredict', 'averagePool',
  'attentionWeights', 'attentionBlocks', 'meanSquaredError', 'looLoss', 'looLossRows', 'sumLooRows', 'aicLoss',
  'selectBandwidth', 'binnedLooLoss', 'testGrid', 'kernelNames', 'kernelValue', 'isTrainable', 'heapStats',
  'scoringWeights', 'scoringPredict', 'scoringBlocks', 'scoringLooLoss', 'scoringLooRows', 'gaussianFeatures', 'dotProductWeights',
]);

// Invalid input. The message is for people; code (one of nw.d.ts's ErrorCode, the names of the core's
// nw::ErrorCode plus 'unreadable' and 'deleted', raised only here) and parameter (the name of the
// argument or option at fault, 'options' for the options object itself, 'this' for a Trainer method's
// receiver) are for programs.
class NWError extends Error {
  constructor(message, code, parameter) {
    super(message);
    this.name = 'NWError';
    this.code = code;
    this.parameter = parameter;
  }
}

// Taken once at load, so that a value's own properties (a shadowing `length`, a fake Symbol.toStringTag)
// cannot change what is read from a typed array. These getters never run user code.
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsicGetter = (key) => Object.getOwnPropertyDescriptor(typedArrayPrototype, key).get;
const typedArrayName = intrinsicGetter(Symbol.toStringTag); // undefined for anything not a typed array
const typedArrayLength = intrinsicGetter('length');
const typedArrayBuffer = intrinsicGetter('buffer');
const objectPrototype = Object.prototype;
const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// The module's memory is capped at 1 GiB (-sMAXIMUM_MEMORY in cpp/bindings/CMakeLists.txt): an array
// of more entries (8 bytes each) could never fit, so it is refused before any copy is made.
const maxEntries = 2 ** 27;
// No option name is longer (and a longer key could only be a mistake, echoed in the message).
const maxOptionNameLength = 64;
// A Proxy can pretend to have an endless chain of prototypes.
const maxPrototypeDepth = 100;

// What a thrown value says, without letting it throw again (it may be a Proxy, or have a bad toString).
function describeThrown(thrown) {
  try {
    return String(thrown).slice(0, 200);
  } catch {
    return `a thrown ${thrown === null ? 'null' : typeof thrown}`;
  }
}

// `shown` is how the message names what could not be read ("keys[1]"), `parameter` its parameter ("keys").
function unreadable(parameter, shown, thrown) {
  return new NWError(`${shown} could not be read: ${describeThrown(thrown)}`, 'unreadable', parameter);
}

function tooLarge(name, length) {
  return new NWError(`${name} must have at most ${maxEntries} entries (the module's memory is 1 GiB), got ${length}`, 'too-large', name);
}

function wrongType(name, message) {
  return new NWError(message, 'wrong-type', name);
}

// new Float64Array(source) (a length or a typed array to copy), or an NWError naming the array when
// the JS engine cannot make it (out of memory).
function allocate(source, length, name) {
  try {
    return new Float64Array(source);
  } catch (thrown) {
    throw new NWError(`${name} could not be copied (${length} entries): ${describeThrown(thrown)}`, 'out-of-memory', name);
  }
}

// A transferred (detached) buffer reads as length 0; only a view on a live buffer can be built.
function isDetached(typedArray) {
  try {
    new Uint8Array(typedArrayBuffer.call(typedArray));
    return false;
  } catch {
    return true;
  }
}

// Any typed array of numbers, copied: a Float64Array costs one memcpy, the others are converted.
function copyTypedArray(typedArray, kind, name) {
  if (kind === 'BigInt64Array' || kind === 'BigUint64Array') {
    throw wrongType(name, `${name} must be an array or typed array of numbers, got ${kind}`);
  }
  const length = typedArrayLength.call(typedArray);
  if (length === 0) {
    if (isDetached(typedArray)) {
      throw new NWError(`${name} must not be a detached ${kind} (its buffer was transferred)`, 'unreadable', name);
    }
    return new Float64Array(0); // empty, or outside a shrunk resizable buffer: C++ says it must not be empty
  }
  if (length > maxEntries) throw tooLarge(name, length);
  return allocate(typedArray, length, name);
}

// An Array (or a Proxy of one), read entry by entry: each entry is read once and must be a number.
// Number-convertible values (text, null, booleans, [5], objects with valueOf) are refused, not converted.
function copyArray(array, name) {
  let length;
  try {
    length = array.length;
  } catch (thrown) {
    throw unreadable(name, `${name}.length`, thrown);
  }
  if (!(Number.isSafeInteger(length) && length >= 0)) { // only a Proxy can say so
    throw wrongType(name, `${name}.length must be an integer >= 0, got ${typeof length === 'number' ? length : typeof length}`);
  }
  if (length > maxEntries) throw tooLarge(name, length);
  const copy = allocate(length, length, name);
  for (let i = 0; i < length; i++) {
    let entry;
    try {
      entry = array[i];
    } catch (thrown) {
      throw unreadable(name, `${name}[${i}]`, thrown);
    }
    if (typeof entry !== 'number') throw wrongType(name, `${name}[${i}] must be a finite number, got ${typeof entry}`);
    copy[i] = entry;
  }
  return copy;
}

// Array or typed array -> a fresh Float64Array the caller cannot reach. Finiteness is checked in C++.
function readArray(value, name) {
  const kind = typedArrayName.call(value);
  if (kind !== undefined) return copyTypedArray(value, kind, name);
  let isArray;
  try {
    isArray = Array.isArray(value);
  } catch (thrown) {
    throw unreadable(name, name, thrown); // a revoked Proxy
  }
  if (!isArray) throw wrongType(name, `${name} must be an array or typed array of numbers, got ${typeof value}`);
  return copyArray(value, name);
}

// Options are own enumerable properties, so a key in a prototype (Object.create({ W: 100 })) is refused
// like a typo rather than silently used or ignored. Object.prototype itself is not searched.
function rejectInherited(options) {
  let object = options;
  for (let depth = 0; ; depth++) {
    try {
      object = Reflect.getPrototypeOf(object);
    } catch (thrown) {
      throw unreadable('options', 'options', thrown);
    }
    if (object === null || object === objectPrototype) return;
    if (depth === maxPrototypeDepth) {
      throw wrongType('options', `options must be a plain object, got one with more than ${maxPrototypeDepth} prototypes`);
    }
    let keys;
    try {
      keys = Reflect.ownKeys(object);
    } catch (thrown) {
      throw unreadable('options', 'options', thrown);
    }
    if (keys.length > 0) {
      throw unknownOption(`options: inherited option ${describeKey(keys[0])} (only the object's own properties are read)`);
    }
  }
}

function unknownOption(message) {
  return new NWError(message, 'unknown-option', 'options');
}

function describeKey(key) {
  if (typeof key === 'symbol') return String(key);
  return key.length > maxOptionNameLength ? `'${key.slice(0, maxOptionNameLength)}...'` : `'${key}'`;
}

// options -> undefined (the defaults) or a fresh object without prototype holding a copy of each own
// enumerable property's value (a getter is called once). Which names are known, and each value's type,
// C++ checks, without running user code.
function readOptions(options) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object') throw wrongType('options', `options must be an object, got ${typeof options}`);
  let isArray;
  let keys;
  try {
    isArray = Array.isArray(options);
    keys = Reflect.ownKeys(options);
  } catch (thrown) {
    throw unreadable('options', 'options', thrown);
  }
  if (isArray) throw wrongType('options', 'options must be an object, got object');
  rejectInherited(options);
  const copy = Object.create(null);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key === 'symbol' || key.length > maxOptionNameLength) {
      throw unknownOption(`options: unknown option ${describeKey(key)}`);
    }
    let descriptor;
    try {
      descriptor = Reflect.getOwnPropertyDescriptor(options, key);
    } catch (thrown) {
      throw unreadable(key, key, thrown);
    }
    if (descriptor === undefined) continue; // a Proxy listed a key it does not have
    if (!descriptor.enumerable) {
      throw unknownOption(`options: option '${key}' is not enumerable (only own enumerable properties are read)`);
    }
    try {
      copy[key] = Reflect.get(options, key);
    } catch (thrown) {
      throw unreadable(key, key, thrown);
    }
  }
  return copy;
}

// options as readOptions reads them, with its `parameters` ({ w }, { s } or { wq, wk, b, v }) read the
// same way one level down: numbers pass as they are (C++ checks them), anything else is read as an array.
function readScoringOptions(options) {
  const copy = readOptions(options);
  if (copy === undefined || copy.parameters === undefined) return copy;
  const given = copy.parameters;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw wrongType('parameters', `parameters must be an object: { w }, { s } or { wq, wk, b, v }, got ${given === null ? 'null' : Array.isArray(given) ? 'an array' : typeof given}`);
  }
  let fields;
  try {
    fields = readOptions(given);
  } catch (error) {
    throw new NWError(`parameters: ${error.message.replace(/^options: /, '')}`, error.code, 'parameters');
  }
  for (const key of Object.keys(fields)) {
    if (typeof fields[key] !== 'number') fields[key] = readArray(fields[key], 'parameters');
  }
  copy.parameters = fields;
  return copy;
}

// scoringLooRows's options: readScoringOptions's, with the running gradient sum read as an array.
function readScoringRowsOptions(options) {
  const copy = readScoringOptions(options);
  if (copy !== undefined && copy.gradSum !== undefined) copy.gradSum = readArray(copy.gradSum, 'gradSum');
  return copy;
}

// Calls a raw Embind function on converted arguments. Nothing in it should throw; if anything does
// (the JS engine out of memory while copying a result), the wasm stack pointer is put back, as a JS
// exception crossing wasm frames does not, and the error becomes an NWError naming `what` (its code
// 'internal', its parameter `parameter`). A { error } result becomes an NWError with its code and parameter.
function callRaw(what, parameter, call) {
  const stackPointer = stackSave();
  let result;
  try {
    result = call();
  } catch (thrown) {
    stackRestore(stackPointer);
    throw new NWError(`${what}: ${typeof thrown === 'number' ? 'a C++ exception escaped' : describeThrown(thrown)}`, 'internal', parameter);
  }
  if (hasOwn(result, 'error')) throw new NWError(result.error, result.code, result.parameter);
  return result.value;
}

// A Trainer's raw Embind object, or null once deleted; WeakMap, so a Trainer's fields cannot be faked.
const rawTrainers = new WeakMap();
// A Trainer that is dropped without delete() is freed when it is garbage-collected. delete() stays the
// prompt way: collection may come late, or (at exit) never.
const trainerFinalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((raw) => { try { raw.delete(); } catch {} })
  : null;

function rawTrainer(trainer, what) {
  const raw = rawTrainers.get(trainer);
  if (raw === undefined) throw wrongType('this', `${what}: called on something that is not an nw.Trainer`);
  if (raw === null) throw new NWError(`${what}: this trainer was deleted; create a new Trainer`, 'deleted', 'this');
  return raw;
}

// Each public function's parameters, in order, with the reader that converts each. Plain numbers and
// strings pass as they are: C++ checks their type with typeof, which runs no user code.
const plain = (value) => value;
const optionalArray = (value, name) => (value === undefined || value === null ? null : readArray(value, name));
const trainingParameters = [['xTrain', readArray], ['yTrain', readArray], ['options', readOptions]];
const signatures = {
  generateData: ['rawGenerateData', [['options', readOptions]]],
  target: ['rawTarget', [['x', plain]]],
  averagePool: ['rawAveragePool', [['values', readArray]]],
  meanSquaredError: ['rawMeanSquaredError', [['predicted', readArray], ['truth', readArray]]],
  predict: ['rawPredict', [['queries', readArray], ['keys', readArray], ['values', readArray], ['options', readOptions]]],
  localLinear: ['rawLocalLinear', [['queries', readArray], ['keys', readArray], ['values', readArray], ['options', readOptions]]],
  binnedPredict: ['rawBinnedPredict', [['queries', readArray], ['keys', readArray], ['values', readArray], ['options', readOptions]]],
  attentionWeights: ['rawAttentionWeights', [['queries', readArray], ['keys', readArray], ['options', readOptions]]],
  // values may be null (or omitted): then no predictions are made.
  attentionBlocks: ['rawAttentionBlocks', [['queries', readArray], ['keys', readArray], ['values', optionalArray], ['options', readOptions]]],
  looLoss: ['rawLooLoss', trainingParameters],
  binnedLooLoss: ['rawBinnedLooLoss', trainingParameters],
  looLossRows: ['rawLooLossRows', trainingParameters],
  sumLooRows: ['rawSumLooRows', [['lossRows', readArray], ['gradRows', readArray], ['options', readOptions]]],
  aicLoss: ['rawAicLoss', trainingParameters],
  selectBandwidth: ['rawSelectBandwidth', trainingParameters],
  testGrid: ['rawTestGrid', [['xMin', plain], ['xMax', plain], ['n', plain]]],
  kernelValue: ['rawKernelValue', [['kernel', plain], ['d', plain]]],
  // estimator may be omitted (nadarayaWatson); undefined passes as it is.
  isTrainable: ['rawIsTrainable', [['kernel', plain], ['estimator', plain]]],
  Trainer: ['rawCreateTrainer', [['xTrain', readArray], ['yTrain', readArray], ['options', readScoringOptions]]],
  scoringWeights: ['rawScoringWeights', [['queries', readArray], ['keys', readArray], ['options', readScoringOptions]]],
  scoringPredict: ['rawScoringPredict', [['queries', readArray], ['keys', readArray], ['values', readArray], ['options', readScoringOptions]]],
  scoringBlocks: ['rawScoringBlocks', [['queries', readArray], ['keys', readArray], ['values', optionalArray], ['options', readScoringOptions]]],
  scoringLooLoss: ['rawScoringLooLoss', [['xTrain', readArray], ['yTrain', readArray], ['options', readScoringOptions]]],
  scoringLooRows: ['rawScoringLooRows', [['xTrain', readArray], ['yTrain', readArray], ['options', readScoringRowsOptions]]],
  gaussianFeatures: ['rawGaussianFeatures', [['queries', readArray], ['keys', readArray], ['options', readOptions]]],
  dotProductWeights: ['rawDotProductWeights', [['queryFeatures', readArray], ['keyFeatures', readArray], ['options', readOptions]]],
};

// Reads every argument first, then calls the raw function on the copies.
function callPublic(name, args) {
  const [raw, parameters] = signatures[name];
  const converted = parameters.map(([parameter, read], i) => read(args[i], parameter));
  return callRaw(name, parameters[0][0], () => bindings[raw](...converted));
}

// The Embind functions and class, taken off the module once the runtime has registered them (before
// the module's promise resolves): they read JS values with no checks, so the only way in is the
// public API above. Its calls reach them here.
const bindings = Object.create(null);
addOnPostRun(() => {
  for (const key of Object.keys(Module)) {
    if (/^raw[A-Z]/.test(key) || key === 'RawTrainer') {
      bindings[key] = Module[key];
      delete Module[key];
    }
  }
});

class Trainer {
  constructor(xTrain, yTrain, options) {
    const raw = callPublic('Trainer', [xTrain, yTrain, options]);
    rawTrainers.set(this, raw);
    if (trainerFinalizer) trainerFinalizer.register(this, raw, this);
  }
  // One epoch; returns the loss before the step.
  step() {
    const raw = rawTrainer(this, 'step');
    return callRaw('step', 'this', () => raw.step());
  }
  // The same epoch from rows computed elsewhere (nw.looLossRows over every row at this trainer's w,
  // data and objective, e.g. by workers): equal to step() bit for bit.
  stepWithRows(lossRows, gradRows) {
    const raw = rawTrainer(this, 'stepWithRows');
    const rows = [readArray(lossRows, 'lossRows'), readArray(gradRows, 'gradRows')];
    return callRaw('stepWithRows', 'lossRows', () => raw.stepWithRows(...rows));
  }
  // The same epoch from sums computed a range of rows at a time (nw.scoringLooRows over every row, in
  // order, at this trainer's parameters, data and objective): equal to step() bit for bit. Another
  // scoring than gaussian only.
  stepWithSums(lossSum, gradSum) {
    const raw = rawTrainer(this, 'stepWithSums');
    if (typeof lossSum !== 'number') throw wrongType('lossSum', `lossSum must be a number, got ${lossSum === null ? 'null' : typeof lossSum}`);
    const grad = readArray(gradSum, 'gradSum');
    return callRaw('stepWithSums', 'lossSum', () => raw.stepWithSums(lossSum, grad));
  }
  // The gaussian scoring's w (another scoring's parameters: see parameters).
  get w() {
    const raw = rawTrainer(this, 'w');
    const scoring = raw.scoring();
    if (scoring !== 'gaussian') throw new NWError(`w: this trainer's scoring is ${scoring}; read trainer.parameters`, 'not-applicable', 'this');
    return raw.w();
  }
  // 'gaussian', 'dotProduct' or 'additive'.
  get scoring() {
    return rawTrainer(this, 'scoring').scoring();
  }
  // The current parameters, a fresh copy: { w }, { s } or { wq, wk, b, v } (Float64Arrays of length h).
  get parameters() {
    return rawTrainer(this, 'parameters').parameters();
  }
  get epoch() {
    const raw = rawTrainer(this, 'epoch');
    return raw.epoch();
  }
  // Whether step() sums binned rows (the option approximate: 'auto' at a large n), and the last step's
  // bound on |its loss - looLoss's| (0 for exact steps).
  get approximate() {
    return rawTrainer(this, 'approximate').approximate();
  }
  get lossBound() {
    return rawTrainer(this, 'lossBound').lossBound();
  }
  // Frees the C++ trainer (it holds a copy of the training data in wasm memory) now, rather than
  // whenever the garbage collector gets to it. A second delete() does nothing.
  delete() {
    const raw = rawTrainers.get(this);
    if (raw === null) return;
    if (raw === undefined) throw wrongType('this', 'delete: called on something that is not an nw.Trainer');
    rawTrainers.set(this, null);
    if (trainerFinalizer) trainerFinalizer.unregister(this);
    raw.delete();
  }
}

// The exports, by name; the module gets exactly publicApi's (a name missing on either side stops the load).
// createNW resolves to publicModule, a plain object of these names only: Emscripten's Module also carries
// its own members (_malloc, HEAP8..HEAPF64, asm, stackSave, ...), which would let a caller read and write
// wasm memory past every check here.
const exportsByName = {
  NWError,
  // Calling the class without new would throw the engine's own TypeError: the proxy makes it an NWError
  // that says how to call it; `new`, instanceof and the prototype are the class's own.
  Trainer: new Proxy(Trainer, {
    apply() { throw wrongType('this', 'Trainer: create one with new: new nw.Trainer(xTrain, yTrain, options)'); },
  }),
  // The kernel names, in the core's order.
  kernelNames: () => bindings.rawKernelNames(),
  // The module's allocator, in bytes: { arena } taken from the system, { inUse } in allocated blocks,
  // { free } in free ones. For checking that a program leaves no wasm memory behind.
  heapStats: () => bindings.rawHeapStats(),
};
for (const name of Object.keys(signatures)) {
  if (name !== 'Trainer') exportsByName[name] = (...args) => callPublic(name, args);
}
for (const name of Object.keys(exportsByName)) {
  if (!publicApi.includes(name)) throw new Error(`api.js: ${name} is exported but not in publicApi`);
}
const publicModule = {};
for (const name of publicApi) {
  if (!hasOwn(exportsByName, name)) throw new Error(`api.js: publicApi lists ${name}, which is not defined`);
  publicModule[name] = exportsByName[name];
}
Module['ready'] = Module['ready'].then(() => publicModule);
