/**
 * What-if on τ² simulations in the app (issue #18 item 4): real runs of ../shared/tau2 opened by a
 * same-origin `#run=` link with ../shared/tau2/data served; edits made on the dialogue's call and
 * message rows turn a failed check into a met one and the reward on screen changes; a reset goes back;
 * a shared link carries the edits into a fresh browser, and damaged ones are refused in a sentence.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTau2, TAU2_DIR } from '../support/shared';
import { offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';
import { encodePayload } from '../../src/formats/share-codec';
import { decodeSharedEpisode, SHARE_MAGIC, splitSharedText } from '../../src/worker/shared-episode';

const AIRLINE = 'sierra-research__gym-gpt-4.1-airline.json';
const SFT = 'sierra-research__gym-ft-gpt-4.1-sft-airline.json';
const TELECOM = 'sierra-research__gym-gpt-4.1-telecom.json';
const IRONFORGE = 'sierra-research__pr171-ironforge-v2-gpt54-airline.json';

const suite = skipBrowser ? describe.skip : describeTau2;

suite('τ² what-if in headless Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(null, join(TAU2_DIR, 'data')));
    mkdirSync(join(server.outDir, 'tau2-runs'), { recursive: true });
    for (const f of [AIRLINE, SFT, TELECOM, IRONFORGE]) copyFileSync(join(TAU2_DIR, 'runs', f), join(server.outDir, 'tau2-runs', f));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openSim(file: string, episode: number) {
    const o = await offlinePage(browser);
    await o.page.setViewportSize({ width: 1440, height: 900 });
    await o.page.goto(`${server.url}#run=tau2-runs/${file}&episode=${episode}`);
    await o.page.waitForSelector(`[data-testid="tau2-sim"][data-index="${episode}"]`, { timeout: 120_000 });
    return o;
  }

  // The DB check is under the DB diff tab, every other check and the verdict under "How τ² judged".
  const status = async (page: Page, section: string) => {
    await page.getByTestId(section === 'tau2-db' ? 'tab-diff' : 'tab-judged').click();
    return page.locator(`[data-testid="${section}"] h3 span span`).first().textContent();
  };
  const reward = async (page: Page) => {
    await page.getByTestId('tab-judged').click();
    return page.getByTestId('tau2-reward').textContent();
  };

  it('dropping the extra cancellation of a failed airline simulation: the DB check is met and the reward goes 0.0 → 1.0; reset goes back', async () => {
    const { context, page } = await openSim(AIRLINE, 9);
    try {
      expect(await reward(page)).toBe('0.0');
      expect(await status(page, 'tau2-db')).toBe('not met');
      const call = page.locator('[data-testid="tau2-call"]', { hasText: 'cancel_reservation' });
      expect(await call.count()).toBe(1);
      await call.getByTestId('tau2-drop-call').click();
      await page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('tau2-what-if-reward').textContent()).toBe('1.0');
      const summary = await page.getByTestId('tau2-what-if-banner').textContent();
      expect(summary).toContain('what-if: 1 edit');
      expect(summary).toContain('reward 0.0 → 1.0');
      expect(summary).toContain('DB now matches');
      expect(await page.getByTestId('tau2-what-if-edit').textContent()).toMatch(/^drop call 3 \(cancel_reservation, message #13\)/);
      // The panels show the edited simulation: the verdict, the DB check, and no cancellation in the dialogue.
      expect(await reward(page)).toBe('1.0');
      expect(await status(page, 'tau2-db')).toBe('met');
      expect(await page.locator('[data-testid="tau2-call"]', { hasText: 'cancel_reservation' }).count()).toBe(0);
      await page.getByTestId('tau2-what-if-reset').click();
      await expect.poll(() => reward(page)).toBe('0.0');
      expect(await page.getByTestId('tau2-what-if-banner').count()).toBe(0);
      expect(await page.locator('[data-testid="tau2-call"]', { hasText: 'cancel_reservation' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a missing reference action inserted in one click: the DB check is met, 0.0 → 1.0', async () => {
    const { context, page } = await openSim(IRONFORGE, 3);
    try {
      expect(await reward(page)).toBe('0.0');
      await page
        .getByTestId('tau2-insert-missing')
        .getByRole('button', { name: /update_reservation_baggages/ })
        .click();
      await page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('tau2-what-if-reward').textContent()).toBe('1.0');
      expect(await page.getByTestId('tau2-what-if-summary').textContent()).toContain('DB now matches');
      expect(await page.getByTestId('tau2-what-if-edit').textContent()).toMatch(/^insert update_reservation_baggages at the end/);
      expect(await status(page, 'tau2-db')).toBe('met');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('arguments that are not JSON are refused with a sentence; the recorded verdict stays', async () => {
    const { context, page } = await openSim(AIRLINE, 9);
    try {
      const call = page.locator('[data-testid="tau2-call"]', { hasText: 'cancel_reservation' });
      await call.getByTestId('tau2-edit-args').click();
      await call.locator('textarea').fill('{"reservation_id": ');
      await call.getByTestId('tau2-what-if-apply').click();
      await page.getByTestId('tau2-what-if-error').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('tau2-what-if-error').textContent()).toBe(
        'the arguments of the cancel_reservation call of message #13 are not valid JSON: Expecting value: line 1 column 20 (char 19)',
      );
      expect(await reward(page)).toBe('0.0');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('telecom: a call on the user’s device inserted before the last message meets the env assertions, marked as inserted', async () => {
    const { context, page } = await openSim(TELECOM, 3);
    try {
      expect(await status(page, 'tau2-env')).toBe('not met');
      const last = page.locator('[data-testid="tau2-message"][data-role="user"]').last();
      await last.getByTestId('tau2-insert-call').first().click();
      // The choice names who makes each call; a device tool picked fills its parameters.
      expect(await last.locator('option', { hasText: 'toggle_roaming (user’s device, writes)' }).count()).toBe(1);
      await last.getByTestId('tau2-insert-tool').selectOption('toggle_roaming');
      await last.getByTestId('tau2-what-if-apply').click();
      await page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('tau2-what-if-summary').textContent()).toMatch(/reward 0\.0 → 1\.0; DB still differs \(not in the reward basis\)/);
      expect(await page.getByTestId('tau2-what-if-changes').textContent()).toContain('env assertion assert_mobile_data_status: not met → met');
      expect(await status(page, 'tau2-env')).toBe('met');
      const inserted = page.locator('[data-testid="tau2-call"]', { hasText: 'inserted (what-if)' });
      expect(await inserted.count()).toBe(1);
      expect(await inserted.getAttribute('data-requestor')).toBe('user');
      expect(await inserted.textContent()).toContain('Data Roaming is now ON.');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('an assistant message edited to say the amount: the communicate check is met, 0.0 → 1.0, NL assertions kept as recorded', async () => {
    const { context, page } = await openSim(SFT, 19);
    try {
      expect(await reward(page)).toBe('0.0');
      expect(await page.getByTestId('tau2-communicate-info').getAttribute('data-met')).toBe('false');
      const message = page.locator('[data-testid="tau2-message"][data-index="58"]');
      await message.getByTestId('tau2-edit-text').click();
      const area = message.locator('textarea');
      await area.fill(`${await area.inputValue()} In total you save $23,553.`);
      await message.getByTestId('tau2-what-if-apply').click();
      await page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('tau2-what-if-reward').textContent()).toBe('1.0');
      const banner = await page.getByTestId('tau2-what-if-banner').textContent();
      expect(banner).toContain('NL assertions kept as recorded (judged by an LLM when the run was made)');
      expect(await page.getByTestId('tau2-what-if-changes').textContent()).toContain('communicate 23553: not met → met');
      expect(await page.getByTestId('tau2-communicate-info').getAttribute('data-met')).toBe('true');
      expect(await page.locator('[data-testid="tau2-dialogue"] mark[aria-label="communicated info"]').allTextContents()).toContain('23,553');
      expect(await reward(page)).toBe('1.0');
      // Another simulation drops the what-if.
      // (simulation 19 is the last row in task order: the previous one)
      await page.getByRole('button', { name: 'Previous simulation (p)' }).click();
      await page.waitForSelector('[data-testid="tau2-sim"]:not([data-index="19"])', { timeout: 60_000 });
      expect(await page.getByTestId('tau2-what-if-banner').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a shared link carries the what-if: a fresh browser reopens the simulation with the edit applied and its banner; damaged edits are refused in a sentence', async () => {
    const first = await openSim(AIRLINE, 9);
    let link: string;
    try {
      await first.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
      const call = first.page.locator('[data-testid="tau2-call"]', { hasText: 'cancel_reservation' });
      await call.getByTestId('tau2-drop-call').click();
      await first.page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      await first.page.getByRole('button', { name: /^Share/ }).click();
      await first.page.waitForSelector('[data-testid="share-status"]', { timeout: 10_000 });
      link = await first.page.evaluate(() => navigator.clipboard.readText());
      expect(link).toMatch(/#ep=[A-Za-z0-9_-]+&episode=0&step=0$/);
    } finally {
      await first.context.close();
    }

    // A fresh browser: the simulation from the link, judged here again with the edit.
    const second = await offlinePage(browser);
    try {
      await second.page.goto(link);
      await second.page.waitForSelector('[data-testid="tau2-sim"][data-index="0"]', { timeout: 120_000 });
      await second.page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      expect(await second.page.getByTestId('tau2-what-if-reward').textContent()).toBe('1.0');
      const banner = await second.page.getByTestId('tau2-what-if-banner').textContent();
      expect(banner).toContain('what-if: 1 edit');
      expect(banner).toContain('reward 0.0 → 1.0');
      expect(await second.page.getByTestId('tau2-what-if-edit').textContent()).toMatch(/^drop call 3 \(cancel_reservation, message #13\)/);
      expect(await second.page.locator('[data-testid="tau2-call"]', { hasText: 'cancel_reservation' }).count()).toBe(0);
      expect(await reward(second.page)).toBe('1.0');
      expect(await second.page.getByTestId('shared-from').textContent()).not.toContain('damaged');
      // Reset goes back to the simulation as recorded.
      await second.page.getByTestId('tau2-what-if-reset').click();
      await expect.poll(() => reward(second.page)).toBe('0.0');
    } finally {
      await second.context.close();
    }

    // The same link with its edit made into nonsense (a call index that is text): the simulation and
    // the rest of the link open, the edits are refused in a sentence, and no what-if is shown.
    const text = decodeSharedEpisode(new URL(link).hash.match(/ep=([^&]+)/)![1]!);
    const { context, episode } = splitSharedText(text);
    const bad = JSON.parse(context!) as { edits: { callIndex?: unknown }[] };
    expect(bad.edits).toHaveLength(1);
    bad.edits[0]!.callIndex = 'the third';
    const damagedLink = link.replace(/ep=[^&]+/, `ep=${encodePayload(`${SHARE_MAGIC}${JSON.stringify(bad)}\n${episode}`)}`);
    const third = await offlinePage(browser);
    try {
      await third.page.goto(damagedLink);
      await third.page.waitForSelector('[data-testid="tau2-sim"][data-index="0"]', { timeout: 120_000 });
      await expect
        .poll(() => third.page.getByTestId('shared-from').textContent(), { timeout: 30_000 })
        .toContain('Part of the link could not be used: its what-if edits were left out: edit 1 has callIndex set to a string, not a whole number ≥ 0.');
      expect(await third.page.getByTestId('shared-index').textContent()).toBe('#9');
      expect(await reward(third.page)).toBe('0.0');
      expect(await third.page.getByTestId('tau2-what-if-banner').count()).toBe(0);
      expect(await third.page.locator('[data-testid="tau2-call"]', { hasText: 'cancel_reservation' }).count()).toBe(1);
    } finally {
      await third.context.close();
    }
  }, 300_000);

  it('the page’s link names the selected message and the what-if, and the title shows the what-if’s reward: the link reopens both', async () => {
    const first = await openSim(AIRLINE, 9);
    let link: string;
    let message: string | null;
    try {
      const sim = first.page.getByTestId('tau2-sim');
      const before = await sim.getAttribute('data-message');
      for (let k = 0; k < 3; k++) await first.page.getByRole('button', { name: 'Next step (j)' }).click();
      await expect.poll(() => sim.getAttribute('data-message')).not.toBe(before);
      message = await sim.getAttribute('data-message');
      await expect.poll(() => first.page.evaluate(() => location.hash)).toContain(`&step=${message}`);
      const call = first.page.locator('[data-testid="tau2-call"]', { hasText: 'cancel_reservation' });
      await call.getByTestId('tau2-drop-call').click();
      await first.page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      expect(await first.page.getByTestId('title-what-if').textContent()).toBe(' · what-if 1.0');
      await expect.poll(() => first.page.evaluate(() => location.hash)).toMatch(/&whatif=[A-Za-z0-9_-]+$/);
      link = first.page.url();
      expect(link).toContain(`tau2-runs/${AIRLINE}&episode=9&step=${message}&whatif=`);
    } finally {
      await first.context.close();
    }

    const second = await offlinePage(browser);
    try {
      await second.page.setViewportSize({ width: 1440, height: 900 });
      await second.page.goto(link);
      const sim = second.page.locator('[data-testid="tau2-sim"][data-index="9"]');
      await sim.waitFor({ timeout: 120_000 });
      await second.page.getByTestId('tau2-what-if-reward').waitFor({ timeout: 60_000 });
      expect(await second.page.getByTestId('tau2-what-if-reward').textContent()).toBe('1.0');
      expect(await second.page.getByTestId('title-what-if').textContent()).toBe(' · what-if 1.0');
      expect(await second.page.getByTestId('tau2-what-if-edit').textContent()).toMatch(/^drop call 3 \(cancel_reservation, message #13\)/);
      expect(await second.page.getByTestId('tau2-sim').getAttribute('data-message')).toBe(message);
      // Reset: no what-if in the title or the link.
      await second.page.getByTestId('tau2-what-if-reset').click();
      await expect.poll(() => second.page.getByTestId('title-what-if').count()).toBe(0);
      await expect.poll(() => second.page.evaluate(() => location.hash)).not.toContain('whatif=');
    } finally {
      await second.context.close();
    }
  }, 300_000);
});
