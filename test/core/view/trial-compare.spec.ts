import { beforeAll, describe, expect, it } from 'vitest';
import { InspectSession, type EpisodeHeader, type EpisodeView } from '../../../src/core/contract';
import { compareTrials, type TrialInput } from '../../../src/core/view/trial-compare';
import type { AlignmentPair } from '../../../src/core/view/alignment';
import { sampleRunText, sampleVersion } from '../../support/fixtures';

describe('two trials of a task lined up on the reference actions (sample run)', () => {
  let views: EpisodeView[];
  let headers: EpisodeHeader[];
  beforeAll(() => {
    const session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    session.finish();
    headers = session.headers();
    views = headers.map((h) => {
      const v = session.view(h.index);
      if ('error' in v) throw new Error(v.error);
      return v;
    });
  });
  const pairsOfTask = (): [number, number][] => {
    const byTask = new Map<number, number[]>();
    for (const h of headers) byTask.set(h.taskId!, [...(byTask.get(h.taskId!) ?? []), h.index]);
    expect([...byTask.values()].every((v) => v.length === 2)).toBe(true);
    return [...byTask.values()].map((v) => [v[0]!, v[1]!]);
  };

  it('every reference action is one row, in order, and every call of each trial sits in exactly one row', () => {
    for (const [i, j] of pairsOfTask()) {
      const c = compareTrials(views[i]!, views[j]!);
      const golds = c.rows.flatMap((r) => (r.gold === null ? [] : [r.gold]));
      const expected = [...new Set([...views[i]!.alignment.pairs, ...views[j]!.alignment.pairs].flatMap((p) => (p.gold === null ? [] : [p.gold])))].sort(
        (a, b) => a - b,
      );
      expect(golds).toEqual(expected);
      for (const [side, v] of [
        ['a', views[i]!],
        ['b', views[j]!],
      ] as const) {
        const steps = c.rows.flatMap((r) => (r[side]?.step != null ? [r[side]!.step!] : [])).sort((a, b) => a - b);
        const calls = v.alignment.pairs.flatMap((p) => (p.step === null ? [] : [p.step])).sort((a, b) => a - b);
        expect(steps).toEqual(calls);
      }
      const first = c.rows.findIndex((r) => !r.agree && (r.a?.write === true || r.b?.write === true));
      expect(c.parts?.row ?? -1).toBe(first);
      expect(c.a.reward).toBe(views[i]!.verdict.reward);
      expect(c.b.reward).toBe(views[j]!.verdict.reward);
      // The dialogue is cut at the calls: every message of each trial is before exactly one call, or in the tail.
      for (const side of ['a', 'b'] as const) {
        const v = side === 'a' ? views[i]! : views[j]!;
        const seen: number[] = [];
        for (const r of c.rows) {
          const cell = r[side];
          if (cell?.step == null) continue;
          for (let m = cell.before.from; m < cell.before.to; m++) seen.push(m);
          seen.push(cell.messageIndex!);
        }
        for (let m = c.tail[side]; m < v.messages.length; m++) seen.push(m);
        expect(seen.sort((x, y) => x - y)).toEqual(v.messages.map((_, k) => k));
      }
    }
  });

  it('a trial against itself never parts', () => {
    for (const v of views) {
      const c = compareTrials(v, v);
      expect(c.parts).toBeNull();
      expect(c.rows.every((r) => r.agree)).toBe(true);
    }
  });

  it('task 1: the failed trial parts from the passing one at the exchange, where it passed another item id', () => {
    expect([headers[1]!.taskId, headers[8]!.taskId]).toEqual([1, 1]);
    const c = compareTrials(views[1]!, views[8]!);
    expect(c.a.reward).toBe(0);
    expect(c.b.reward).toBe(1);
    const row = c.rows[c.parts!.row]!;
    expect(row.name).toBe('exchange_delivered_order_items');
    expect(row.a?.match).toBe('other-args');
    expect(row.b?.match).toBe('same');
    expect(row.a?.kwargs).toContain('2051947368');
    expect(row.b?.kwargs).not.toContain('2051947368');
    expect(c.parts!.why).toMatch(
      /^both call exchange_delivered_order_items \(reference action \d+\) with different arguments: new_item_ids \(trial A step \d+, trial B step \d+\)$/,
    );
    expect(row.argsApart).toEqual(['new_item_ids']);
    // Every row before it agrees: the same calls with the same arguments.
    expect(c.rows.slice(0, c.parts!.row).every((r) => r.agree && r.a?.kwargs === r.b?.kwargs)).toBe(true);
  });
});

