// The guided tour in a real (headless) Chromium: a step loads its example, plans it and points at
// the view that shows the finding; closing the tour offers the user's own problem back.
// Run: node --test tests/browser/demo.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  problemIn, screenshot, setField, useBrowser,
} from './helpers.mjs';

const { freshPage } = useBrowser({ requireStudies: true });

const waitStep = (page, step, timeout = 60000) => page.waitForFunction((k) => {
  const tour = document.getElementById('tour');
  return tour.dataset.step === String(k) && tour.dataset.stepState !== 'loading';
}, step, { timeout });

// True when the element's box lies inside the viewport (after the tour's scroll has settled).
const inViewport = (page, selector) => page.waitForFunction((s) => {
  const box = document.querySelector(s)?.getBoundingClientRect();
  return box && box.height > 0 && box.top >= -1 && box.top < innerHeight && box.bottom > 0;
}, selector, { timeout: 5000 }).then(() => true, () => false);

test('step 3 loads the straggler pool, plans it and points at the greyed T4; closing gives the problem back', async () => {
  const { context, page, errors } = await freshPage();
  await setField(page, 'about', 'name', 'my own pool');
  const mine = await problemIn(page);

  await page.getByRole('button', { name: 'Guided tour' }).click();
  const tour = page.getByRole('dialog', { name: 'The pipeline bubble' });
  await tour.waitFor();
  assert.equal(await page.textContent('#tour-count'), 'Step 1 of 5');
  assert.equal(await page.isDisabled('#tour-back'), true);
  // Straight on to step 3 without waiting for the earlier steps: the tour must end up on step 3 only.
  await page.click('#tour-next');
  await page.click('#tour-next');
  await waitStep(page, 3);
  assert.equal(await page.getAttribute('#tour', 'data-step-state'), 'ready', await page.textContent('#tour-status'));
  assert.equal(await page.textContent('#tour-count'), 'Step 3 of 5');
  assert.equal(await page.textContent('#tour-title'), 'Leaving out a slow GPU');
  assert.match(await page.textContent('#tour-text'), /T4/);

  // Its problem is loaded and planned: the straggler example's story, three A100s split 5/4/3.
  assert.equal((await problemIn(page)).name, 'straggler-4gpu');
  assert.equal(await page.textContent('#result-method'), 'exact (proven optimal)');
  assert.equal(await page.textContent('#result-stages'), 'a100-0 (5) → a100-1 (4) → a100-2 (3)');
  assert.ok(Math.abs(Number(await page.getAttribute('#result-iteration-ms', 'data-value')) - 211) < 1, 'about 211 ms');

  // The topology is highlighted, captioned, in view, and the T4 marked as unused.
  assert.equal(await page.locator('.tour-highlight').count(), 1);
  assert.ok(await page.locator('section.view-topology').evaluate((n) => n.classList.contains('tour-highlight')));
  assert.match(await page.textContent('.view-topology .tour-caption'), /^Greyed: t4, not in the pipeline/);
  assert.ok(await page.locator('#view-topology .gt-topo-node[data-gpu="t4"]').evaluate((n) => n.classList.contains('is-unused') && n.classList.contains('tour-spot')));
  assert.ok(await inViewport(page, '.view-topology .tour-caption'), 'the pointed view is scrolled into view');
  await screenshot(page, 'demo-step-3');

  // Back to step 2 moves the highlight to the uniform plan's straggler stage.
  await page.click('#tour-back');
  await waitStep(page, 2);
  assert.match(await page.textContent('#result-method'), /^uniform( \(proven: its objective is (proven optimal|(at most [\d.,]+(× the optimum| % above the optimum)|less than 0\.01 % above the optimum); the optimum is at least [\d.,e+-]+)\))?$/);
  assert.match(await page.textContent('.view-stages .tour-caption'), /^Stage 4 \(t4, 3 layers\) needs/);
  assert.equal(await page.locator('.view-topology.tour-highlight').count(), 0, 'the old highlight is gone');

  // Closing: the marks go, the user's problem is offered back and comes back.
  await page.click('#tour-close');
  assert.equal(await page.isHidden('#tour'), true);
  assert.equal(await page.locator('.tour-highlight, .tour-caption, .tour-spot').count(), 0);
  await page.locator('.notice', { hasText: 'my own pool' }).getByRole('button', { name: 'Bring back my problem' }).click();
  assert.deepEqual(await problemIn(page), mine);
  assert.deepEqual(errors, []);
  await context.close();
});

test('step 5 runs the trade-off study on the Table 7 pool and points at the knee', async () => {
  const { context, page, errors } = await freshPage();
  await page.click('#tour-button');
  for (let step = 1; step < 5; step++) {
    await waitStep(page, step);
    await page.click('#tour-next');
  }
  await waitStep(page, 5);
  assert.equal(await page.getAttribute('#tour', 'data-step-state'), 'ready', await page.textContent('#tour-status'));
  assert.equal((await problemIn(page)).name, 'table7-14gpu');
  assert.equal(await page.locator('#study-output .st-tradeoff-table tbody tr').count(), 5);
  const knee = page.locator('#study-output .st-knee-mark');
  assert.ok(await knee.evaluate((n) => n.classList.contains('tour-spot')));
  assert.match(await page.textContent('#study-output .tour-caption'), /^The knee \(★\): λ = /);
  assert.ok(await inViewport(page, '#study-output .st-knee-mark'), 'the knee is in view');
  // The plan views show the knee's plan.
  const kneeT = Number(await knee.getAttribute('data-t'));
  assert.equal(Number(await page.getAttribute('#result-iteration-ms', 'data-value')), kneeT);
  assert.match(await page.textContent('#result-origin'), /the knee \(λ = /);
  await screenshot(page, 'demo-step-5');
  assert.equal(await page.textContent('#tour-next'), 'Finish');
  await page.click('#tour-next');
  assert.equal(await page.isHidden('#tour'), true);
  // The toolbar's Undo also brings back the problem the tour started from.
  await page.getByRole('button', { name: 'Undo last load' }).click();
  // The worker checks the restored problem before it replaces the example: wait for it.
  await page.waitForFunction(() => JSON.parse(document.querySelector('#problem-json').value).name === 'my GPU pool');
  assert.equal((await problemIn(page)).name, 'my GPU pool');
  assert.deepEqual(errors, []);
  await context.close();
});
