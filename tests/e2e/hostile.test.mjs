// Untrusted URLs: script payloads and absurd values in every setting. The page must run no script,
// open no dialog, say what it corrected, keep working, and log no uncaught error.
import assert from 'node:assert/strict';
import { fileUrl, inEachBrowser } from './browser.mjs';

const settings = ['nTrain', 'nTest', 'noiseSd', 'seed', 'w', 'lr', 'epochs', 'trained', 'query', 'attend', 'estimator', 'scoring', 'designLr'];
const payloads = [
  '<img src=x onerror=alert(1)>',
  '"><script>alert(2)</script>',
  'javascript:alert(3)',
  "';alert(4);//",
  '<svg onload=alert(5)>',
];
const absurd = { nTrain: '1e9', nTest: '-3', noiseSd: 'Infinity', seed: '1e300', w: 'NaN', lr: '-1', epochs: '', trained: '99999999', query: '1e308', attend: 'everything', estimator: 'everything',
  scoring: 'everything', hidden: '1e9', optimizer: '', designLr: '-1', designEpochs: 'NaN', designTrained: '99999999' };

// No dialog, no script-created nodes, a visible message, charts drawn, and Step still trains.
async function assertSurvives(open, url, expectedMessage, { atEpochLimit = false } = {}) {
  const page = await open(url);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(page.dialogs, [], 'no dialog opened');
  assert.equal(await page.locator('img[src="x"], svg[onload], body script:not([src])').count(), 0, 'no injected element');
  assert.equal(await page.evaluate(() => document.querySelectorAll('[onerror], [onload]').length), 0);
  const message = page.alert();
  assert.ok(await message.isVisible(), 'a message says what was corrected');
  assert.match(await message.text(), expectedMessage);
  const statusBefore = await page.locator('#status').text();
  await page.button('Step').click();
  if (atEpochLimit) {
    await page.waitForText(/Training stops at \d+ epochs/);
    assert.equal(await page.locator('#status').text(), statusBefore);
  } else {
    await page.waitForFunction((before) => document.querySelector('#status').textContent !== before, statusBefore);
  }
  assert.match(await page.locator('#status').text(), /^Epoch \d+ · loss \d/);
  assert.deepEqual(page.problems, [], 'no console error, failed request or uncaught exception');
  return page;
}

inEachBrowser('hostile URLs and input', (env) => {
  const { test, open } = env;

  for (const name of settings) {
    test(`script payloads in "${name}" are shown as text at most and never run`, async () => {
      for (const payload of payloads) {
        const page = await assertSurvives(open, `${env.server.url}#${name}=${encodeURIComponent(payload)}`, /must be/);
        await page.close();
      }
    });
  }

  test('script payloads as setting names and in the query string never run', async () => {
    const payload = encodeURIComponent('<img src=x onerror=alert(1)>');
    const page = await assertSurvives(open, `${env.server.url}?embed=${payload}#${payload}=1&w=NaN`, /Unknown setting "<img src=x onerror=alert\(1\)>" ignored/);
    assert.equal(await page.locator('header').isVisible(), true, 'a bad embed value is not embed mode');
    await page.close();
  });

  for (const [mode, base] of [['http', () => env.server.url], ['file', () => fileUrl]]) {
    test(`absurd values are clamped or replaced, said in a message, and the fixed URL survives a reload (${mode})`, async () => {
      const hash = Object.entries(absurd).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
      const page = await assertSurvives(open, `${base()}#${hash}`, /Training samples must be from 5 to 2000; using 2000/, { atEpochLimit: true });
      const text = await page.alert().text();
      for (const expected of [/Test points must be from 5 to 2000; using 5/, /Noise must be a number/, /Distance scale w must be a number/,
        /Learning rate must be from 0.001 to 10; using 0.001/, /Epochs must be a number/, /Query x must be from -1000000 to 1000000; using 1000000/,
        /Show attention of must be one of auto, nonparametric, parametric/, /Estimator must be one of nadarayaWatson, localLinear/, /Trained epochs: replaying at most 50 for 2000 training samples/,
        /Training stops at 50 epochs for 2000 training samples/, /Scoring function must be one of additive, dotProduct, gaussian/,
        /Hidden units h must be from 1 to 64; using 64/, /Optimizer must be one of adam, sgd/, /Design learning rate must be from 0.0001 to 10; using 0.0001/,
        /Design epochs per Train must be a number/, /Design epochs trained must be from 0 to 5000; using 5000/]) {
        assert.match(text, expected);
      }
      assert.equal(await page.label('Training samples').value(), '2000');
      assert.doesNotMatch(await page.locator('#mse').text(), /NaN|Infinity/, 'no NaN on screen');
      await page.screenshot(`absurd-${mode}`);
      const fixedUrl = await page.url();
      assert.match(fixedUrl, /nTrain=2000/);
      await page.reload();
      assert.equal(await page.alert().isVisible(), false, 'the rewritten URL is valid');
      assert.equal(await page.label('Training samples').value(), '2000');
      await page.close();
    });
  }

  test('typed values out of range are clamped with a message and keep the state', async () => {
    const page = await open(env.server.url);
    const control = page.label('Learning rate');
    await control.set('-4');
    assert.match(await page.alert().text(), /Learning rate must be from 0.001 to 10; using 0.001/);
    assert.equal(await control.value(), '0.001');
    await page.label('Seed').set('');
    assert.match(await page.alert().text(), /Seed must be a number/);
    assert.equal(await page.label('Seed').value(), '1', 'the last valid seed is shown again');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('an error while training keeps the last good w, the charts and the URL', async () => {
    const page = await open(env.server.url);
    // Fault injection: the third epoch fails as a diverging step would.
    await page.evaluate(() => {
      const { session } = nwPage.debug;
      const step = session.step;
      let calls = 0;
      session.step = function failingThirdStep() {
        calls += 1;
        if (calls === 3) throw new Error('lr: training diverged at epoch 3 (injected); w is kept, try a smaller lr');
        return step.call(this);
      };
    });
    await page.button('Train').click();
    await page.alert().waitFor();
    assert.match(await page.alert().text(), /training diverged at epoch 3/);
    assert.match(await page.locator('#status').text(), /^Epoch 2 · loss/);
    assert.equal(await page.locator('#epochTable tbody tr').count(), 2);
    assert.equal(await page.button('Train').isDisabled(), false, 'the player stopped');
    assert.match(await page.url(), /trained=2/);
    assert.doesNotMatch(await page.locator('body').text(), /NaN/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the page declares a Content-Security-Policy that allows only its own scripts', async () => {
    const page = await open(env.server.url);
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').attribute('content');
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.doesNotMatch(policy, /unsafe-inline|'unsafe-eval'|\*/);
    // An inline script added now must be refused by the policy.
    const ran = await page.evaluate(async () => {
      window.inlineRan = false;
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return window.inlineRan;
    });
    assert.equal(ran, false);
    await page.close();
  });
});
