/**
 * Reports inert like the app (issue #35 class 5): the HTML reports (τ-bench's and τ²'s, the CLI's
 * `report` and the app's download build the same) never print a control or bidi character raw; each is
 * shown as the app shows it, a marked `U+XXXX`. An agent message "00.01$" after U+202E would read "$10.00".
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InspectSession, sessionReportHtml, tau2ReportParts, type EpisodeNotes } from '../../../src/core/contract';
import { Tau2Session } from '../../../src/core/session/tau2/session';

const ROOT = resolve(import.meta.dirname, '../../../sample-runs');

/** Every C0 control but tab, LF and CR; DEL and C1; ALM, MVS, zero-width and bidi marks, embeddings, overrides, isolates; word joiner…; BOM. */
const RANGES: [number, number][] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x9f],
  [0x61c, 0x61c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2069],
  [0xfeff, 0xfeff],
];
const ALL = RANGES.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => String.fromCharCode(a + i))).join('');
const RAW = new RegExp(`[${RANGES.map(([a, b]) => `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`).join('')}]`, 'u');
const FLIPPED = '\u202e00.01$';
const HOSTILE = `refund ${FLIPPED} ${ALL} end`;
const MARK = (cp: string): string => `<span class="cp" title="an invisible or direction-changing character in the text">${cp}</span>`;

const rawOnes = (html: string): string[] =>
  [...html].flatMap((c, i) => (RAW.test(c) ? [`U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at ${i}`] : []));

const note = (fingerprint: string, index: number): EpisodeNotes => ({
  fingerprint,
  label: 'agent error',
  note: HOSTILE,
  steps: { '0': HOSTILE },
  file: null,
  index,
  taskId: null,
  updatedAt: 't',
});

function expectInert(html: string): void {
  expect(rawOnes(html).slice(0, 5)).toEqual([]);
  // The flipped amount reads as it is in the file, the override shown as a mark before it.
  expect(html).toContain(`${MARK('U+202E')}00.01$`);
  for (const cp of ['U+0000', 'U+001B', 'U+007F', 'U+0085', 'U+200B', 'U+200F', 'U+2066', 'U+FEFF']) expect(html).toContain(MARK(cp));
  // The title holds no markup: the marks are written as the app's labels write them.
  expect(html).toMatch(/<title>[^<]*⟨U\+202E⟩00\.01\$[^<]*<\/title>/);
}

describe('the HTML reports show control and bidi characters as U+XXXX marks, never raw', () => {
  it('τ-bench: a message, the notes and the title', async () => {
    const run = JSON.parse(readFileSync(join(ROOT, 'runs/retail-sample.json'), 'utf8')) as { traj: { role: string; content: string | null }[] }[];
    const said = run[1]!.traj.find((m) => m.role === 'assistant' && m.content);
    said!.content = HOSTILE;
    const s = new InspectSession(JSON.stringify(run));
    s.useData(await s.loadData(async (rel) => readFile(join(ROOT, 'data', rel), 'utf8').catch(() => null), 'sample-runs/data'));
    expect(s.summaries()[1]!.reward).toBe(0);
    const html = sessionReportHtml(s, { title: `run ${FLIPPED}.json`, notes: new Map([[1, note(s.fingerprint(1), 1)]]), generatedAt: 'now' });
    expectInert(html);
  });

  it('τ²: a message, the notes and the title', async () => {
    const run = JSON.parse(readFileSync(join(ROOT, 'runs/tau2-mock-sample.json'), 'utf8')) as {
      simulations: { messages: { role: string; content: string | null }[]; reward_info: { reward: number } }[];
    };
    const failed = run.simulations.findIndex((x) => x.reward_info.reward === 0);
    const said = run.simulations[failed]!.messages.find((m) => m.role === 'assistant' && m.content);
    said!.content = HOSTILE;
    const read = async (rel: string): Promise<string | null> => {
      for (const r of [rel, rel.replace(/^[0-9a-f]{7,40}\//, '')]) {
        const text = await readFile(join(ROOT, 'tau2-data', r), 'utf8').catch(() => null);
        if (text !== null) return text;
      }
      return null;
    };
    const session = await Tau2Session.open(Tau2Session.read(JSON.stringify(run)), read);
    const html = [...tau2ReportParts(session, `run ${FLIPPED}.json`, new Map([[failed, note('fp', failed)]]))].join('');
    expect(html).toContain(`<section id="sim-${failed}">`);
    expectInert(html);
  });
});
