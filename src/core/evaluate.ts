import { diffRecords, type RecordDiff } from './analysis/diff-records';
import type { Db, Domain } from './data/db';
import { DOMAINS } from './data/db';
import { PINNED_COMMIT, shortCommit, type DataVersion } from './data/versions';
import { domainOnlyTools } from './domains/registry';
import { agentSteps, detectStrategy } from './episode/actions';
import type { AgentStep, EpisodeRecord, Strategy } from './episode/types';
import { computeReward, groundTruthKey, replayGroundTruth, type GroundTruth, type RewardRule, type RewardVerdict } from './env/reward';
import { replayEpisode, type Replay } from './env/replay';
import { DbHasher } from './data/db-hash';

const RULES: readonly RewardRule[] = ['db-and-outputs', 'outputs-only'];

/** Memoises DB hashes and reference replays across the episodes of a session. */
export class EvalCache {
  private readonly hashes = new WeakMap<Db, string>();
  private readonly hashers = new WeakMap<Db, DbHasher>();
  private readonly gts = new Map<string, { gt: GroundTruth; hash: string }>();

  /** The DB hash of `db`, a state derived from `base` (hashing resumes where they part). */
  hash(db: Db, base: Db = db): string {
    let h = this.hashes.get(db);
    if (h === undefined) {
      let hasher = this.hashers.get(base);
      if (!hasher) {
        hasher = new DbHasher(base);
        this.hashers.set(base, hasher);
      }
      h = hasher.hash(db);
      this.hashes.set(db, h);
    }
    return h;
  }

  groundTruth(domain: Domain, version: DataVersion, record: EpisodeRecord): { gt: GroundTruth; hash: string } {
    const task = record.task!;
    const key = `${version.commit}|${groundTruthKey(domain, task)}`;
    let hit = this.gts.get(key);
    if (!hit) {
      const gt = replayGroundTruth(domain, version.db, task.actions);
      hit = { gt, hash: this.hash(gt.state, version.db) };
      this.gts.set(key, hit);
    }
    return hit;
  }
}

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

export interface EpisodeEvaluation {
  readonly record: EpisodeRecord;
  readonly domain: Domain;
  readonly strategy: Strategy;
  readonly agentSteps: readonly AgentStep[];
  readonly replay: Replay;
  readonly groundTruth: GroundTruth;
  readonly agentHash: string;
  readonly gtHash: string;
  /** The verdict under each rule; the file's rule picks which one applies. */
  readonly verdicts: Readonly<Record<RewardRule, RewardVerdict>>;
  readonly diff: readonly RecordDiff[];
  /** Recorded `reward_info.info.gt_data_hash`, when the file has one. */
  readonly recordedGtHash: string | null;
}

export type EpisodeOutcome = { readonly ok: true; readonly value: EpisodeEvaluation } | { readonly ok: false; readonly record: EpisodeRecord; readonly error: string };

export function recordedGtHash(record: EpisodeRecord): string | null {
  const info = record.recordedRewardInfo?.get('info');
  const h = info instanceof Map ? info.get('gt_data_hash') : undefined;
  return typeof h === 'string' ? h : null;
}

/** Replays one episode and judges it under every rule. Never throws for bad input. */
export function evaluateEpisode(
  record: EpisodeRecord,
  domain: Domain,
  version: DataVersion,
  cache: EvalCache,
  edit?: (steps: AgentStep[]) => AgentStep[],
): EpisodeOutcome {
  if (record.problem !== null || record.task === null) return { ok: false, record, error: record.problem ?? 'no task' };
  try {
    const strategy = detectStrategy(record.traj);
    const derived = agentSteps(record.traj, strategy);
    const steps = edit ? edit(derived) : derived;
    const replay = replayEpisode(domain, version.db, steps);
    const { gt, hash: gtHash } = cache.groundTruth(domain, version, record);
    const agentHash = cache.hash(replay.finalState, version.db);
    const task = record.task;
    const verdicts = Object.fromEntries(RULES.map((rule) => [rule, computeReward(rule, task, agentHash, gtHash, replay.steps)])) as Record<
      RewardRule,
      RewardVerdict
    >;
    const diff = agentHash === gtHash ? [] : diffRecords(replay.finalState, gt.state);
    return {
      ok: true,
      value: { record, domain, strategy, agentSteps: steps, replay, groundTruth: gt, agentHash, gtHash, verdicts, diff, recordedGtHash: recordedGtHash(record) },
    };
  } catch (e) {
    return { ok: false, record, error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** τ-bench's reward: 0 when the episode never ended (the verdict is then hypothetical). */
export function finalReward(ev: EpisodeEvaluation, rule: RewardRule): number {
  return ev.replay.done ? ev.verdicts[rule].reward : 0;
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
  const ordered = [...versions].sort((a, b) => Number(hinted(b)) - Number(hinted(a)));
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
  return picked.filter((r) => cache.groundTruth(domain, version, r).hash === recordedGtHash(r)).length;
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

