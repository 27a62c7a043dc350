// Contracts in data: NWError's code and parameter, the ErrorCode union against the codes the core and
// api.js raise, and nw.isTrainable against the Trainer and selectBandwidth it speaks for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiCodes, assertContract, coreCodes, errorCodes, parameterNames } from './contract.mjs';
import { createNW } from './module.mjs';

const nw = await createNW();
const x = [0, 0.5, 1, 2, 3.5, 4];
const y = [1, 2, 0.5, 1.5, 3, 2];

function thrownBy(call) {
  try {
    call();
  } catch (error) {
    return error;
  }
  assert.fail('no error thrown');
}

test('the ErrorCode union is the core\'s codes and api.js\'s, no more and no fewer', () => {
  assert.ok(coreCodes.size >= 14, `core codes: ${[...coreCodes]}`);
  assert.ok(apiCodes.size >= 5, `api.js codes: ${[...apiCodes]}`);
  for (const code of coreCodes) assert.ok(errorCodes.has(code), `the core's ${code} is in the union`);
  for (const code of apiCodes) assert.ok(errorCodes.has(code), `api.js's ${code} is in the union`);
  for (const code of errorCodes) assert.ok(coreCodes.has(code) || apiCodes.has(code), `${code} is raised somewhere`);
});

test('the parameter names are read from nw.d.ts: every argument and option, and this', () => {
  for (const name of ['queries', 'keys', 'values', 'xTrain', 'lossRows', 'options', 'w', 'w0', 'lr', 'kernel', 'estimator',
    'leaveOneOut', 'loss', 'criterion', 'approximate', 'maxBlockRows', 'rowBegin', 'rowEnd', 'nTrain', 'seed', 'x', 'd', 'n', 'this']) {
    assert.ok(parameterNames.has(name), name);
  }
  for (const name of ['keys[1]', 'data', 'fallbackRows', 'W']) assert.ok(!parameterNames.has(name), `${name} is no parameter`);
});

test('an NWError carries message, code and parameter; the message is as before', () => {
  const error = thrownBy(() => nw.predict([1], [0, 1, NaN], [1, 2, 3]));
  assert.ok(error instanceof nw.NWError && error instanceof Error);
  assert.equal(error.message, 'keys[2] must be a finite number, got NaN');
  assert.equal(error.code, 'not-finite');
  assert.equal(error.parameter, 'keys');
  assert.equal(String(error), 'NWError: keys[2] must be a finite number, got NaN');
});

test('new nw.Trainer with an untrainable kernel throws not-trainable naming kernel, for either estimator', () => {
  for (const kernel of ['boxcar', 'constant']) {
    for (const estimator of ['nadarayaWatson', 'localLinear']) {
      const error = thrownBy(() => new nw.Trainer(x, y, { kernel, estimator }));
      assertContract(error, `${kernel}, ${estimator}`, { code: 'not-trainable', parameter: 'kernel' });
      assert.match(error.message, new RegExp(`^kernel: ${kernel} cannot be trained`));
      const selecting = thrownBy(() => nw.selectBandwidth(x, y, { kernel, estimator }));
      assertContract(selecting, `selectBandwidth ${kernel}`, { code: 'not-trainable', parameter: 'kernel' });
    }
  }
});

test('nw.isTrainable(kernel, estimator) says whether the Trainer and selectBandwidth accept them', () => {
  const answers = {};
  for (const kernel of nw.kernelNames()) {
    for (const estimator of [undefined, 'nadarayaWatson', 'localLinear']) {
      const trainable = nw.isTrainable(kernel, estimator);
      assert.equal(typeof trainable, 'boolean');
      answers[`${kernel} ${estimator}`] = trainable;
      const options = estimator === undefined ? { kernel } : { kernel, estimator };
      let trained;
      try {
        const trainer = new nw.Trainer(x, y, options);
        assert.ok(Number.isFinite(trainer.step()));
        trainer.delete();
        trained = true;
      } catch (error) {
        assertContract(error, kernel, { code: 'not-trainable', parameter: 'kernel' });
        trained = false;
      }
      assert.equal(trained, trainable, `${kernel}, ${estimator}: the Trainer agrees`);
      let selected;
      try {
        selected = Number.isFinite(nw.selectBandwidth(x, y, options).loss);
      } catch (error) {
        assertContract(error, kernel, { code: 'not-trainable', parameter: 'kernel' });
        selected = false;
      }
      assert.equal(selected, trainable, `${kernel}, ${estimator}: selectBandwidth agrees`);
    }
  }
  assert.deepEqual(Object.keys(answers).filter((key) => answers[key]).map((key) => key.split(' ')[0]),
    ['gaussian', 'gaussian', 'gaussian', 'epanechnikov', 'epanechnikov', 'epanechnikov', 'triangular', 'triangular', 'triangular']);
  assert.equal(nw.isTrainable('gaussian'), true);
  assert.equal(nw.isTrainable('boxcar'), false);
});

test('nw.isTrainable refuses what is not a kernel or an estimator, naming it', () => {
  assertContract(thrownBy(() => nw.isTrainable('Gauss')), 'Gauss', { code: 'unknown-value', parameter: 'kernel' });
  assertContract(thrownBy(() => nw.isTrainable('gaussian', 'll')), 'll', { code: 'unknown-value', parameter: 'estimator' });
  assertContract(thrownBy(() => nw.isTrainable()), 'nothing', { code: 'wrong-type', parameter: 'kernel' });
  assertContract(thrownBy(() => nw.isTrainable(['gaussian'])), 'an array', { code: 'wrong-type', parameter: 'kernel' });
  assertContract(thrownBy(() => nw.isTrainable('gaussian', 1)), 'a number', { code: 'wrong-type', parameter: 'estimator' });
  assert.equal(thrownBy(() => nw.isTrainable('g'.repeat(1e6))).message,
    `kernel must be one of gaussian, boxcar, constant, epanechnikov, triangular, got '${'g'.repeat(40)}'`);
});

test('a Trainer\'s errors after construction carry codes too: diverged, deleted, length-mismatch', () => {
  const trainer = new nw.Trainer([0, 1, 2, 3], [0, 5, -5, 0], { w0: 1, lr: 1e308 });
  assertContract(thrownBy(() => trainer.step()), 'diverged', { code: 'diverged', parameter: 'lr' });
  assertContract(thrownBy(() => trainer.stepWithRows([1], [0])), 'rows', { code: 'length-mismatch', parameter: 'lossRows' });
  trainer.delete();
  assertContract(thrownBy(() => trainer.w), 'deleted', { code: 'deleted', parameter: 'this' });
});
