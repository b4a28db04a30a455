/** Detection of a results file's reward rule, and the notes on recorded rewards that disagree. */
import { isPartialCredit } from './domain';
import { shortCommit, type DataVersion, type RewardRule } from '../../model/data/versions';
import type { EpisodeRecord } from '../../model/episode/types';
import { finalReward, type EpisodeEvaluation, type RewardFacts } from '../evaluate';

/** What rule detection and the disagreement notes read of an episode's evaluation (small enough to keep for every episode). */
export interface RuleEvidence extends RewardFacts {
  readonly record: Pick<EpisodeRecord, 'index' | 'recordedReward' | 'task'>;
  readonly recordedGtHash: string | null;
  readonly gtHash: string;
}

/** The part of an evaluation `detectRule` and `disagreementNotes` need. */
export function ruleEvidence(e: EpisodeEvaluation): RuleEvidence {
  const r = e.record;
  return {
    record: { index: r.index, recordedReward: r.recordedReward, task: r.task },
    replay: { done: e.replay.done },
    verdicts: { 'db-and-outputs': { reward: e.verdicts['db-and-outputs'].reward }, 'outputs-only': { reward: e.verdicts['outputs-only'].reward } },
    recordedGtHash: e.recordedGtHash,
    gtHash: e.gtHash,
  };
}

/** The first eight episodes' indices, and an ellipsis for more. */
function indexList(es: readonly RuleEvidence[]): string {
  return (
    es
      .slice(0, 8)
      .map((e) => e.record.index)
      .join(', ') + (es.length > 8 ? ', …' : '')
  );
}

/** What every telling recorded reward says about the rule (plain data). */
export interface RewardEvidence {
  /** Ended episodes with required outputs and a recorded reward that the two rules judge differently. */
  readonly telling: number;
  /** Per rule, the telling episodes whose recorded reward it gives. */
  readonly fits: Readonly<Record<RewardRule, readonly number[]>>;
}

export interface RuleDetection {
  readonly rule: RewardRule;
  readonly why: string;
  readonly evidence: RewardEvidence | null;
  /** Recorded rewards that favour the other rule, explained (never a reason to switch a known version's rule). */
  readonly notes: readonly string[];
}

/** Recorded rewards must fit the other rule in at least this many episodes, and this share of those that tell the rules apart, to move unknown data off τ-bench's current rule. */
const RULE_EVIDENCE_MIN = 3;
const RULE_EVIDENCE_SHARE = 0.8;

/**
 * The reward rule of a file. A known data version has the rule τ-bench had at that commit,
 * whatever the file records: recorded rewards of one episode never change the verdict of
 * another. For data tau-inspect does not know, τ-bench's current rule, unless the recorded
 * rewards of episodes the rules judge differently clearly (≥ 3 and ≥ 80 % of them) fit the
 * other. Disagreeing evidence is reported, not obeyed.
 */
export function detectRule(evals: readonly RuleEvidence[], version: DataVersion): RuleDetection {
  const fallback: RewardRule = version.known?.rule ?? 'db-and-outputs';
  const other: RewardRule = fallback === 'db-and-outputs' ? 'outputs-only' : 'db-and-outputs';
  // Only episodes the two rules judge differently say anything about the rule.
  const telling = evals.filter(
    (e) =>
      e.replay.done &&
      (e.record.task?.outputs.length ?? 0) > 0 &&
      e.record.recordedReward !== null &&
      e.verdicts['db-and-outputs'].reward !== e.verdicts['outputs-only'].reward,
  );
  const fits = (rule: RewardRule): RuleEvidence[] => telling.filter((e) => e.verdicts[rule].reward === e.record.recordedReward);
  const own = fits(fallback);
  const against = fits(other);
  const counted: RewardEvidence = {
    telling: telling.length,
    fits: { [fallback]: own.map((e) => e.record.index), [other]: against.map((e) => e.record.index) } as Record<RewardRule, number[]>,
  };
  const evidence =
    telling.length === 0
      ? 'no ended episode with required outputs tells the rules apart'
      : `of ${telling.length} recorded rewards the rules judge differently, ${own.length} fit ${fallback} and ${against.length} fit ${other}`;
  if (version.known) {
    const notes =
      against.length > own.length
        ? [
            `recorded rewards fit ${other} better than ${fallback}, τ-bench's rule at ${shortCommit(version.commit)} (${against.length} of ${telling.length} telling episodes: ${indexList(against)}): this file's evaluator judged differently, or those rewards were edited; verdicts keep ${fallback}`,
          ]
        : [];
    return { rule: fallback, why: `${fallback} is the rule τ-bench had at ${shortCommit(version.commit)} (${evidence})`, notes, evidence: counted };
  }
  const clear = against.length >= RULE_EVIDENCE_MIN && against.length >= RULE_EVIDENCE_SHARE * telling.length;
  if (clear)
    return {
      rule: other,
      why: `unknown data: ${evidence}, a clear majority (≥ ${RULE_EVIDENCE_MIN} and ≥ ${RULE_EVIDENCE_SHARE * 100} %)`,
      notes: [],
      evidence: counted,
    };
  return {
    rule: fallback,
    why: `${fallback} is τ-bench's current rule, the default for data it does not know (${evidence})`,
    evidence: counted,
    notes:
      against.length > own.length
        ? [
            `recorded rewards lean to ${other} (${against.length} of ${telling.length}: episodes ${indexList(against)}) but not clearly enough (≥ ${RULE_EVIDENCE_MIN} and ≥ ${RULE_EVIDENCE_SHARE * 100} %) to change the rule; verdicts keep ${fallback}`,
          ]
        : [],
  };
}

/** What a file's own content shows that τ-bench's run.py does not write (known at reading, before any data). */
export const hasFractionalRewards = (records: readonly EpisodeRecord[]): boolean => records.some((r) => isPartialCredit(r.recordedReward));

/** After evaluation: recorded rewards that disagree and are not explained by a note above, in words. */
export function disagreementNotes(evals: readonly RuleEvidence[], rule: RewardRule, explained: boolean): string[] {
  const off = evals.filter((e) => e.record.recordedReward !== null && finalReward(e, rule) !== e.record.recordedReward);
  if (off.length === 0 || explained) return [];
  const sameRef = off.filter((e) => e.recordedGtHash !== null && e.recordedGtHash === e.gtHash);
  const otherRef = off.filter((e) => e.recordedGtHash !== null && e.recordedGtHash !== e.gtHash);
  const notes: string[] = [];
  if (sameRef.length > 0)
    notes.push(
      `${sameRef.length} episodes (${indexList(sameRef)}) get another reward than recorded although their recorded reference hash is reproduced: the DB their agent's actions leave here differs from the one the producer hashed, so the producer's tools or evaluator behaved differently from τ-bench's (or those rewards were edited)`,
    );
  if (otherRef.length > 0)
    notes.push(
      `${otherRef.length} episodes (${indexList(otherRef)}) disagree and their recorded reference hash is not reproduced: the producer's reference DB differs (other data, or another hash construction)`,
    );
  const rest = off.length - sameRef.length - otherRef.length;
  if (rest > 0)
    notes.push(
      `${rest} episodes without a recorded reference hash get another reward than recorded (${indexList(off.filter((e) => e.recordedGtHash === null))}); their verdicts say why`,
    );
  return notes;
}
