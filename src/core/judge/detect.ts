import type { Domain } from '../model/data/db';
import { DOMAINS } from '../model/data/db';
import { KNOWN_DATA_VERSIONS, PINNED_COMMIT, shortCommit, type DataVersion, type RewardRule } from '../model/data/versions';
import { domainOnlyTools } from '../model/domains/registry';
import type { EpisodeRecord } from '../model/episode/types';
import type { EvalCache } from './cache';
import { finalReward, recordedGtHash, type EpisodeEvaluation, type RewardFacts } from './evaluate';
import { dumpsFloat } from '../py/json-dumps';

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
  return tallyOf(records).domain();
}

type AddressHint = 'state' | 'province' | null;

/**
 * What detection needs from every episode's messages, gathered one episode at a time (in file
 * order), so a reader can let go of each episode's messages once it has been added: the domain
 * votes, the notes on the file's content, the address-field hint.
 */
export class FileTally {
  private readonly votes: Record<Domain, number> = { retail: 0, airline: 0 };
  private readonly only = { retail: domainOnlyTools('retail'), airline: domainOnlyTools('airline') };
  private readonly evidence: Record<Domain, Set<string>> = { retail: new Set(), airline: new Set() };
  private count = 0;
  private episodes = 0;
  private firstProblem: EpisodeRecord | null = null;
  private fractional = 0;
  private firstFractional: EpisodeRecord | null = null;
  private odd = 0;
  private firstOdd: EpisodeRecord | null = null;
  private literal = 0;
  private think = 0;
  private readonly roles = new Map<string, number>();
  private readonly firstLiteral: number[] = [];
  private hint: AddressHint = null;
  private hintAt = Infinity;

