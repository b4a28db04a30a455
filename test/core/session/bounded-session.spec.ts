import { beforeAll, describe, expect, it } from 'vitest';
import { readResults } from '../../../src/core/model/episode/results-file';
import { InspectSession } from '../../../src/core/session/session';
import { EvalCache } from '../../../src/core/judge/cache';
import { sampleRunText, sampleVersion, sharedRun, sharedVersions } from '../../support/fixtures';
import { describeShared, readShared } from '../../support/shared';

/**
 * The worker's session keeps a few evaluations and parses episodes again from the text when
 * asked (issue 9, size): the same results must come out as from a session that keeps everything.
 */
describe('reading a results file lazily', () => {
  it('gives the same records as reading it at once, for a whole file and for a damaged one', () => {
    const text = sampleRunText();
    const cut = text.lastIndexOf('"traj"');
    const damaged = `${text.slice(0, cut)}"traj": [{"role": "user", "content": "x"}, }, ${text.slice(text.indexOf('{"task_id"', cut))}`;
    for (const t of [text, damaged, `${text.slice(0, -1)},\n  {"task_id": 1, "traj": [`]) {
      const seen: number[] = [];
      const lazy = readResults(t, { lazy: true, visit: (r) => seen.push(r.index) });
      const eager = readResults(t);
      expect(lazy.records.length).toBe(eager.records.length);
      expect(lazy.notes).toEqual(eager.notes);
      expect(lazy.kind).toBe(eager.kind);
      // Twice: the second read of each episode parses it again (a few are kept).
      for (const pass of [0, 1])
        lazy.records.forEach((r, i) => {
          const e = eager.records[i]!;
          expect({ ...r, pass }).toEqual({ ...e, pass });
        });
      expect([...seen].sort((a, b) => a - b)).toEqual(eager.records.map((r) => r.index));
    }
    // Read again from the bytes (a file on disk), with characters of 2, 3 and 4 UTF-8 bytes before and inside episodes.
    const wide = text.replace(/Hi!/g, 'Hï! → 😀').replace(/Thanks/g, 'Thänks 👍');
    expect(wide).not.toBe(text);
    const bytes = new TextEncoder().encode(wide);
    const fromBytes = readResults(wide, { lazy: true, elementText: (a, b) => new TextDecoder().decode(bytes.subarray(a, b)) });
    expect(fromBytes.records.map((r) => ({ ...r }))).toEqual(readResults(wide).records.map((r) => ({ ...r })));
    expect(
      readResults(`${text.slice(0, cut)}"traj": [{"role": "user", "content": "x"}, }, ${text.slice(text.indexOf('{"task_id"', cut))}`).notes.join(' '),
    ).toMatch(/could not be read as JSON/);
  });
});

describe('a session that keeps few evaluations', () => {
  it('answers the sample run like a session that keeps everything', () => {
    const full = new InspectSession(sampleRunText());
    const small = new InspectSession(sampleRunText(), {}, new EvalCache(), { keptEvaluations: 1, headers: true });
    expect(small.headers()).toEqual(full.headers());
    expect(small.useData([sampleVersion()])).toEqual(full.useData([sampleVersion()]));
    const n = full.records.length;
    for (let i = n - 1; i >= 0; i--) expect(small.evaluate(i)).toEqual(full.evaluate(i));
    expect(small.finish()).toBe(full.finish());
    expect(small.detection()).toEqual(full.detection());
    expect(small.summaries()).toEqual(full.summaries());
    // Evicted long ago: recomputed, the same.
    for (const i of [0, n - 1, 1]) {
      expect(small.view(i)).toEqual(full.view(i));
      expect(small.transcript(i)).toEqual(full.transcript(i));
      expect(small.episodeJson(i)).toBe(full.episodeJson(i));
    }
    expect(small.reports()).toEqual(full.reports());
    expect(small.search('order')).toEqual(full.search('order'));
  });
});

describeShared('a session that keeps few evaluations, on a real run', () => {
  const file = 'gpt-4o-airline.json';
  let full: InspectSession;
  let small: InspectSession;
  beforeAll(() => {
    full = new InspectSession(sharedRun(file));
    full.useData(sharedVersions('airline'));
    full.finish();
    small = new InspectSession(readShared('runs', file), {}, new EvalCache(), { keptEvaluations: 4, headers: true });
    small.useData(sharedVersions('airline'));
    small.finish();
  });

  it('detects, judges and summarises the same', () => {
    expect(small.headers()).toEqual(full.headers());
    expect(small.detection()).toEqual(full.detection());
    expect(small.summaries()).toEqual(full.summaries());
  });

  it('shows and replays the same episodes after they left memory', () => {
    for (const i of [3, 150, 0]) expect(small.view(i)).toEqual(full.view(i));
    expect(small.reports().slice(0, 20)).toEqual(full.reports().slice(0, 20));
    expect(small.search('baggage')).toEqual(full.search('baggage'));
  });
});
