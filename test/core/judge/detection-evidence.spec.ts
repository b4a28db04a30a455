import { beforeAll, expect, it } from 'vitest';
import { KNOWN_DATA_VERSIONS } from '../../../src/core/model/data/versions';
import { recordedHashSample } from '../../../src/core/judge/detect';
import { InspectSession } from '../../../src/core/session/session';
import type { EpisodeReport } from '../../../src/core/view/report-json';
import { evaluatedSharedRun, sharedRun, sharedVersions } from '../../support/fixtures';
import { forgeGtHashes } from '../../support/forge-hashes';
import { describeShared } from '../../support/shared';

/**
 * Issue 20 item 1: the data version (and with it the rule and every verdict) is decided by every
 * recorded gt_data_hash, not by the four a sample looks at. The forged files are made here, in
 * memory, from a real run: some recorded hashes set to the reference hashes of the other data version.
 */
const FILE = 'grok-4-tool-calling-retail.json';
const [PINNED, HISTORICAL] = [KNOWN_DATA_VERSIONS[0]!.commit, KNOWN_DATA_VERSIONS[1]!.commit];

interface Judged {
  readonly session: InspectSession;
  readonly reports: EpisodeReport[];
}

function judge(text: string): Judged {
  const session = new InspectSession(text);
  session.useData(sharedVersions(session.domain));
  return { session, reports: session.evaluateAll() };
}

const verdicts = (reports: readonly EpisodeReport[]) => reports.map((r) => [r.index, r.reward ?? null, r.error ?? null]);

describeShared('detection from all the evidence (issue 20 item 1)', () => {
  let sample: number[];
  let recorded: number[];
  let forge: (indices: readonly number[]) => string;

  beforeAll(() => {
    sample = recordedHashSample(sharedRun(FILE)).map((r) => r.index);
    recorded = evaluatedSharedRun(FILE)
      .outcomes.filter((o) => o.ok && o.value.recordedGtHash !== null)
      .map((o) => (o.ok ? o.value.record.index : -1));
    forge = (indices) => forgeGtHashes(FILE, indices, HISTORICAL);
  });

  it('the sample a provisional choice reads is episodes 0, 26, 69, 91, and every recorded hash of the real run fits 14bf0ef', () => {
    expect(sample).toEqual([0, 26, 69, 91]);
    const whole = evaluatedSharedRun(FILE);
    expect(whole.version.commit).toBe(PINNED);
    const d = whole.session.detection();
    expect(d.hashes).toEqual({ recorded: recorded.length, fits: [{ commit: PINNED, episodes: recorded }], unmatched: [], complete: true });
    expect(d.dataOverturned).toBeNull();
    expect(d.dataFinal).toBe(true);
    expect(whole.reports.flatMap((r) => r.findings ?? []).filter((f) => f.kind === 'recorded-hash-minority')).toEqual([]);
  });

  it('four forged positions (0, 26, 69, 91) change no data version, rule or verdict; the counts and the minority are said', () => {
    const whole = evaluatedSharedRun(FILE);
    const forged = judge(forge(sample));
    const d = forged.session.detection();
    expect(d.dataCommit).toBe(PINNED);
    expect(d.rule).toBe(whole.rule);
    expect(verdicts(forged.reports)).toEqual(verdicts(whole.reports));
    expect(d.hashes!.recorded).toBe(recorded.length);
    expect(d.hashes!.fits).toEqual([
      { commit: PINNED, episodes: recorded.filter((i) => !sample.includes(i)) },
      { commit: HISTORICAL, episodes: sample },
    ]);
    expect(d.hashes!.unmatched).toEqual([]);
    expect(d.versionWhy).toContain(
      `${recorded.length - 4} of ${recorded.length} recorded gt_data_hash values fit 14bf0ef; 4 fit 7362a17: episodes 0, 26, 69, 91`,
    );
    expect(d.notes.join('\n')).toMatch(
      /4 of \d+ recorded gt_data_hash values are not reproduced by 14bf0ef, the data version most of them fit \(episodes 0, 26, 69, 91\)/,
    );
    // The minority is a finding on exactly those episodes.
    const minority = forged.reports.filter((r) => r.findings?.some((f) => f.kind === 'recorded-hash-minority')).map((r) => r.index);
    expect(minority).toEqual(sample);
    expect(forged.reports[26]!.findings!.find((f) => f.kind === 'recorded-hash-minority')!.text).toMatch(/reference hash on 7362a17 data/);
    // The episode view carries it too.
    const view = forged.session.view(69);
    expect('error' in view ? [] : view.findings.map((f) => f.kind)).toContain('recorded-hash-minority');
  });

  it('a forgery of 40 % of the recorded hashes (the sample among them) changes no data version, rule or verdict', () => {
    const whole = evaluatedSharedRun(FILE);
    const n = Math.floor(recorded.length * 0.4);
    const rest = recorded.filter((i) => !sample.includes(i));
    const picked = [...sample, ...rest.filter((_, k) => k % 2 === 0).slice(0, n - sample.length)].sort((a, b) => a - b);
    expect(picked.length).toBe(n);
    const forged = judge(forge(picked));
    const d = forged.session.detection();
    expect(d.dataCommit).toBe(PINNED);
    expect(d.rule).toBe(whole.rule);
    expect(verdicts(forged.reports)).toEqual(verdicts(whole.reports));
    expect(d.hashes!.fits.map((f) => [f.commit, f.episodes.length])).toEqual([
      [PINNED, recorded.length - n],
      [HISTORICAL, n],
    ]);
    expect(forged.reports.filter((r) => r.findings?.some((f) => f.kind === 'recorded-hash-minority')).map((r) => r.index)).toEqual(picked);
  });

  it('streamed: the provisional choice from the sample is overturned by the rest, and the verdicts made under it are made again', () => {
    const whole = evaluatedSharedRun(FILE);
    const s = new InspectSession(forge(sample));
    s.useData(sharedVersions(s.domain));
    // Provisional, from the four sampled hashes, all forged.
    expect(s.detection()).toMatchObject({ dataCommit: HISTORICAL, dataFinal: false, hashes: null, dataOverturned: null });
    for (let i = 0; i < s.records.length; i++) s.evaluate(i);
    const provisional = s.summaries().map((x) => x.reward);
    expect(s.finish()).toBe(true);
    const d = s.detection();
    expect(d).toMatchObject({ dataCommit: PINNED, dataFinal: true, dataOverturned: HISTORICAL, rule: whole.rule });
    expect(d.versionWhy).toMatch(/overturns 7362a17, chosen at first from a sample of recorded hashes/);
    const settled = s.summaries().map((x) => x.reward);
    expect(settled).toEqual(whole.session.summaries().map((x) => x.reward));
    // The provisional verdicts were not the real ones: re-judging changed some.
    expect(settled).not.toEqual(provisional);
  });

  it('the telling rewards are counted in typed fields', () => {
    const d = evaluatedSharedRun(FILE).session.detection();
    expect(d.rewards).not.toBeNull();
    const fits = d.rewards!.fits;
    expect(fits['db-and-outputs'].length + fits['outputs-only'].length).toBeLessThanOrEqual(d.rewards!.telling);
    expect(d.ruleWhy).toContain(`of ${d.rewards!.telling} recorded rewards the rules judge differently, ${fits['db-and-outputs'].length} fit db-and-outputs`);
  });
});
