import { join } from 'node:path';
import { DATA_DIR, SHARED_DIR } from '../test/support/shared';
import { COMPLETE, launchChromium, startApp } from '../test/browser/harness';
const [server, browser] = await Promise.all([startApp(DATA_DIR), launchChromium()]);
try {
  const context = await browser.newContext();
  const linked = `${server.url}#data=${encodeURIComponent(server.url + 'tau-bench-data')}`;
  const file = join(SHARED_DIR, 'runs', process.argv[2] ?? 'gpt-4o-airline.json');
  for (let r = 0; r < 3; r++) {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.text().startsWith('[t]')) console.log(r, m.text()); });
    page.on('worker', (w) => console.log('worker', w.url()));
    await page.goto(linked);
    await page.waitForSelector(COMPLETE);
    await page.waitForTimeout(300);
    await page.setInputFiles('[data-testid="open-file-input"]', file);
    await page.waitForSelector('[data-testid="episode-table"][data-evaluated="200"]', { timeout: 120000 });
    await page.waitForTimeout(1500);
    await page.close();
  }
} finally { await browser.close(); await server.close(); }
