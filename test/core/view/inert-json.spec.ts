import { describe, expect, it } from 'vitest';
import { exportNotes, inertJson, parseNotesExport, type EpisodeNotes, type StepEdit } from '../../../src/core/contract';
import { decodeEdits, encodeEdits } from '../../../src/store/link';
import { decodePayload } from '../../../src/formats/share-codec';
import { shareText, splitSharedText } from '../../../src/worker/shared-episode';

/** Every character a terminal may act on or a line may be reordered by. */
const RAW = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'a\u009b31mb\u202ec\u2066d\u2067e\u2068f\u2069g\u200eh\u200fi\u061cj\u0085k\u007fl\u001b]0;x\u0007m\u2028n';

describe('inertJson: exact after JSON.parse, nothing a terminal acts on', () => {
  it('every BMP character and a lone surrogate: parsed back exactly; no raw control or bidi character in the text', () => {
    const chars: string[] = [];
    for (let c = 0; c <= 0xffff; c++) chars.push(String.fromCharCode(c));
    const all = chars.join('');
    const text = inertJson({ [HOSTILE]: all, list: [HOSTILE, '\ud800x'] });
    expect(text).not.toMatch(RAW);
    expect(JSON.parse(text)).toEqual({ [HOSTILE]: all, list: [HOSTILE, '\ud800x'] });
    expect(text).toContain('a\\u009b31mb\\u202ec\\u2066d');
  });

  it('a notes export escapes them and reads back the same notes', () => {
    const note: EpisodeNotes = {
      fingerprint: 'a'.repeat(64),
      label: 'other',
      note: HOSTILE,
      steps: { '3': HOSTILE },
      file: HOSTILE,
      index: 0,
      taskId: 1,
      updatedAt: '2026-12-04T00:00:00.000Z',
    };
    const text = exportNotes(HOSTILE, [note]);
    expect(text.replace(/\n/g, '')).not.toMatch(RAW);
    const back = parseNotesExport(text);
    expect(back.ok && back.value.episodes[0]!.note).toBe(HOSTILE);
    expect(back.ok && back.value.episodes[0]!.steps['3']).toBe(HOSTILE);
  });

  it('a shared link: the context line and the what-if edits escape them and read back exactly', () => {
    const text = shareText('{"task_id": 1}', { file: HOSTILE, index: 0, step: 0, notes: null, edits: [] });
    const { context } = splitSharedText(text);
    expect(context).not.toMatch(RAW);
    expect((JSON.parse(context!) as { file: string }).file).toBe(HOSTILE);
    const edits: StepEdit[] = [{ messageIndex: 2, content: HOSTILE }];
    const payload = encodeEdits(edits);
    expect(decodePayload(payload, { maxChars: 1 << 20, maxBytes: 1 << 20 })).not.toMatch(RAW);
    expect(decodeEdits(payload)).toEqual(edits);
  });
});
