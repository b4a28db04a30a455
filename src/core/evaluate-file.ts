import type { Domain } from './data/db';
import { shortCommit, type DataVersion } from './data/versions';
import type { EpisodeRecord } from './episode/types';
import type { RewardRule } from './env/reward';
import {
  detectDataVersion,
  detectDomain,
  detectRule,
  evaluateEpisode,
  EvalCache,
  type EpisodeEvaluation,
  type EpisodeOutcome,
} from './evaluate';
import { episodeReport, type EpisodeReport } from './report';

export interface FileEvaluation {
  readonly domain: Domain;
  readonly domainWhy: string;
  readonly version: DataVersion;
  readonly versionWhy: string;
  readonly rule: RewardRule;
  readonly ruleWhy: string;
  readonly outcomes: readonly EpisodeOutcome[];
  readonly reports: readonly EpisodeReport[];
}

export interface FileOptions {
  readonly domain?: Domain;
  /** Full or short commit to use instead of detecting the data version. */
  readonly dataVersion?: string;
  readonly rule?: RewardRule;
}

export class EvaluationSetupError extends Error {}

/** Chooses the domain of a results file (or takes the given one). */
export function chooseDomain(records: readonly EpisodeRecord[], options: FileOptions): { domain: Domain; why: string } {
  if (options.domain) return { domain: options.domain, why: 'given' };
  const d = detectDomain(records);
  if (!d.domain) throw new EvaluationSetupError(`cannot tell the domain (${d.why})`);
  return { domain: d.domain, why: d.why };
}

/** Chooses the data version (or takes the given one). */
export function chooseVersion(
  records: readonly EpisodeRecord[],
  domain: Domain,
  versions: readonly DataVersion[],
  cache: EvalCache,
  options: FileOptions,
): { version: DataVersion; why: string } {
  if (versions.length === 0) throw new EvaluationSetupError(`no ${domain} data available`);
  if (options.dataVersion) {
    const v = versions.find((x) => x.commit.startsWith(options.dataVersion!));
    if (!v)
      throw new EvaluationSetupError(`data version ${options.dataVersion} is not loaded (have ${versions.map((x) => shortCommit(x.commit)).join(', ')})`);
    return { version: v, why: 'given' };
  }
  const d = detectDataVersion(records, domain, versions, cache);
  return { version: d.version, why: d.why };
}

/** Detects domain, data version and rule, then evaluates every episode of a results file. */
export function evaluateFile(
  records: readonly EpisodeRecord[],
  versionsFor: (domain: Domain) => readonly DataVersion[],
  options: FileOptions = {},
  cache = new EvalCache(),
): FileEvaluation {
  const { domain, why: domainWhy } = chooseDomain(records, options);
  const { version, why: versionWhy } = chooseVersion(records, domain, versionsFor(domain), cache, options);
  const outcomes = records.map((r) => evaluateEpisode(r, domain, version, cache));
  const evals = outcomes.filter((x): x is { ok: true; value: EpisodeEvaluation } => x.ok).map((x) => x.value);
  const rule = options.rule ? { rule: options.rule, why: 'given' } : detectRule(evals, version);
  const reports = outcomes.map((x) => episodeReport(x, domain, version, rule.rule));
  return { domain, domainWhy, version, versionWhy, rule: rule.rule, ruleWhy: rule.why, outcomes, reports };
}
