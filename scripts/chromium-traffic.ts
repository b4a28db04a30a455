/**
 * `npm run chromium-traffic [-- --seconds=N]`: what Debian's Chromium contacts on its own while a spec's page
 * sits on a local server, with the browser's switches as the specs launch it (test/browser/harness.ts), and
 * with each quiet switch or disabled feature left out in turn: the proof that each is needed.
 *
 * The page holds what makes a browser ask on its own: a form with address and card fields (autofill's field
 * types) and a paragraph in another language (translate). It makes no request itself.
 *
 * The browser is launched with a browser-wide proxy (`--proxy-server`, not a context's), so every request of
 * every network context, the browser's own included, reaches the recording proxy, which refuses it. Printed: one line per configuration with the hosts
 * contacted (`--json` prints one object).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_SWITCHES, QUIET_FEATURES, QUIET_SWITCHES } from '../test/browser/harness';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const seconds = Number(arg('seconds') ?? 6);
const json = process.argv.includes('--json');

const PAGE = `<!doctype html><html lang="en"><title>quiet</title>
<form><input name="name" autocomplete="name"><input name="email" autocomplete="email"><input name="address" autocomplete="street-address">
<input name="cc" autocomplete="cc-number"><input name="postal" autocomplete="postal-code"><button>Send</button></form>
<p lang="fr">Bonjour, ceci est un paragraphe en français pour que le navigateur propose une traduction de la page entière.</p>
<p lang="fr">Le chat dort sur le canapé pendant que la pluie tombe doucement sur les toits de la ville.</p></html>`;

async function traffic(args: readonly string[]): Promise<string[]> {
  const seen = new Set<string>();
  const proxy = createServer((req, res) => {
    try {
      seen.add(new URL(req.url ?? '').host);
    } catch {
      seen.add(req.url ?? '?');
    }
    res.writeHead(403).end();
  });
  proxy.on('connect', (req, socket) => {
    seen.add(req.url ?? '?');
    socket.destroy();
  });
  const page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await Promise.all([new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok)), new Promise<void>((ok) => page.listen(0, '127.0.0.1', ok))]);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...args, `--proxy-server=http://127.0.0.1:${(proxy.address() as AddressInfo).port}`],
  });
  try {
    const context = await browser.newContext();
    const p = await context.newPage();
    await p.goto(`http://localhost:${(page.address() as AddressInfo).port}/`);
    await p.locator('input[name="email"]').click();
    await new Promise((r) => setTimeout(r, seconds * 1000));
  } finally {
    await browser.close();
    proxy.close();
    page.close();
  }
  return [...seen].filter((h) => !/^(localhost|127\.0\.0\.1)(:\d+)?$/.test(h)).sort();
}

const featuresSwitch = (features: readonly string[]): string => `--disable-features=${features.join(',')}`;
const base = CHROMIUM_SWITCHES.filter((s) => !QUIET_SWITCHES.includes(s));
const configurations: [string, string[]][] = [
  ['every quiet switch (as the specs run)', [...CHROMIUM_SWITCHES]],
  ['none of them (Playwright’s defaults only)', base],
  // What the harness passed before: a second --disable-features of its own, which replaced Playwright's.
  ['the old switches (a second --disable-features)', [...base, '--disable-features=AutofillServerCommunication,OptimizationHints,Translate,MediaRouter']],
  ...QUIET_FEATURES.map((f): [string, string[]] => [
    `without feature ${f}`,
    CHROMIUM_SWITCHES.map((x) => (x.startsWith('--disable-features=') ? featuresSwitch(QUIET_FEATURES.filter((g) => g !== f)) : x)),
  ]),
];

const out: Record<string, string[]> = {};
for (const [name, args] of configurations) {
  out[name] = await traffic(args);
  if (!json) process.stdout.write(`${name}: ${out[name].length === 0 ? 'nothing' : out[name].join(', ')}\n`);
}
if (json) process.stdout.write(`${JSON.stringify({ chromium: (await chromiumVersion()) ?? null, seconds, traffic: out })}\n`);

async function chromiumVersion(): Promise<string | null> {
  const b = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: base });
  try {
    return b.version();
  } finally {
    await b.close();
  }
}
