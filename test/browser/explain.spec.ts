import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, hasShared, SHARED_DIR } from '../support/shared';
import { offlinePage, skipBrowser, startAppAndBrowser, type AppServer } from './harness';

/**
 * Findings, walkthrough, alignment and the whole what-if in the app. A results file made here
 * (retail, on τ-bench's 14bf0ef data served from ../shared) holds one episode per finding kind;
 * the what-if runs on the synthetic runs of ../shared.
 */
type Msg = Record<string, unknown>;
const user = (content: string): Msg => ({ role: 'user', content });
const say = (content: string): Msg => ({ role: 'assistant', content });
const call = (name: string, args: Record<string, unknown>, opts: { content?: string; more?: [string, Record<string, unknown>][] } = {}): Msg => ({
  role: 'assistant',
  content: opts.content ?? null,
  tool_calls: [[name, args] as const, ...(opts.more ?? [])].map(([n, a], i) => ({
    id: `c${i}`,
    type: 'function',
    function: { name: n, arguments: JSON.stringify(a) },
  })),
});
const tool = (content: string): Msg => ({ role: 'tool', content });

const YUSUF = 'yusuf_rossi_9620';
const AUTH: Msg[] = [
  user('Hi.'),
  say('Your name and zip?'),
  user('Yusuf Rossi, 19122'),
  call('find_user_id_by_name_zip', { first_name: 'Yusuf', last_name: 'Rossi', zip: '19122' }),
  tool(YUSUF),
];
const FIND = { name: 'find_user_id_by_name_zip', kwargs: { first_name: 'Yusuf', last_name: 'Rossi', zip: '19122' } };
const CANCEL = { order_id: '#W6247578', reason: 'no longer needed' };
const GOLD_CANCEL = [FIND, { name: 'cancel_pending_order', kwargs: CANCEL }];
const RETURN = { order_id: '#W6679257', item_ids: ['5996159312'], payment_method_id: 'credit_card_9513926' };
const ASK: Msg[] = [say('To confirm: cancel it? (yes/no)'), user('Yes, please.')];
const BYE: Msg[] = [say('Done. Anything else?'), user('No. ###STOP###')];

const EPISODES: { traj: Msg[]; actions: unknown[]; outputs?: string[] }[] = [
  /* 0 write-without-consent */ { traj: [...AUTH, call('cancel_pending_order', CANCEL), tool('{}'), ...BYE], actions: GOLD_CANCEL },
  /* 1 failed-write */ {
    traj: [
      ...AUTH,
      ...ASK,
      call('cancel_pending_order', { ...CANCEL, order_id: '#W6679257' }),
      tool('Error'),
      call('cancel_pending_order', CANCEL),
      tool('{}'),
      ...BYE,
    ],
    actions: GOLD_CANCEL,
  },
  /* 2 write-before-auth */ { traj: [user('Cancel #W6247578.'), ...ASK, call('cancel_pending_order', CANCEL), tool('{}'), ...BYE], actions: GOLD_CANCEL },
  /* 3 write-for-other-user */ {
    traj: [...AUTH, ...ASK, call('cancel_pending_order', { ...CANCEL, order_id: '#W5918442' }), tool('{}'), ...BYE],
    actions: GOLD_CANCEL,
  },
  /* 4 claim-not-backed, return-only-records-request */ {
    traj: [...AUTH, ...ASK, call('return_delivered_order_items', RETURN), tool('{}'), say('Your refund has been processed.'), user('Thanks ###STOP###')],
    actions: [FIND, { name: 'return_delivered_order_items', kwargs: RETURN }],
  },
  /* 5 transfer-to-human */ { traj: [...AUTH, call('transfer_to_human_agents', { summary: 'cancel' }), tool('Transfer successful')], actions: GOLD_CANCEL },
  /* 6 output-inside-longer-token */ { traj: [...AUTH, say('Model X100 comes in 11 options.'), user('ok ###STOP###')], actions: [FIND], outputs: ['10'] },
  /* 7 output-unmatchable-comma */ { traj: [...AUTH, say('It costs 1,000 dollars.'), user('ok ###STOP###')], actions: [FIND], outputs: ['1,000'] },
  /* 8 output-outside-respond */ {
    traj: [
      ...AUTH,
      call('get_order_details', { order_id: '#W6247578' }, { content: 'The total is 53.27.' }),
      tool('{}'),
      say('Anything else?'),
      user('no ###STOP###'),
    ],
    actions: [FIND],
    outputs: ['53.27'],
  },
  /* 9 tool-calls-dropped */ {
    traj: [...AUTH, ...ASK, call('cancel_pending_order', CANCEL, { more: [['get_order_details', { order_id: '#W6247578' }]] }), tool('{}'), ...BYE],
    actions: GOLD_CANCEL,
  },
  /* 10 step-limit-after-match */ {
    traj: [...AUTH, ...ASK, call('cancel_pending_order', CANCEL), tool('{}'), say('Done.'), user('Thanks!')],
    actions: GOLD_CANCEL,
  },
  /* 11 rules-disagree, a failed DB episode */ {
    traj: [
      ...AUTH,
      ...ASK,
      call('cancel_pending_order', { ...CANCEL, reason: 'ordered by mistake' }),
      tool('{}'),
      say('Cancelled; 53.27 goes back to your card.'),
      user('ok ###STOP###'),
    ],
    actions: GOLD_CANCEL,
    outputs: ['53.27'],
  },
  /* 12 an output episode */ {
    traj: [...AUTH, say('Your total is $1,053.27 minus $1,000: 53.27.'), user('ok ###STOP###')],
    actions: [FIND],
    outputs: ['53.27'],
  },
];