describe('compareTrials on hand-made alignments', () => {
  const pair = (
    gold: number | null,
    step: number | null,
    name: string,
    match: AlignmentPair['match'] = gold === null ? 'extra' : step === null ? 'missing' : 'same',
  ): AlignmentPair => ({
    gold,
    step,
    match,
    name,
    write: true,
    failed: false,
    args: [],
  });
  const read = (p: AlignmentPair): AlignmentPair => ({ ...p, write: false });
  const withArgs = (p: AlignmentPair, args: Record<string, string>): AlignmentPair => ({
    ...p,
    args: Object.entries(args).map(([name, agent]) => ({ name, agent, reference: '0' })),
  });
  const trial = (index: number, pairs: AlignmentPair[], kwargs: Record<number, string> = {}): TrialInput => ({
    index,
    messages: { length: 30 },
    alignment: { pairs },
    steps: Array.from({ length: 10 }, (_, i) => ({ index: i, messageIndex: i * 2 + 1, action: 'x', kwargs: kwargs[i] ?? '{}', exception: null })),
    verdict: { reward: index, recordedReward: null, sentence: '' },
  });

  it('extra calls stay after the reference action they followed; same-tool extras share a row', () => {
    const a = trial(0, [pair(null, 0, 'find'), pair(0, 1, 'get'), pair(null, 2, 'list'), pair(null, 3, 'calc'), pair(1, 4, 'cancel')]);
    const b = trial(1, [pair(0, 0, 'get'), pair(null, 1, 'calc'), pair(1, 2, 'cancel')]);
    const c = compareTrials(a, b);
    expect(c.rows.map((r) => [r.gold, r.name, r.a?.step ?? null, r.b?.step ?? null])).toEqual([
      [null, 'find', 0, null],
      [0, 'get', 1, 0],
      [null, 'list', 2, null],
      [null, 'calc', 3, 1],
      [1, 'cancel', 4, 2],
    ]);
    expect(c.parts).toEqual({ row: 0, why: 'trial A makes an extra call of find at its step 1, which trial B does not make' });
  });

  it('a reference action only one trial calls is where they part', () => {
    const a = trial(0, [pair(0, 0, 'get'), pair(1, null, 'cancel')]);
    const b = trial(1, [pair(0, 0, 'get'), pair(1, 3, 'cancel')]);
    const c = compareTrials(a, b);
    expect(c.parts).toEqual({ row: 1, why: 'trial B calls cancel (reference action 2) at its step 4; trial A never calls it' });
  });

  it('names the arguments in which two calls for one reference action differ', () => {
    const a = trial(0, [withArgs(pair(0, 0, 'get', 'other-args'), { id: '1', zip: '5' })], { 0: '{"id": 1, "zip": 5}' });
    const b = trial(1, [withArgs(pair(0, 0, 'get', 'other-args'), { id: '1', name: '"x"' })], { 0: '{"id": 1, "name": "x"}' });
    expect(compareTrials(a, b).rows[0]!.argsApart).toEqual(['zip', 'name']);
    expect(compareTrials(a, b).parts?.why).toBe('both call get (reference action 1) with different arguments: zip, name (trial A step 1, trial B step 1)');
  });

  it('the same tool with other arguments parts them; the same arguments do not', () => {
    const a = trial(0, [pair(0, 0, 'get', 'other-args')], { 0: '{"id": 1}' });
    expect(compareTrials(a, trial(1, [pair(0, 0, 'get', 'other-args')], { 0: '{"id": 1}' })).parts).toBeNull();
    expect(compareTrials(a, trial(1, [pair(0, 0, 'get', 'other-args')], { 0: '{"id": 2}' })).parts?.why).toBe(
      'both call get (reference action 1) with different arguments (trial A step 1, trial B step 1)',
    );
  });

  it('a difference in reads only is shown, not counted: they do not part on writes', () => {
    // Trial A reads the user twice (an extra read) and looks up another order; both cancel alike.
    const a = trial(
      0,
      [
        read(pair(0, 0, 'get_user_details')),
        read(pair(null, 1, 'get_user_details')),
        read(pair(1, 2, 'get_order_details', 'other-args')),
        pair(2, 3, 'cancel_pending_order'),
      ],
      { 2: '{"order_id": "#W2"}', 3: '{"order_id": "#W1"}' },
    );
    const b = trial(1, [read(pair(0, 0, 'get_user_details')), read(pair(1, 1, 'get_order_details')), pair(2, 2, 'cancel_pending_order')], {
      1: '{"order_id": "#W1"}',
      2: '{"order_id": "#W1"}',
    });
    const c = compareTrials(a, b);
    expect(c.parts).toBeNull();
    expect(c.rows.map((r) => [r.name, r.agree, r.apartOnWrite])).toEqual([
      ['get_user_details', true, false],
      ['get_user_details', false, false],
      ['get_order_details', false, false],
      ['cancel_pending_order', true, false],
    ]);
    expect(c.readsApart).toEqual({ row: 1, count: 2, why: 'trial A makes an extra call of get_user_details at its step 2, which trial B does not make' });
  });

  it('a write call that failed on one side and was never made on the other writes nothing: no parting; a successful one parts', () => {
    const failed = (p: AlignmentPair): AlignmentPair => ({ ...p, failed: true });
    const a = trial(0, [pair(0, 0, 'get'), failed(pair(null, 1, 'cancel_pending_order'))]);
    const b = trial(1, [pair(0, 0, 'get')]);
    expect(compareTrials(a, b).parts).toBeNull();
    expect(compareTrials(a, b).readsApart?.row).toBe(1);
    const c = compareTrials(trial(0, [pair(0, 0, 'get'), pair(null, 1, 'cancel_pending_order')]), b);
    expect(c.parts).toEqual({ row: 1, why: 'trial A makes an extra call of cancel_pending_order at its step 2, which trial B does not make' });
  });
});