  /** Adds an episode (episodes with messages in file order; the order of others does not matter). */
  add(r: EpisodeRecord): void {
    this.count++;
    if (r.task !== null || r.traj.length > 0) this.episodes++;
    if (r.problem !== null && (this.firstProblem === null || r.index < this.firstProblem.index)) this.firstProblem = r;
    if (isOddReward(r)) {
      this.odd++;
      if (this.firstOdd === null || r.index < this.firstOdd.index) this.firstOdd = r;
    }
    if (isPartialCredit(r.recordedReward)) {
      this.fractional++;
      if (this.firstFractional === null || r.index < this.firstFractional.index) this.firstFractional = r;
    }
    for (const a of r.task?.actions ?? []) this.see(a.name);
    let rl = false;
    let rt = false;
    for (const m of r.traj) {
      const role = m.get('role');
      const content = m.get('content');
      if (role === 'system' && typeof content === 'string') {
        for (const d of DOMAINS)
          if (new RegExp(`#\\s*${d} agent policy`, 'i').test(content)) {
            this.votes[d] += 5;
            this.evidence[d].add('policy heading');
          }
      }
      if (role === 'tool') {
        const name = m.get('name');
        if (typeof name === 'string') this.see(name);
      }
      if (typeof role === 'string' && !['system', 'user', 'assistant', 'tool'].includes(role)) this.roles.set(role, (this.roles.get(role) ?? 0) + 1);
      if (typeof content === 'string' && content.includes('<think>')) rt = true;
      const calls = m.get('tool_calls');
      if (Array.isArray(calls))
        for (const c of calls) {
          const fn = c instanceof Map ? c.get('function') : undefined;
          const name = fn instanceof Map ? fn.get('name') : undefined;
          if (typeof name === 'string') this.see(name);
          const args = fn instanceof Map ? fn.get('arguments') : undefined;
          if (typeof args === 'string' && /^\s*\{\s*'/.test(args)) rl = true;
        }
      if (role === 'assistant' && typeof content === 'string' && content.includes('Action:'))
        for (const m2 of content.matchAll(/"name"\s*:\s*"([a-z_]+)"/g)) this.see(m2[1]!);
      if (r.index < this.hintAt && typeof content === 'string' && content.includes('"address1"')) {
        const h = content.includes('"province"') ? 'province' : /"country": "[^"]*", "state"/.test(content) ? 'state' : null;
        if (h) {
          this.hint = h;
          this.hintAt = r.index;
        }
      }
    }
    if (rl) {
      this.literal++;
      if (this.firstLiteral.length < 5) this.firstLiteral.push(r.index);
    }
    if (rt) this.think++;
  }

  private see(name: string): void {
    for (const d of DOMAINS)
      if (this.only[d].has(name)) {
        this.votes[d]++;
        this.evidence[d].add(name);
      }
  }

  domain(): DomainDetection {
    const votes = this.votes;
    if (votes.retail === 0 && votes.airline === 0) return { domain: null, why: 'no tool or policy heading that only one domain has' };
    const domain: Domain = votes.retail >= votes.airline ? 'retail' : 'airline';
    const other: Domain = domain === 'retail' ? 'airline' : 'retail';
    const names = [...this.evidence[domain]].slice(0, 4).join(', ');
    return {
      domain,
      why: `${votes[domain]} mentions of ${domain}-only tools or headings (${names})${votes[other] ? `, ${votes[other]} of ${other}` : ''}`,
    };
  }

  /** Chooses the domain of the file (or takes the given one). */
  chooseDomain(options: FileOptions): DomainDetection & { readonly domain: Domain } {
    if (this.episodes === 0) {
      if (this.count === 0) throw new EvaluationSetupError('no episodes: the file is an empty list');
      const first = this.firstProblem;
      throw new EvaluationSetupError(
        `no episodes: none of the file's ${this.count} entries holds a task or a message${first ? ` (episode ${first.index}: ${first.problem})` : ''}`,
      );
    }
    if (options.domain) return { domain: options.domain, why: 'given' };
    const d = this.domain();
    if (!d.domain) throw new EvaluationSetupError(`cannot tell the domain (${d.why})`);
    return { domain: d.domain, why: d.why };
  }

  /** The first recorded address (in file order) says which field names the data has. */
  addressHint(): AddressHint {
    return this.hint;
  }

  /** What the file's own content shows that τ-bench's run.py does not write (known at reading, before any data). */
  notes(): string[] {
    const notes: string[] = [];
    if (this.fractional > 0)
      notes.push(
        `${this.fractional} of ${this.count} episodes record a reward strictly between 0 and 1 (e.g. episode ${this.firstFractional!.index}: ${dumpsFloat(
          this.firstFractional!.recordedReward!,
        )}): τ-bench's rewards are 0.0 or 1.0, so this file was scored by another evaluator (partial credit); tau-inspect gives τ-bench's reward, which cannot equal such a value`,
      );
    if (this.odd > 0) {
      const r = this.firstOdd!;
      notes.push(
        `${this.odd} of ${this.count} episodes record a reward τ-bench never writes (e.g. episode ${r.index}: ${r.recordedRewardText ?? dumpsFloat(r.recordedReward!)}): shown as recorded, not counted as a recorded reward; each is judged as usual`,
      );
    }
    const { literal, think, roles, firstLiteral } = this;
    if (literal > 0)
      notes.push(
        `${literal} episodes write tool arguments as Python literals ({'key': 'value'}) rather than JSON (episodes ${firstLiteral.join(', ')}${
          literal > 5 ? ', …' : ''
        }): τ-bench's json.loads rejects them, so those calls are judged as the crash τ-bench's agent would have had`,
      );
    if (think > 0)
      notes.push(
        `${think} episodes carry <think> blocks (a reasoning model's thoughts) in their messages: τ-bench keeps them in the text, so they count when required outputs are looked for`,
      );
    if (roles.size > 0)
      notes.push(
        `messages with roles τ-bench does not write (${[...roles].map(([k, n]) => `${JSON.stringify(k)} ×${n}`).join(', ')}): they are shown; τ-bench's actions come only from assistant messages`,
      );
    return notes;
  }
}

/** The tally of a list of episodes (kept per list, so asking again costs nothing). */
const tallies = new WeakMap<readonly EpisodeRecord[], FileTally>();
export function tallyOf(records: readonly EpisodeRecord[]): FileTally {
  let t = tallies.get(records);
  if (!t) {
    t = new FileTally();
    for (const r of records) t.add(r);
    tallies.set(records, t);
  }
  return t;
}

/** Records `tally` as the tally of `records` (a reader that tallied while reading). */
export function rememberTally(records: readonly EpisodeRecord[], tally: FileTally): void {
  tallies.set(records, tally);
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
  return tallyOf(records).chooseDomain(options);
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
    if (!v) throw new EvaluationSetupError(`data version ${options.dataVersion} is not loaded (have ${versions.map((x) => shortCommit(x.commit)).join(', ')})`);
    return { version: v, why: 'given', notes: [] };
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
  /** Recorded values no τ-bench version produces, explained. */
  readonly notes: readonly string[];
  /** The recorded reference hashes show an evaluator other than τ-bench's (reward disagreements follow from it). */
  readonly otherEvaluator?: boolean;
}

/**
 * Picks the data version whose reference replay reproduces the recorded `gt_data_hash`
 * values (up to `sample` episodes that carry one), else the version whose initial DB the
 * recorded values are (an evaluator that did not replay the reference), else the version whose
 * address field the recorded tool outputs show, else the pinned version. `notes` explain
 * recorded values that no τ-bench version produces.
 */
export function detectDataVersion(
  records: readonly EpisodeRecord[],
  domain: Domain,
  versions: readonly DataVersion[],
  cache: EvalCache,
  sample = 4,
): VersionDetection {
  if (versions.length === 0) throw new Error(`no ${domain} data available`);
  const notes: string[] = [];
  const hint = addressKeyHint(records);
  // Try the version the recorded tool outputs point at first: usually no other DB needs parsing.
  const hinted = (v: DataVersion): boolean => (hint === 'province' ? v.known?.rule === 'outputs-only' : v.known?.rule === 'db-and-outputs');
  const ordered = orderVersions(records, versions);
  const withHash = records.filter((r) => r.task !== null && r.problem === null && recordedGtHash(r) !== null);
  const picked = recordedHashSample(records, sample);
  // Recorded reference hashes that are an untouched initial DB: that evaluator did not replay the reference actions.
  const initial = initialHashes(domain, versions, cache);
  const initialCount = new Map<string, number>();
  for (const r of withHash) {
    const h = recordedGtHash(r)!;
    if (initial.has(h)) initialCount.set(h, (initialCount.get(h) ?? 0) + 1);
  }
  const [initialHash, initialN] = [...initialCount].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
  const noReplay = initialHash !== null && initialN * 2 > withHash.length;
  if (noReplay) {
    notes.push(
      `this file's reference hash is the initial database: ${
        initialN === withHash.length
          ? `every recorded gt_data_hash (${initialN} of ${initialN}) is`
          : `${initialN} of ${withHash.length} recorded gt_data_hash values are`
      } the hash of the untouched ${initial.get(initialHash)} ${domain} DB, so its evaluator did not replay the reference actions; its recorded rewards are not τ-bench's, and tau-inspect judges each episode by τ-bench's rule (the reference actions replayed), so recorded and recomputed rewards disagree wherever the agent changed the DB`,
    );
  }
  if (picked.length > 0) {
    const scores: { v: DataVersion; n: number }[] = [];
    for (const v of ordered) {
      const n = countRecordedMatches(picked, domain, v, cache);
      scores.push({ v, n });
      if (n === picked.length) break;
    }
    scores.sort((a, b) => b.n - a.n);
    const best = scores[0]!;
    const others = scores
      .slice(1)
      .map((s) => `; ${label(s.v)}: ${s.n}`)
      .join('');
    if (best.n > 0 && !(noReplay && best.n * 2 <= picked.length)) {
      if (best.n < picked.length && !noReplay)
        notes.push(
          `only ${best.n} of ${picked.length} recorded gt_data_hash values checked are reproduced by ${label(best.v)}: the others were computed on other data or another way (a damaged or edited file, or a fork's evaluator)`,
        );
      return {
        version: best.v,
        why: `its reference replay reproduces ${best.n} of ${picked.length} recorded gt_data_hash values checked${others}`,
        notes: [...notes, ...unknownDataNote(best.v, domain, cache)],
        otherEvaluator: noReplay,
      };
    }
    if (noReplay) {
      const v = versions.find((x) => initialHashOf(x, domain, cache) === initialHash)!;
      return {
        version: v,
        why: `the recorded gt_data_hash values are its initial DB (${initialN} of ${withHash.length})`,
        notes: [...notes, ...unknownDataNote(v, domain, cache)],
        otherEvaluator: true,
      };
    }
    notes.push(
      `none of the ${picked.length} recorded gt_data_hash values checked is reproduced by a loaded data version (${scores.map((s) => label(s.v)).join(', ')}) nor is an initial DB: they were computed on other data (a fork's modified data: give its checkout with --data) or by another construction, so recorded rewards cannot be checked against τ-bench's`,
    );
  }
  if (hint) {
    const v = versions.find(hinted);
    if (v)
      return {
        version: v,
        why: `${picked.length ? 'no recorded gt_data_hash matched' : 'the file records no gt_data_hash'}; recorded tool outputs show user addresses with "${hint}"`,
        notes: [...notes, ...unknownDataNote(v, domain, cache)],
        otherEvaluator: picked.length > 0,
      };
  }
  const pinned = versions.find((v) => v.commit === PINNED_COMMIT) ?? versions[0]!;
  return {
    version: pinned,
    why: picked.length
      ? 'no data version reproduces the recorded gt_data_hash values; using the pinned version'
      : 'the file records no gt_data_hash; using the pinned version',
    notes: [...notes, ...unknownDataNote(pinned, domain, cache)],
    otherEvaluator: picked.length > 0,
  };
}

/** The hash of a version's untouched DB (known versions carry it; others are hashed once). */
function initialHashOf(v: DataVersion, domain: Domain, cache: EvalCache): string {
  return v.known?.initialHash[domain] ?? cache.hash(v.db);
}

/** Initial DB hashes of every known version and of the loaded ones, each with its label. */
function initialHashes(domain: Domain, versions: readonly DataVersion[], cache: EvalCache): Map<string, string> {
  const out = new Map<string, string>(KNOWN_DATA_VERSIONS.map((k) => [k.initialHash[domain], shortCommit(k.commit)]));
  for (const v of versions) if (!v.known) out.set(initialHashOf(v, domain, cache), label(v));
  return out;
}

function unknownDataNote(v: DataVersion, domain: Domain, cache: EvalCache): string[] {
  if (v.known) return [];
  return [
    `the ${domain} data from ${v.source} is not a τ-bench version tau-inspect knows (initial DB hash ${initialHashOf(v, domain, cache).slice(0, 12)}…, shown as ${label(
      v,
    )}): modified data such as a fork's; the reward rule is τ-bench's current one unless recorded rewards clearly show the other`,
  ];
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

function addressKeyHint(records: readonly EpisodeRecord[]): AddressHint {
  return tallyOf(records).addressHint();
}

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

export interface RuleDetection {
  readonly rule: RewardRule;
  readonly why: string;
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
  const evidence =
    telling.length === 0
      ? 'no ended episode with required outputs tells the rules apart'
      : `of ${telling.length} recorded rewards the rules judge differently, ${own.length} fit ${fallback} and ${against.length} fit ${other}`;
  const episodes = (es: readonly RuleEvidence[]): string =>
    es
      .slice(0, 8)
      .map((e) => e.record.index)
      .join(', ') + (es.length > 8 ? ', …' : '');
  if (version.known) {
    const notes =
      against.length > own.length
        ? [
            `recorded rewards fit ${other} better than ${fallback}, τ-bench's rule at ${shortCommit(version.commit)} (${against.length} of ${telling.length} telling episodes: ${episodes(against)}): this file's evaluator judged differently, or those rewards were edited; verdicts keep ${fallback}`,
          ]
        : [];
    return { rule: fallback, why: `${fallback} is the rule τ-bench had at ${shortCommit(version.commit)} (${evidence})`, notes };
  }
  const clear = against.length >= RULE_EVIDENCE_MIN && against.length >= RULE_EVIDENCE_SHARE * telling.length;
  if (clear)
    return { rule: other, why: `unknown data: ${evidence}, a clear majority (≥ ${RULE_EVIDENCE_MIN} and ≥ ${RULE_EVIDENCE_SHARE * 100} %)`, notes: [] };
  return {
    rule: fallback,
    why: `${fallback} is τ-bench's current rule, the default for data it does not know (${evidence})`,
    notes:
      against.length > own.length
        ? [
            `recorded rewards lean to ${other} (${against.length} of ${telling.length}: episodes ${episodes(against)}) but not clearly enough (≥ ${RULE_EVIDENCE_MIN} and ≥ ${RULE_EVIDENCE_SHARE * 100} %) to change the rule; verdicts keep ${fallback}`,
          ]
        : [],
  };
}

/** What a file's own content shows that τ-bench's run.py does not write (known at reading, before any data). */
export const hasFractionalRewards = (records: readonly EpisodeRecord[]): boolean => records.some((r) => isPartialCredit(r.recordedReward));

/** Partial credit: a finite recorded reward strictly between 0 and 1 (τ-bench writes 0.0 or 1.0). */
const isPartialCredit = (x: number | null): boolean => x !== null && Number.isFinite(x) && x > 0 && x < 1;
/** A recorded reward that is not a number, or a number outside [0, 1]: no evaluator's reward. */
const isOddReward = (r: EpisodeRecord): boolean =>
  r.recordedRewardText !== undefined || (r.recordedReward !== null && (r.recordedReward < 0 || r.recordedReward > 1));

export function recordNotes(records: readonly EpisodeRecord[]): string[] {
  return tallyOf(records).notes();
}

/** After evaluation: recorded rewards that disagree and are not explained by a note above, in words. */
export function disagreementNotes(evals: readonly RuleEvidence[], rule: RewardRule, explained: boolean): string[] {
  const off = evals.filter((e) => e.record.recordedReward !== null && finalReward(e, rule) !== e.record.recordedReward);
  if (off.length === 0 || explained) return [];
  const sameRef = off.filter((e) => e.recordedGtHash !== null && e.recordedGtHash === e.gtHash);
  const otherRef = off.filter((e) => e.recordedGtHash !== null && e.recordedGtHash !== e.gtHash);
  const list = (es: readonly RuleEvidence[]): string =>
    es
      .slice(0, 8)
      .map((e) => e.record.index)
      .join(', ') + (es.length > 8 ? ', …' : '');
  const notes: string[] = [];
  if (sameRef.length > 0)
    notes.push(
      `${sameRef.length} episodes (${list(sameRef)}) get another reward than recorded although their recorded reference hash is reproduced: the DB their agent's actions leave here differs from the one the producer hashed, so the producer's tools or evaluator behaved differently from τ-bench's (or those rewards were edited)`,
    );
  if (otherRef.length > 0)
    notes.push(
      `${otherRef.length} episodes (${list(otherRef)}) disagree and their recorded reference hash is not reproduced: the producer's reference DB differs (other data, or another hash construction)`,
    );
  const rest = off.length - sameRef.length - otherRef.length;
  if (rest > 0)
    notes.push(
      `${rest} episodes without a recorded reference hash get another reward than recorded (${list(off.filter((e) => e.recordedGtHash === null))}); their verdicts say why`,
    );
  return notes;
}
