import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../../src/core/model/domains/registry';
import { findings } from '../../../src/core/view/findings';
import { explicitYes } from '../../../src/core/view/procedure';
import type { EpisodeEvaluation } from '../../../src/core/judge/evaluate';
import { evaluatedSample, evaluatedSharedRun, sharedRunFiles } from '../../support/fixtures';
import { describeShared } from '../../support/shared';

describe('explicitYes: a go-ahead in the user’s words, unless negated in its sentence', () => {
  it.each([
    ['Yes, please cancel it.', true],
    ['yeah go ahead', true],
    ['I confirm.', true],
    ['No, wait. Yes, go ahead.', true],
    ['Sounds good — please do.', true],
    ['No, don’t proceed.', false],
    ['Please do not go ahead with that.', false],
    ["I can't confirm that yet.", false],
    ['No, I do not want you to proceed', false],
    ['Please cancel my order.', false],
    ['Sure, that is correct.', false],
    ["Don't proceed. Actually yes, proceed.", true],
  ] as const)('%s → %s', (text, yes) => expect(explicitYes(text)).toBe(yes));
});

/**
 * The synthetic runs pair `gold` episodes (a confirmation turn before each write) with
 * `gold-no-consent` ones (the same writes, no confirmation; τ-bench still gives 1): the
 * procedure check must flag every write of the latter and none of the former.
 */
describeShared('procedure notes: writes without consent (not judged by τ-bench)', () => {
  const files = sharedRunFiles().filter((f) => f.startsWith('synthetic-') && f.includes('gold+gold-no-consent'));
  it('has the gold / gold-no-consent files', () => expect(files.length).toBeGreaterThanOrEqual(2));

  it.each(files)('%s', (file) => {
    const r = evaluatedSharedRun(file);
    let gold = 0;
    let noConsent = 0;
    let goldWrites = 0;
    for (const o of r.outcomes) {
      if (!o.ok) continue;
      const ev: EpisodeEvaluation = o.value;
      const kind = ev.record.extra.synthetic_kind;
      // The reference writes the agent repeats and that succeeded (gold-no-consent drops the confirmation before each).
      const writes = ev.replay.steps.filter(
        (s) =>
          TOOLS[ev.domain].get(s.action.name)?.writes === true &&
          ev.groundTruth.steps.some((g) => g.action.name === s.action.name) &&
          !s.observation.startsWith('Error'),
      );
      const flagged = findings(ev, r.version, r.rule).filter((n) => n.kind === 'write-without-consent');
      if (kind === 'gold') {
        gold++;
        goldWrites += writes.length;
        expect(flagged, `gold episode ${ev.record.index}`).toEqual([]);
      } else if (kind === 'gold-no-consent') {
        noConsent++;
        expect(
          flagged.map((n) => n.step),
          `gold-no-consent episode ${ev.record.index}`,
        ).toEqual(writes.map((s) => s.index));
      }
    }
    expect(gold).toBeGreaterThan(10);
    expect(noConsent).toBeGreaterThan(10);
    expect(goldWrites, 'writes in gold episodes (all confirmed)').toBeGreaterThan(10);
  });
});

describe('procedure notes on the sample run', () => {
  it('flags the return done without consent and notes that a return only records a request', () => {
    const { session } = evaluatedSample();
    const slip = session.view(4);
    const clean = session.view(0);
    if ('error' in slip || 'error' in clean) throw new Error('not evaluable');
    expect(slip.verdict.reward).toBe(1);
    expect(slip.findings.filter((n) => n.group === 'procedure').map((n) => n.kind)).toEqual(['write-without-consent', 'return-only-records-request']);
    expect(clean.findings).toEqual([]);
  });
});
