/**
 * Every recorded `gt_data_hash` of a file weighed against the loaded data versions: which version's
 * reference replay reproduces each one. The version most of them fit is the file's data version; the
 * episodes whose hash fits another version, or none, are the minority, named one by one.
 */
import type { Domain } from '../../model/data/db';
import { shortCommit, type DataVersion } from '../../model/data/versions';
import type { EpisodeRecord } from '../../model/episode/types';
import type { EvalCache } from '../cache';
import { recordedGtHash } from '../evaluate';

/** The episodes whose recorded gt_data_hash one data version's reference replay reproduces. */
export interface HashFit {
  readonly commit: string;
  readonly episodes: readonly number[];
}

/** What every recorded gt_data_hash of a file says about its data version (plain data). */
export interface HashEvidence {
  /** Evaluable episodes that record a gt_data_hash. */
  readonly recorded: number;
  /** Per loaded data version that reproduces at least one of them (the version in use always), most first. */
  readonly fits: readonly HashFit[];
  /** Episodes whose recorded gt_data_hash no loaded version reproduces. */
  readonly unmatched: readonly number[];
  /**
   * Whether each of `unmatched` was tried on every loaded version. When the version in use already
   * has a majority, a version that reproduced none of the first `PROBE` misfits is not tried further
   * (the decision cannot change): some of `unmatched` may then fit it.
   */
  readonly complete: boolean;
}

/** How many misfits a version is tried on before it is given up, once the version in use has a majority. */
const PROBE = 8;

/** Evaluable episodes that record a gt_data_hash. */
export const withRecordedHash = (records: readonly EpisodeRecord[]): EpisodeRecord[] =>
  records.filter((r) => r.task !== null && r.problem === null && recordedGtHash(r) !== null);

/**
 * Weighs every recorded gt_data_hash: first on `current` (the reference replays evaluation needs
 * anyway, shared through `cache`), then the ones it does not reproduce on each other version.
 */
export function countRecordedHashes(
  records: readonly EpisodeRecord[],
  domain: Domain,
  current: DataVersion,
  versions: readonly DataVersion[],
  cache: EvalCache,
): HashEvidence {
  const recorded = withRecordedHash(records);
  const fits = (v: DataVersion, r: EpisodeRecord): boolean => cache.groundTruthHash(domain, v, r) === recordedGtHash(r);
  const own: number[] = [];
  let misfits: EpisodeRecord[] = [];
  for (const r of recorded) {
    if (fits(current, r)) own.push(r.index);
    else misfits.push(r);
  }
  const majority = own.length * 2 > recorded.length;
  const out: HashFit[] = [{ commit: current.commit, episodes: own }];
  let complete = true;
  for (const v of versions) {
    if (v === current || v.commit === current.commit || misfits.length === 0) continue;
    const hit: number[] = [];
    const rest: EpisodeRecord[] = [];
    let tried = 0;
    for (const r of misfits) {
      if (majority && hit.length === 0 && tried >= PROBE) {
        rest.push(r);
        complete = false;
        continue;
      }
      tried++;
      if (fits(v, r)) hit.push(r.index);
      else rest.push(r);
    }
    if (hit.length > 0) out.push({ commit: v.commit, episodes: hit });
    misfits = rest;
  }
  return {
    recorded: recorded.length,
    fits: [out[0]!, ...out.slice(1).sort((a, b) => b.episodes.length - a.episodes.length)],
    unmatched: misfits.map((r) => r.index),
    complete,
  };
}

/** The version most recorded hashes fit, when it is not the one in use and fits more than it; else null. */
export function majorityVersion(evidence: HashEvidence): string | null {
  const [own, ...others] = evidence.fits;
  const best = others[0];
  return best && best.episodes.length > own!.episodes.length ? best.commit : null;
}

/** Evidence with the version `commit` first (the others as they were). */
export function inUse(evidence: HashEvidence, commit: string): HashEvidence {
  const first = evidence.fits.find((f) => f.commit === commit) ?? { commit, episodes: [] };
  return { ...evidence, fits: [first, ...evidence.fits.filter((f) => f !== first).sort((a, b) => b.episodes.length - a.episodes.length)] };
}

export const versionLabel = (commit: string): string => (commit.startsWith('unknown') ? commit : shortCommit(commit));

/** The first eight episode indices, and an ellipsis for more. */
export function episodeList(episodes: readonly number[]): string {
  return episodes.slice(0, 8).join(', ') + (episodes.length > 8 ? ', …' : '');
}

/** "97 of 101 recorded gt_data_hash values fit 14bf0ef; 4 fit 7362a17: episodes 0, 26, 69, 91" */
export function hashEvidenceText(evidence: HashEvidence): string {
  const [own, ...others] = evidence.fits;
  const parts = [`${own!.episodes.length} of ${evidence.recorded} recorded gt_data_hash values fit ${versionLabel(own!.commit)}`];
  for (const f of others) parts.push(`${f.episodes.length} fit ${versionLabel(f.commit)}: episodes ${episodeList(f.episodes)}`);
  if (evidence.unmatched.length > 0)
    parts.push(`${evidence.unmatched.length} fit no loaded data version${evidence.complete ? '' : ' tried'}: episodes ${episodeList(evidence.unmatched)}`);
  return parts.join('; ');
}

/** The minority's episodes, each with what its recorded hash fits (a commit, or null for none). */
export function minorityOf(evidence: HashEvidence): Map<number, string | null> {
  const out = new Map<number, string | null>();
  for (const f of evidence.fits.slice(1)) for (const i of f.episodes) out.set(i, f.commit);
  for (const i of evidence.unmatched) out.set(i, null);
  return out;
}
