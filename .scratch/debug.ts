import { NO_BROWSER_SERVICES, offlinePage, startAppAndBrowser, COMPLETE } from '../test/browser/harness';
const { server, browser } = await startAppAndBrowser(null, NO_BROWSER_SERVICES);
try {
  const { page } = await offlinePage(browser, { width: 390, height: 844 });
  page.on('console', (m) => console.log('console', m.type(), m.text()));
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.goto(server.url);
  await page.waitForSelector(COMPLETE, { timeout: 60_000 });
  await page.screenshot({ path: '/tmp/dbg0.png' });
  console.log('sw', await page.evaluate(() => document.documentElement.scrollWidth));
  await page.locator('[data-testid="episode-row"][data-index="1"]').click();
  await page.waitForTimeout(3000);
  console.log('hash', await page.evaluate(() => location.hash));
  console.log(await page.evaluate(() => document.querySelector('main')?.innerHTML.length));
  await page.screenshot({ path: '/tmp/dbg.png' });
} finally {
  await browser.close();
  await server.close();
}
