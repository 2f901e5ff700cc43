// Takes the README's screenshot (not a test): node tests/browser/screenshot.mjs
// Opens the three-sites example, plans it with the memetic algorithm, and
// saves the plan views to web/screenshot.png.
import { join } from 'node:path';
import { WEB_ROOT, ensureExamples, launchBrowser, openExample, openPage, startWebServer, waitReady, waitStatus } from './helpers.mjs';

await ensureExamples();
const server = await startWebServer();
const browser = await launchBrowser();
try {
  const { page } = await openPage(browser, { contextOptions: { viewport: { width: 1280, height: 1500 } } });
  await page.goto(server.url);
  await waitReady(page);
  await openExample(page, 'three-sites');
  await page.selectOption('#method', 'memetic');
  await page.click('#plan-button');
  await waitStatus(page, 'Done', 60000);
  await page.waitForSelector('#view-comparison table, #view-comparison svg', { timeout: 30000 });
  await page.evaluate(() => document.getElementById('results-area').scrollIntoView());
  await page.waitForTimeout(1000);  // let the scrolled layers paint
  await page.screenshot({ path: join(WEB_ROOT, 'screenshot.png') });
  console.log('wrote web/screenshot.png');
} finally {
  await browser.close();
  await server.close();
}
