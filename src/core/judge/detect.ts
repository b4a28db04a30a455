import type { Domain } from '../model/data/db';
import { DOMAINS } from '../model/data/db';
import { KNOWN_DATA_VERSIONS, PINNED_COMMIT, shortCommit, type DataVersion, type RewardRule } from '../model/data/versions';
import { domainOnlyTools } from '../model/domains/registry';
import type { EpisodeRecord } from '../model/episode/types';
import type { EvalCache } from './cache';
import { recordedGtHash, type EpisodeEvaluation } from './evaluate';

/**
 * Detection of a results file's domain, data version and reward rule, each with a sentence
 * saying why. The only place that decides them; the session asks here.
 */

export interface FileOptions {
  readonly domain?: Domain;
  /** Full or short commit to use instead of detecting the data version. */
  readonly dataVersion?: string;
  readonly rule?: RewardRule;
}

export class EvaluationSetupError extends Error {}

export interface DomainDetection {
  readonly domain: Domain | null;
  readonly why: string;
}

/** The domain of a whole results file, from tool names and policy headings. */
export function detectDomain(records: readonly EpisodeRecord[]): DomainDetection {
  const votes: Record<Domain, number> = { retail: 0, airline: 0 };
  const only = { retail: domainOnlyTools('retail'), airline: domainOnlyTools('airline') };
  const evidence: Record<Domain, Set<string>> = { retail: new Set(), airline: new Set() };
  const see = (name: string): void => {
    for (const d of DOMAINS)
      if (only[d].has(name)) {
        votes[d]++;
        evidence[d].add(name);
      }
  };
  for (const r of records) {
    for (const a of r.task?.actions ?? []) see(a.name);
    for (const m of r.traj) {
      const role = m.get('role');
      const content = m.get('content');
      if (role === 'system' && typeof content === 'string') {
        for (const d of DOMAINS)
          if (new RegExp(`#\\s*${d} agent policy`, 'i').test(content)) {
            votes[d] += 5;
            evidence[d].add('policy heading');
          }
      }
      if (role === 'tool') {
        const name = m.get('name');
        if (typeof name === 'string') see(name);
      }
      const calls = m.get('tool_calls');
      if (Array.isArray(calls))
        for (const c of calls) {
          const fn = c instanceof Map ? c.get('function') : undefined;
          const name = fn instanceof Map ? fn.get('name') : undefined;
          if (typeof name === 'string') see(name);
        }
      if (role === 'assistant' && typeof content === 'string' && content.includes('Action:'))
        for (const m2 of content.matchAll(/"name"\s*:\s*"([a-z_]+)"/g)) see(m2[1]!);
    }
  }
  if (votes.retail === 0 && votes.airline === 0) return { domain: null, why: 'no tool or policy heading that only one domain has' };
  const domain: Domain = votes.retail >= votes.airline ? 'retail' : 'airline';
  const other: Domain = domain === 'retail' ? 'airline' : 'retail';
  const names = [...evidence[domain]].slice(0, 4).join(', ');
  return {
    domain,
    why: `${votes[domain]} mentions of ${domain}-only tools or headings (${names})${votes[other] ? `, ${votes[other]} of ${other}` : ''}`,
  };
}

/** A cheap guess of the domain from the raw text, so data can be read while the file is parsed. */
export function guessDomainFromText(text: string): Domain | null {
  const score = (d: Domain): number => [...domainOnlyTools(d)].filter((name) => text.includes(`"${name}"`)).length;
  const r = score('retail');
  const a = score('airline');
  return r === a ? null : r > a ? 'retail' : 'airline';
}

/**
 * A cheap guess, from the raw text, of the known data version `chooseVersion` tries first
 * (the address field the recorded tool outputs show, as `addressKeyHint` reads it from the
 * parsed file), so a cache can start loading it while the file is parsed.
 */
export function guessDataCommitFromText(text: string): string {
  // In the file, tool outputs are JSON inside JSON strings: their quotes are escaped.
  const province = text.includes('\\"address1\\"') && text.includes('\\"province\\"');
  return (KNOWN_DATA_VERSIONS.find((k) => k.rule === (province ? 'outputs-only' : 'db-and-outputs')) ?? KNOWN_DATA_VERSIONS[0]!).commit;
}

/** Chooses the domain of a results file (or takes the given one). */
export function chooseDomain(records: readonly EpisodeRecord[], options: FileOptions): DomainDetection & { readonly domain: Domain } {
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
): VersionDetection {
  if (versions.length === 0) throw new EvaluationSetupError(`no ${domain} data available`);
  if (options.dataVersion) {
    const v = versions.find((x) => x.commit.startsWith(options.dataVersion!));
    if (!v)
      throw new EvaluationSetupError(`data version ${options.dataVersion} is not loaded (have ${versions.map((x) => shortCommit(x.commit)).join(', ')})`);
    return { version: v, why: 'given' };
  }
  return detectDataVersion(records, domain, versions, cache);
}

/** The version `chooseVersion` tries first: the given one, else the one the recorded addresses point at. */
export function preferredVersion(records: readonly EpisodeRecord[], versions: readonly DataVersion[], options: FileOptions): DataVersion | null {
  if (options.dataVersion) return versions.find((x) => x.commit.startsWith(options.dataVersion!)) ?? null;
  return orderVersions(records, versions)[0] ?? null;
}