const FILE = JSON.stringify(
  EPISODES.map((e, i) => ({
    task_id: i,
    reward: 0.0,
    info: { task: { user_id: YUSUF, actions: e.actions, instruction: 'made up for this test', outputs: e.outputs ?? [] } },
    traj: [{ role: 'system', content: '# Retail agent policy' }, ...e.traj],
    trial: 0,
  })),
);

const KIND_EPISODE: Readonly<Record<string, number>> = {
  'write-without-consent': 0,
  'failed-write': 1,
  'write-before-auth': 2,
  'write-for-other-user': 3,
  'claim-not-backed': 4,
  'return-only-records-request': 4,
  'transfer-to-human': 5,
  'output-inside-longer-token': 6,
  'output-unmatchable-comma': 7,
  'output-outside-respond': 8,
  'tool-calls-dropped': 9,
  'step-limit-after-match': 10,
  'rules-disagree': 11,
};

const SCREEN = '[data-testid="episode-screen"]';

async function openFile(page: Page, name: string, content: string | null): Promise<void> {
  await page.waitForSelector('[data-testid="episode-row"]', { timeout: 60_000 });
  const path = join(SHARED_DIR, 'runs', name);
  const text = content ?? readFileSync(path, 'utf8');
  const total = (JSON.parse(text) as unknown[]).length;
  // A shared run by its path: Playwright hands a Buffer to the page through the protocol, seconds of CPU for 5 MB.
  await page.setInputFiles('[data-testid="open-file-input"]', content === null ? path : { name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForSelector(`[data-testid="episode-table"][data-total="${total}"]`, { timeout: 60_000 });
}

/** Opens episode `index` through the link (the list is virtualised) and waits for its verdict. */
async function goEpisode(page: Page, index: number): Promise<void> {
  await page.evaluate((i) => {
    const p = new URLSearchParams(location.hash.replace(/^#/, ''));
    p.set('episode', String(i));
    p.set('step', '0');
    p.delete('whatif');
    location.hash = p.toString();
  }, index);
  await page.waitForSelector(`${SCREEN}[data-episode="${index}"] [data-testid="verdict-reward"]`, { timeout: 60_000 });
}

describe.skipIf(skipBrowser || !hasShared)('how τ-bench judged: findings, walkthrough, alignment, what-if', () => {
  let server: AppServer;
  let browser: Browser;
  beforeAll(async () => {
    ({ server, browser } = await startAppAndBrowser(DATA_DIR));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('reaches one finding of each kind in one click', async () => {
    const { page, context } = await offlinePage(browser);
    await page.goto(server.url);
    await openFile(page, 'findings.json', FILE);
    for (const [kind, index] of Object.entries(KIND_EPISODE)) {
      await goEpisode(page, index);
      await page.getByTestId('tab-findings').click();
      const item = page.locator(`[data-testid="findings"] li[data-kind="${kind}"]`).first();
      await item.waitFor({ timeout: 10_000 });
      expect(
        await page
          .locator('[data-testid="findings"]')
          .evaluate((f, d) => f.compareDocumentPosition(d!) & Node.DOCUMENT_POSITION_PRECEDING, await page.$('[data-testid="dialogue"]')),
        `${kind}: findings come after the dialogue`,
      ).toBeTruthy();
      const link = item.getByTestId('finding-link');
      if ((await link.count()) === 0) {
        expect(await item.textContent(), kind).toContain(kind);
        continue;
      }
      const label = (await link.textContent())!;
      await link.click();
      if (label.startsWith('step'))
        await expect.poll(() => page.getAttribute(SCREEN, 'data-step'), { message: kind }).toBe(String(Number(label.split(' ')[1]) - 1));
      else {
        const m = Number(label.split(' ')[1]) - 1;
        await expect.poll(() => page.locator(`li[data-message-index="${m}"]`).isVisible(), { message: kind }).toBe(true);
      }
    }
    // The int-vs-float blind spot, on the bundled sample run.
    await page.goto(`${server.url}#sample=retail-sample&episode=5&step=0`);
    await page.getByTestId('tab-findings').click();
    const item = page.locator('[data-testid="findings"] li[data-kind="db-differs-only-in-number-type"]');
    await item.waitFor({ timeout: 30_000 });
    await item.getByTestId('finding-link').click();
    await expect.poll(() => page.getAttribute(SCREEN, 'data-step')).not.toBe('0');
    await context.close();
  }, 240_000);

  it('walks through a failed DB episode and an output episode; lines lead to records, steps and reference actions', async () => {
    const { page, context } = await offlinePage(browser);
    await page.goto(server.url);
    await openFile(page, 'findings.json', FILE);
    await goEpisode(page, 11);
    await page.keyboard.press('8');
    const walk = page.getByTestId('walkthrough');
    await expect.poll(() => walk.getAttribute('open')).toBe('');
    const lines = await walk.getByTestId('walkthrough-line').allTextContents();
    expect(lines.some((l) => l.includes('Different: r_actions = 0'))).toBe(true);
    expect(lines.at(-1)).toContain('reward = r_actions × r_outputs = 0 × 1 = 0');
    await walk.getByTestId('walkthrough-record').first().click();
    await page.waitForSelector('[data-testid="diff-record"][aria-label="orders/#W6247578"]');
    // The record is shown in the DB diff tab; back to the walkthrough for a reference action.
    await page.getByTestId('tab-walkthrough').click();
    await walk.getByTestId('walkthrough-gold').last().click();
    await page.waitForSelector('[data-reference-index][aria-current="true"]');
    // The alignment tab: same name, other arguments, argument by argument; the first divergent write.
    await page.getByRole('tab', { name: /Agent vs reference/ }).click();
    expect(await page.getByTestId('arg-diff').first().textContent()).toMatch(/reason: agent "ordered by mistake" · reference "no longer needed"/);
    expect(await page.getByTestId('first-divergent-write').count()).toBe(1);
    // On a phone the table stays within the screen (a tool's name wraps after an underscore), its names whole as text.
    await page.setViewportSize({ width: 390, height: 844 });
    const table = page.getByTestId('alignment').locator('table');
    await expect.poll(async () => (await table.boundingBox())?.width ?? 0).toBeGreaterThan(0);
    const box = (await table.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await table.locator('code').allTextContents()).toContain('cancel_pending_order');
    await page.setViewportSize({ width: 1280, height: 800 });

    await goEpisode(page, 12);
    await page.getByTestId('tab-walkthrough').click();
    const out = page.getByTestId('walkthrough-line').filter({ hasText: '"53.27": found in step' });
    expect(await out.textContent()).toContain('$1053.27 minus $1000: 53.27');
    expect(await page.getAttribute(SCREEN, 'data-step')).toBe('0');
    await out.getByTestId('walkthrough-step').click();
    // Steps: respond, find_user_id_by_name_zip, the respond with the total.
    await expect.poll(() => page.getAttribute(SCREEN, 'data-step')).toBe('2');
    await context.close();
  }, 180_000);

  it('what-if: inserting the missing call of a drop-write episode turns 0 into 1', async () => {
    const { page, context } = await offlinePage(browser);
    await page.goto(server.url);
    const file = 'synthetic-retail-test-gold+gold-no-consent+drop-write+wrong-arg-s1.json';
    await openFile(page, file, null);
    await goEpisode(page, 230);
    expect(await page.textContent('[data-testid="verdict-reward"]')).toContain('0.0');
    await page.keyboard.press('End');
    await page.getByTestId('tab-whatif').click();
    await page.getByTestId('what-if-insert-missing').first().click();
    await page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="what-if-reward"]')).toBe('1.0');
    expect(await page.locator('li[data-message-index]', { hasText: 'inserted (what-if)' }).count()).toBe(2);
    expect(await page.textContent('[data-testid="verdict-reward"]')).toContain('1.0');
    // Switching episodes keeps the edit; coming back shows it again.
    await goEpisode(page, 231);
    expect(await page.locator('[data-testid="what-if-reward"]').count()).toBe(0);
    await goEpisode(page, 230);
    await page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="what-if-reward"]')).toBe('1.0');
    await context.close();
  }, 240_000);

  it('what-if: editing the respond of an outputs-wrong episode turns 0 into 1', async () => {
    const { page, context } = await offlinePage(browser);
    await page.goto(server.url);
    await openFile(page, 'synthetic-retail-test-outputs-wrong+outputs-comma+outputs-beside-toolcall+unknown-tool-s1.json', null);
    await goEpisode(page, 3);
    expect(await page.textContent('[data-testid="verdict-reward"]')).toContain('0.0');
    const row = page.locator('li[data-message-index]', { hasText: 'Here is what you asked for' });
    await row.getByRole('button', { name: /Select step/ }).click();
    await page.getByTestId('tab-whatif').click();
    await page.locator('#what-if-args').fill('Here is what you asked for: 10.');
    await page.getByTestId('what-if-apply').click();
    await page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="what-if-reward"]')).toBe('1.0');
    expect(await page.locator('li[data-message-index]', { hasText: 'edited (what-if)' }).textContent()).toContain('Here is what you asked for: 10.');
    await page.getByTestId('what-if-reset').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="what-if-reward"]'));
    expect(await page.textContent('[data-testid="verdict-reward"]')).toContain('0.0');
    await context.close();
  }, 240_000);

  it('an edited episode reopens from its link with the edit applied', async () => {
    const first = await offlinePage(browser);
    await first.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    await first.page.goto(`${server.url}#sample=retail-sample&episode=1&step=0`);
    await first.page.waitForSelector('[data-testid="verdict-reward"]', { timeout: 30_000 });
    const page = first.page;
    const row = page.locator('li[data-message-index]', { hasText: 'exchange_delivered_order_items' }).first();
    await row.getByRole('button', { name: /Select step/ }).click();
    await page.getByTestId('tab-whatif').click();
    const args = page.locator('#what-if-args');
    await args.fill((await args.inputValue()).replace('2051947368', '6619380254'));
    await page.getByTestId('what-if-apply').click();
    await page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 15_000 });
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/whatif=[A-Za-z0-9_-]+/);
    await page.getByRole('button', { name: /Share/ }).click();
    await page.waitForSelector('[data-testid="share-status"]', { timeout: 10_000 });
    const link = await page.evaluate(() => navigator.clipboard.readText());
    // The edits travel inside the link's envelope with the episode (not as a separate whatif=).
    expect(link).toMatch(/#ep=[A-Za-z0-9_-]+&episode=0&step=\d+$/);
    await first.context.close();

    const second = await offlinePage(browser);
    await second.page.goto(link);
    await second.page.waitForSelector('[data-testid="what-if-reward"]', { timeout: 60_000 });
    expect(await second.page.textContent('[data-testid="what-if-reward"]')).toBe('1.0');
    expect(await second.page.locator('li[data-message-index]', { hasText: 'edited (what-if)' }).count()).toBe(1);
    await second.context.close();
  }, 180_000);
});
