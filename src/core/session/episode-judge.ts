/**
 * Judging an episode away from its session (another worker: see src/worker/judge-helper): from the
 * episode's text as it is in the results file and the session's data snapshot, the verdicts the
 * session keeps of it (`EpisodeVerdicts`), which the session then adopts (`InspectSession.adoptVerdicts`)
 * as if it had judged the episode itself. Same record, same evaluation, same rows.
 */
import { reviveDb, type Domain } from '../model/data/db';
import type { DataVersion, RewardRule } from '../model/data/versions';
import { parsedRecord } from '../model/episode/lazy-records';
import { EvalCache } from '../judge/cache';
import { ruleEvidence, type RuleEvidence } from '../judge/detect';
import { evaluateEpisode, type EpisodeOutcome } from '../judge/evaluate';
import { episodeSummary, type EpisodeSummary } from '../view/summary';
import { episodeReport } from '../view/report-json';
import { inertJson } from '../view/inert-json';
import type { DataSnapshot } from './session-types';

/** What a session keeps of an evaluated episode: its row under either rule, and the evidence for the rule (without the record, which the session has). */
export interface EpisodeVerdicts {
  readonly summaries: Readonly<Record<RewardRule, EpisodeSummary>>;
  readonly evidence: Omit<RuleEvidence, 'record'> | null;
}

/** The verdicts of an outcome (what `InspectSession` keeps of each episode it judges). */
export function verdictsOf(o: EpisodeOutcome): EpisodeVerdicts {
  let evidence: Omit<RuleEvidence, 'record'> | null = null;
  if (o.ok) {
    const { record: _record, ...rest } = ruleEvidence(o.value);
    evidence = rest;
  }
  return { summaries: { 'db-and-outputs': episodeSummary(o, 'db-and-outputs'), 'outputs-only': episodeSummary(o, 'outputs-only') }, evidence };
}

/** A data version as sent beside its snapshot (the DB travels in the snapshot). */
export type VersionFacts = Omit<DataVersion, 'db'>;

/**
 * Judges episodes of one domain on one data version, from a session's `dataSnapshot()` (structured
 * cloned to another worker): the DB frozen again and the session's work on it (the initial DB's hash,
 * reference-replay hashes) taken over, so nothing is hashed twice.
 */
export class EpisodeJudge {
  private readonly cache = new EvalCache();
  private readonly version: DataVersion;

  /** Throws when the snapshot holds no DB of `domain`. */
  constructor(
    private readonly domain: Domain,
    facts: VersionFacts,
    snapshot: DataSnapshot,
  ) {
    if (snapshot.domain !== domain) throw new Error(`the data snapshot is of the ${snapshot.domain} domain, not ${domain}`);
    const db = reviveDb(domain, snapshot.db);
    // Work that does not fit this DB is not taken over; hashes are then computed here.
    this.cache.adopt(db, snapshot.work);
    this.version = { commit: facts.commit, known: facts.known, source: facts.source, ...(facts.label !== undefined && { label: facts.label }), db };
  }

  /** The verdicts of episode `index`, whose JSON text (an element of the results list) is `text`. */
  judge(text: string, index: number): EpisodeVerdicts {
    return verdictsOf(evaluateEpisode(parsedRecord(text, index), this.domain, this.version, this.cache));
  }

  /**
   * Episode `index`'s JSON report line under `rule` (the CLI's `evaluate --json` line, `"revised": true` when
   * asked), as the session's `reportOf` makes it for an episode the file's other episodes say nothing about
   * (no file finding: the caller makes the line itself for one that has some), with its verdicts and whether
   * its recorded gt_data_hash differs from the one this version gives (`misfit`: such a line may yet change).
   */
  reportLine(
    text: string,
    index: number,
    rule: RewardRule,
    revised: boolean,
  ): { readonly line: string; readonly misfit: boolean; readonly verdicts: EpisodeVerdicts } {
    const o = evaluateEpisode(parsedRecord(text, index), this.domain, this.version, this.cache);
    const report = episodeReport(o, this.domain, this.version, rule, []);
    const misfit = o.ok && o.value.recordedGtHash !== null && o.value.recordedGtHash !== o.value.gtHash;
    return { line: inertJson(revised ? { ...report, revised: true } : report), misfit, verdicts: verdictsOf(o) };
  }
}