function orderVersions(records: readonly EpisodeRecord[], versions: readonly DataVersion[]): DataVersion[] {
  const hint = addressKeyHint(records);
  const hinted = (v: DataVersion): boolean => (hint === 'province' ? v.known?.rule === 'outputs-only' : v.known?.rule === 'db-and-outputs');
  return [...versions].sort((a, b) => Number(hinted(b)) - Number(hinted(a)));
}

export interface VersionDetection {
  readonly version: DataVersion;
  readonly why: string;
}

/**
 * Picks the data version whose reference replay reproduces the recorded `gt_data_hash`
 * values (up to `sample` episodes that carry one), else the version whose address field
 * the recorded tool outputs show, else the pinned version.
 */
export function detectDataVersion(records: readonly EpisodeRecord[], domain: Domain, versions: readonly DataVersion[], cache: EvalCache, sample = 4): VersionDetection {
  if (versions.length === 0) throw new Error(`no ${domain} data available`);
  const hint = addressKeyHint(records);
  // Try the version the recorded tool outputs point at first: usually no other DB needs parsing.
  const hinted = (v: DataVersion): boolean => (hint === 'province' ? v.known?.rule === 'outputs-only' : v.known?.rule === 'db-and-outputs');
  const ordered = orderVersions(records, versions);
  const picked = recordedHashSample(records, sample);
  if (picked.length > 0) {
    const scores: { v: DataVersion; n: number }[] = [];
    for (const v of ordered) {
      const n = countRecordedMatches(picked, domain, v, cache);
      scores.push({ v, n });
      if (n === picked.length) break;
    }
    scores.sort((a, b) => b.n - a.n);
    const best = scores[0]!;
    if (best.n > 0)
      return {
        version: best.v,
        why: `its reference replay reproduces ${best.n} of ${picked.length} recorded gt_data_hash values checked${scores
          .slice(1)
          .map((s) => `; ${label(s.v)}: ${s.n}`)
          .join('')}`,
      };
  }
  if (hint) {
    const v = versions.find(hinted);
    if (v) return { version: v, why: `no recorded gt_data_hash matched; recorded tool outputs show user addresses with "${hint}"` };
  }
  const pinned = versions.find((v) => v.commit === PINNED_COMMIT) ?? versions[0]!;
  return { version: pinned, why: picked.length ? 'no data version reproduces the recorded gt_data_hash values; using the pinned version' : 'the file records no gt_data_hash; using the pinned version' };
}

/** Up to `sample` evaluable episodes that record a gt_data_hash, spread over the file. */
export function recordedHashSample(records: readonly EpisodeRecord[], sample = 4): EpisodeRecord[] {
  return pickSpread(
    records.filter((r) => r.task !== null && r.problem === null && recordedGtHash(r) !== null),
    sample,
  );
}

/** How many of `picked` have their recorded gt_data_hash reproduced by the reference replay on `version`. */
export function countRecordedMatches(picked: readonly EpisodeRecord[], domain: Domain, version: DataVersion, cache: EvalCache): number {
  return picked.filter((r) => cache.groundTruthHash(domain, version, r) === recordedGtHash(r)).length;
}

function pickSpread<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

const label = (v: DataVersion): string => (v.commit.startsWith('unknown') ? v.commit : shortCommit(v.commit));

function addressKeyHint(records: readonly EpisodeRecord[]): 'state' | 'province' | null {
  for (const r of records)
    for (const m of r.traj) {
      const c = m.get('content');
      if (typeof c !== 'string' || !c.includes('"address1"')) continue;
      if (c.includes('"province"')) return 'province';
      if (/"country": "[^"]*", "state"/.test(c)) return 'state';
    }
  return null;
}

export interface RuleDetection {
  readonly rule: RewardRule;
  readonly why: string;
}

/** The rule that reproduces most recorded rewards of ended episodes with outputs; else the version's own rule. */
export function detectRule(evals: readonly EpisodeEvaluation[], version: DataVersion): RuleDetection {
  const fallback: RewardRule = version.known?.rule ?? 'db-and-outputs';
  const relevant = evals.filter((e) => e.replay.done && (e.record.task?.outputs.length ?? 0) > 0 && e.record.recordedReward !== null);
  const score = (rule: RewardRule): number => relevant.filter((e) => e.verdicts[rule].reward === e.record.recordedReward).length;
  const s = { 'db-and-outputs': score('db-and-outputs'), 'outputs-only': score('outputs-only') };
  const because = version.known
    ? `${fallback} is the rule τ-bench had at ${shortCommit(version.commit)}`
    : `${fallback} is τ-bench's current rule, the default for data it does not know`;
  if (relevant.length === 0 || s['db-and-outputs'] === s['outputs-only'])
    return {
      rule: fallback,
      why:
        relevant.length === 0
          ? `no ended episode with required outputs tells the rules apart; ${because}`
          : `both rules reproduce ${s[fallback]} of ${relevant.length} recorded rewards of output tasks; ${because}`,
    };
  const rule: RewardRule = s['db-and-outputs'] > s['outputs-only'] ? 'db-and-outputs' : 'outputs-only';
  const other: RewardRule = rule === 'db-and-outputs' ? 'outputs-only' : 'db-and-outputs';
  return { rule, why: `reproduces ${s[rule]} of ${relevant.length} recorded rewards of episodes with required outputs (${other}: ${s[other]})` };
}

