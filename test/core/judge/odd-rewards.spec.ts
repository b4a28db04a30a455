import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatRecorded, InspectSession, type EpisodeReport } from '../../../src/core/contract';
import { readShareContext } from '../../../src/protocol/share-context';

const root = resolve(import.meta.dirname, '../../..');
const sample = readFileSync(join(root, 'sample-runs/runs/retail-sample.json'), 'utf8');
const read = async (rel: string): Promise<string | null> => readFile(join(root, 'sample-runs/data', rel), 'utf8').catch(() => null);

/** The sample run with episode i's recorded reward written as `odd[i]` (JSON text, as Python's json writes NaN and Infinity). */
function withRewards(odd: Record<number, string>): Uint8Array {
  const episodes = JSON.parse(sample) as Record<string, unknown>[];
  const marks = episodes.map((e, i) => (i in odd ? { ...e, reward: `@@${i}@@` } : e));
  const text = JSON.stringify(marks).replace(/"@@(\d+)@@"/g, (_, i: string) => odd[Number(i)]!);
  return new TextEncoder().encode(text);
}

async function judged(bytes: Uint8Array): Promise<{ session: InspectSession; reports: EpisodeReport[] }> {
  const session = InspectSession.fromBytes(bytes, {});
  session.useData(await session.loadData(read, 'sample-runs/data'));
  return { session, reports: session.evaluateAll() };
}

const ODD = { 0: 'NaN', 1: 'Infinity', 2: '-Infinity', 4: '"1.0"', 5: '[1]' };

describe('odd recorded rewards', () => {
  let plain: EpisodeReport[];
  let odd: { session: InspectSession; reports: EpisodeReport[] };
  beforeAll(async () => {
    plain = (await judged(new TextEncoder().encode(sample))).reports;
    odd = await judged(withRewards({ ...ODD, 3: '0.5', 6: '2.0' }));
  });

  it('NaN, Infinity, a string or a list as the recorded reward: the episode gets τ-bench’s verdict, as if the reward were not there', () => {
    for (const i of Object.keys(ODD).map(Number)) {
      const r = odd.reports[i]!;
      expect(r.error, `episode ${i}`).toBeUndefined();
      expect(r.reward).toBe(plain[i]!.reward);
      expect(r.rules).toEqual(plain[i]!.rules);
      expect(r.recorded_reward).toBeNull();
      expect(r.matches_recorded_reward).toBeNull();
    }
    // Every other episode is judged exactly as before.
    for (let i = 0; i < plain.length; i++) expect(odd.reports[i]!.reward).toBe(plain[i]!.reward);
  });

  it('is shown as recorded, "not a number"', () => {
    const headers = odd.session.headers();
    expect(headers.slice(0, 3).map((h) => formatRecorded(h))).toEqual(['NaN (not a number)', 'Infinity (not a number)', '-Infinity (not a number)']);
    expect(formatRecorded(headers[4]!)).toBe("'1.0' (a str, not a number)");
    expect(formatRecorded(headers[5]!)).toBe('[1] (a list, not a number)');
    expect(odd.reports[0]!.recorded_reward_text).toBe('NaN (not a number)');
    expect(odd.session.summaries()[0]!.error).toBeNull();
  });

  it('"partial credit" only for a finite reward strictly between 0 and 1; the others are named apart', () => {
    const notes = odd.session.detection().notes.join('\n');
    expect(notes).toMatch(/1 of 14 episodes record a reward strictly between 0 and 1 \(e\.g\. episode 3: 0\.5\).*partial credit/);
    expect(notes).toMatch(/6 of 14 episodes record a reward τ-bench never writes \(e\.g\. episode 0: NaN \(not a number\)\)/);
    expect(notes).not.toMatch(/NaN[^\n]*partial credit/);
  });
});

describe('a share context of the wrong shape is named', () => {
  it.each([
    ['[1, 2]', 'its context (file name, notes, edits) is a list, not an object'],
    ['"x"', 'its context (file name, notes, edits) is a string, not an object'],
    ['null', 'its context (file name, notes, edits) is null, not an object'],
    ['{"file": 5}', 'its file name is a number, not text'],
    ['{"index": [0]}', 'its episode index (a list) is not a whole number'],
    ['{"step": -1}', 'its step (a number) is not a whole number'],
  ])('%s', (line, problem) => {
    const r = readShareContext(line);
    expect(r.problems.join('\n')).toContain(problem);
    expect(r.ctx).toMatchObject({ file: null, index: null, step: 0 });
  });
});
