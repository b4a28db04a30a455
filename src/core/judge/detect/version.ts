/** Detection of a results file's data version, from its recorded reference hashes (and the address field its tool outputs show). */
import type { Domain } from '../../model/data/db';
import { KNOWN_DATA_VERSIONS, PINNED_COMMIT, shortCommit, type DataVersion } from '../../model/data/versions';
import type { EpisodeRecord } from '../../model/episode/types';
import type { EvalCache } from '../cache';
import { recordedGtHash } from '../evaluate';
import { EvaluationSetupError, type AddressHint, type FileOptions } from './domain';

/**
 * A cheap guess, from the raw text, of the known data version `chooseVersion` tries first
 * (the address field the recorded tool outputs show, as `FileTally.addressHint` reads it from the
 * parsed file), so a cache can start loading it while the file is parsed.
 */
export function guessDataCommitFromText(text: string): string {
  // In the file, tool outputs are JSON inside JSON strings: their quotes are escaped.
  const province = text.includes('\\"address1\\"') && text.includes('\\"province\\"');
  return (KNOWN_DATA_VERSIONS.find((k) => k.rule === (province ? 'outputs-only' : 'db-and-outputs')) ?? KNOWN_DATA_VERSIONS[0]!).commit;
}

/** Chooses the data version (or takes the given one). */
export function chooseVersion(
  records: readonly EpisodeRecord[],
  hint: AddressHint,
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
  return detectDataVersion(records, hint, domain, versions, cache);
}

/** The version `chooseVersion` tries first: the given one, else the one the recorded addresses point at. */
export function preferredVersion(hint: AddressHint, versions: readonly DataVersion[], options: FileOptions): DataVersion | null {
  if (options.dataVersion) return versions.find((x) => x.commit.startsWith(options.dataVersion!)) ?? null;
  return orderVersions(hint, versions)[0] ?? null;
}

function orderVersions(hint: AddressHint, versions: readonly DataVersion[]): DataVersion[] {
  const hinted = (v: DataVersion): boolean => (hint === 'province' ? v.known?.rule === 'outputs-only' : v.known?.rule === 'db-and-outputs');
  return [...versions].sort((a, b) => Number(hinted(b)) - Number(hinted(a)));
}

export interface VersionDetection {
  readonly version: DataVersion;
  readonly why: string;
  /** Recorded values no τ-bench version produces, explained (see `unknownDataNote` for data tau-inspect does not know). */
  readonly notes: readonly string[];
  /** What the sample of recorded hashes checked shows (replaced once every recorded hash is weighed: `HashEvidence`). */
  readonly sampleNotes?: readonly string[];
  /** The recorded reference hashes show an evaluator other than τ-bench's (reward disagreements follow from it). */
  readonly otherEvaluator?: boolean;
  /** Most recorded reference hashes are an untouched initial DB (every one of them counted): that evaluator did not replay the reference actions. */
  readonly noReplay?: boolean;
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
  hint: AddressHint,
  domain: Domain,
  versions: readonly DataVersion[],
  cache: EvalCache,
  sample = 4,
): VersionDetection {
  if (versions.length === 0) throw new Error(`no ${domain} data available`);
  const notes: string[] = [];
  const sampleNotes: string[] = [];
  // Try the version the recorded tool outputs point at first: usually no other DB needs parsing.
  const hinted = (v: DataVersion): boolean => (hint === 'province' ? v.known?.rule === 'outputs-only' : v.known?.rule === 'db-and-outputs');
  const ordered = orderVersions(hint, versions);
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
      const sampleNotes: string[] = [];
      if (best.n < picked.length && !noReplay)
        sampleNotes.push(
          `only ${best.n} of ${picked.length} recorded gt_data_hash values checked are reproduced by ${label(best.v)}: the others were computed on other data or another way (a damaged or edited file, or a fork's evaluator)`,
        );
      return {
        version: best.v,
        why: `its reference replay reproduces ${best.n} of ${picked.length} recorded gt_data_hash values checked${others}`,
        notes,
        sampleNotes,
        otherEvaluator: noReplay,
        noReplay,
      };
    }
    if (noReplay) {
      const v = versions.find((x) => initialHashOf(x, domain, cache) === initialHash)!;
      return {
        version: v,
        why: `the recorded gt_data_hash values are its initial DB (${initialN} of ${withHash.length})`,
        notes,
        otherEvaluator: true,
        noReplay: true,
      };
    }
    sampleNotes.push(
      `none of the ${picked.length} recorded gt_data_hash values checked is reproduced by a loaded data version (${scores.map((s) => label(s.v)).join(', ')}) nor is an initial DB: they were computed on other data (a fork's modified data: give its checkout with --data) or by another construction, so recorded rewards cannot be checked against τ-bench's`,
    );
  }
  if (hint) {
    const v = versions.find(hinted);
    if (v)
      return {
        version: v,
        why: `${picked.length ? 'no recorded gt_data_hash matched' : 'the file records no gt_data_hash'}; recorded tool outputs show user addresses with "${hint}"`,
        notes,
        sampleNotes,
        otherEvaluator: picked.length > 0,
      };
  }
  const pinned = versions.find((v) => v.commit === PINNED_COMMIT) ?? versions[0]!;
  return {
    version: pinned,
    why: picked.length
      ? 'no data version reproduces the recorded gt_data_hash values; using the pinned version'
      : 'the file records no gt_data_hash; using the pinned version',
    notes,
    sampleNotes,
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

export function unknownDataNote(v: DataVersion, domain: Domain, cache: EvalCache): string[] {
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
