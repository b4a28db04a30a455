/**
 * Vitest global setup of the `browser` project: one app server and one Chromium for every browser spec
 * file of the run, instead of one of each per file.
 * - The app is built once (test/support/run-once.ts) and served by one `vite preview`, whose TAU_BENCH_DATA
 *   and TAU2_DATA are two symbolic links a spec points at its data while it holds the server
 *   (`startApp(dataDir, tau2DataDir)` in harness.ts; the project runs its files one at a time).
 * - Chromium is launched once as a Playwright browser server with the specs' switches; `launchChromium()`
 *   connects to it (each spec makes its own contexts; `close()` disconnects and closes them).
 * Both are named to the spec files' threads through environment variables set here, before they start.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasChromium, launchSharedChromium, SHARED_APP_VARIABLE, SHARED_BROWSER_VARIABLE, startOwnApp, type SharedApp } from './harness';
import cacheSetup from '../support/global-setup';

export default async function setup(): Promise<() => Promise<void>> {
  const dropCache = cacheSetup();
  // No Chromium: the specs skip, or fail saying so under REQUIRE_BROWSER=1 (harness.ts); nothing to share.
  if (!hasChromium) return async () => dropCache?.();
  const links = mkdtempSync(join(tmpdir(), 'tau-inspect-data-links-'));
  const nowhere = join(links, 'nowhere');
  const v1Link = join(links, 'tau-bench-data');
  const tau2Link = join(links, 'tau2-data');
  symlinkSync(nowhere, v1Link);
  symlinkSync(nowhere, tau2Link);
  const [app, browser] = await Promise.allSettled([startOwnApp(v1Link, tau2Link), launchSharedChromium()]);
  const teardown = async (): Promise<void> => {
    delete process.env[SHARED_APP_VARIABLE];
    delete process.env[SHARED_BROWSER_VARIABLE];
    await Promise.allSettled([app.status === 'fulfilled' ? app.value.close() : null, browser.status === 'fulfilled' ? browser.value.close() : null]);
    rmSync(links, { recursive: true, force: true });
    dropCache?.();
  };
  if (app.status === 'rejected' || browser.status === 'rejected') {
    await teardown();
    throw app.status === 'rejected' ? app.reason : (browser as PromiseRejectedResult).reason;
  }
  const shared: SharedApp = { url: app.value.url, outDir: app.value.outDir, v1Link, tau2Link, nowhere, holder: join(links, 'held') };
  process.env[SHARED_APP_VARIABLE] = JSON.stringify(shared);
  process.env[SHARED_BROWSER_VARIABLE] = browser.value.wsEndpoint;
  return teardown;
}
