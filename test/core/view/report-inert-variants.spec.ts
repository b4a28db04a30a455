/**
 * Held-back variants of issue #35 class 5 (reports inert like the app), beyond report-inert.spec.ts: format characters
 * that hide or reorder text and were not in the set the app and the reports mark — the deprecated format controls
 * U+206A–206F, the interlinear annotation marks U+FFF9–FFFB (text between them is hidden by some renderers), the tag
 * characters U+E0000–E007F (invisible "ASCII smuggling": a tag per letter), the shorthand format controls
 * U+1BCA0–1BCA3, the musical format controls U+1D173–1D17A, and the Hangul fillers (blank letters that make a name or
 * an amount look empty). Each, in a message, a note, a step note and the file name of the title, is shown as the app
 * shows it (a marked U+XXXX), never raw; and the app's text pieces (ui/fold.ts) mark the same ones.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InspectSession, sessionReportHtml, type EpisodeNotes } from '../../../src/core/contract';
import { splitInvisible } from '../../../src/ui/fold';

const ROOT = resolve(import.meta.dirname, '../../../sample-runs');

const CODE_POINTS = [
  0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfff9, 0xfffa, 0xfffb, 0xe0001, 0xe0020, 0xe0041, 0xe007f, 0x1bca0, 0x1bca3, 0x1d173, 0x1d17a, 0x115f,
  0x1160, 0x3164, 0xffa0,
];
const name = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const MARK = (cp: number): string => `<span class="cp" title="an invisible or direction-changing character in the text">${name(cp)}</span>`;
/** "pay 10" with a hidden "0" in tags after it: reads as "pay 10" while the file says more. */
const SMUGGLED = `pay 10${String.fromCodePoint(0xe0030)}`;
const HOSTILE = `${SMUGGLED} ${CODE_POINTS.map((cp) => `${String.fromCodePoint(cp)}.`).join('')} end`;

const note = (fingerprint: string): EpisodeNotes => ({
  fingerprint,
  label: 'agent error',
  note: HOSTILE,
  steps: { '0': HOSTILE },
  file: null,
  index: 1,
  taskId: null,
  updatedAt: 't',
});

describe('format characters beyond the first set: marked in the report and in the app', () => {
  it('τ-bench report: a message, the notes and the title show each as U+XXXX, none raw', async () => {
    const run = JSON.parse(readFileSync(join(ROOT, 'runs/retail-sample.json'), 'utf8')) as { traj: { role: string; content: string | null }[] }[];
    run[1]!.traj.find((m) => m.role === 'assistant' && m.content)!.content = HOSTILE;
    const s = new InspectSession(JSON.stringify(run));
    s.useData(await s.loadData(async (rel) => readFile(join(ROOT, 'data', rel), 'utf8').catch(() => null), 'sample-runs/data'));
    const html = sessionReportHtml(s, {
      title: `run ${String.fromCodePoint(0x206e)}x.json`,
      notes: new Map([[1, note(s.fingerprint(1))]]),
      generatedAt: 'now',
    });
    const raw = [...html].filter((c) => CODE_POINTS.includes(c.codePointAt(0)!) || c.codePointAt(0) === 0xe0030);
    expect(raw.map((c) => name(c.codePointAt(0)!))).toEqual([]);
    for (const cp of CODE_POINTS) expect(html, name(cp)).toContain(MARK(cp));
    expect(html).toContain(`pay 10${MARK(0xe0030)}`);
    expect(html).toMatch(/<title>[^<]*run ⟨U\+206E⟩x\.json[^<]*<\/title>/);
  });

  it('the app marks the same characters (one set for both)', () => {
    for (const cp of CODE_POINTS) expect(splitInvisible(`a${String.fromCodePoint(cp)}b`), name(cp)).toEqual(['a', { invisible: name(cp) }, 'b']);
  });
});
