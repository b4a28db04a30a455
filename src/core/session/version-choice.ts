/**
 * The session's choice of data version: provisional from a sample of recorded hashes (`useData`, so
 * the first verdicts come early), then settled from every recorded hash (`settle`): the version most
 * of them fit is kept, or overturns the provisional one, and the episodes whose hash disagrees are named.
 */
import type { Domain } from '../model/data/db';
import type { DataVersion } from '../model/data/versions';
import type { EpisodeRecord } from '../model/episode/types';
import type { EvalCache } from '../judge/cache';
import { chooseVersion, unknownDataNote, type AddressHint, type FileOptions, type VersionDetection } from '../judge/detect';
import {
  countRecordedHashes,
  episodeList,
  hashEvidenceText,
  inUse,
  majorityVersion,
  minorityOf,
  versionLabel,
  withRecordedHash,
  type HashEvidence,
} from '../judge/detect/hash-evidence';

export class VersionChoice {
  private chosen: VersionDetection | null = null;
  private versions: readonly DataVersion[] = [];
  private given = false;
  private settled = false;
  /** Every recorded hash weighed (once settled). */
  evidence: HashEvidence | null = null;
  /** The provisional version that the evidence overturned, if it did. */
  overturned: string | null = null;
  /** Episodes whose recorded hash fits another version (its commit) or none (null), when most fit the one in use. */
  minority: ReadonlyMap<number, string | null> = new Map();
  private settledWhy: string | null = null;
  private settledNotes: readonly string[] = [];

  constructor(
    private readonly domain: Domain,
    private readonly cache: EvalCache,
  ) {}

  /** The provisional choice (see `chooseVersion`); forgets an earlier one. */
  choose(records: readonly EpisodeRecord[], hint: AddressHint, versions: readonly DataVersion[], options: FileOptions): VersionDetection {
    this.chosen = chooseVersion(records, hint, this.domain, versions, this.cache, options);
    this.versions = versions;
    this.given = options.dataVersion !== undefined;
    // A version given by the caller is not weighed against the recorded hashes.
    this.settled = this.given;
    this.evidence = null;
    this.overturned = null;
    this.minority = new Map();
    this.settledWhy = null;
    this.settledNotes = [];
    return this.chosen;
  }

  get version(): DataVersion | null {
    return this.chosen?.version ?? null;
  }

  /** Whether the choice is final (every recorded hash weighed, or the version given). */
  get final(): boolean {
    return this.settled;
  }

  get why(): string {
    return this.settledWhy ?? this.chosen?.why ?? '';
  }

  get otherEvaluator(): boolean {
    const e = this.evidence;
    if (e && e.fits[0]!.episodes.length * 2 > e.recorded) return false;
    return this.chosen?.otherEvaluator === true;
  }

  notes(): string[] {
    const c = this.chosen;
    if (!c) return [];
    const unknown = this.given ? [] : unknownDataNote(c.version, this.domain, this.cache);
    return [...c.notes, ...(this.settledWhy !== null ? this.settledNotes : (c.sampleNotes ?? [])), ...unknown];
  }

  /**
   * Weighs every recorded gt_data_hash (the reference replays are the ones evaluation needs, shared
   * through the cache). Returns true when the majority overturns the provisional version: the
   * version in use is then the one most recorded hashes fit, and every verdict must be made again.
   */
  settle(records: readonly EpisodeRecord[]): boolean {
    const c = this.chosen;
    if (this.settled || !c) return false;
    this.settled = true;
    // No recorded hash to weigh, or most are an initial DB (every one counted already): a reference
    // replay that leaves the DB as it was would "fit" them, and is no evidence.
    if (c.noReplay || withRecordedHash(records).length === 0) return false;
    let evidence = countRecordedHashes(records, this.domain, c.version, this.versions, this.cache);
    const majority = majorityVersion(evidence);
    if (majority !== null) {
      const v = this.versions.find((x) => x.commit === majority)!;
      this.overturned = c.version.commit;
      this.chosen = { ...c, version: v };
      // Every misfit was tried on every version (the provisional one had no majority): the same counts, the new version first.
      evidence = inUse(evidence, majority);
    }
    this.evidence = evidence;
    const own = evidence.fits[0]!.episodes.length;
    // Nothing fits the version in use: the sample's account (another evaluator, other data) stands.
    if (own === 0) return majority !== null;
    const overturned = this.overturned ? `; overturns ${versionLabel(this.overturned)}, chosen at first from a sample of recorded hashes` : '';
    const lead =
      own * 2 > evidence.recorded
        ? "most recorded gt_data_hash values are its reference replay's"
        : 'its reference replay reproduces more recorded gt_data_hash values than any other loaded version (no majority)';
    this.settledWhy = `${lead}: ${hashEvidenceText(evidence)}${overturned}`;
    const notes: string[] = [];
    const label = versionLabel(evidence.fits[0]!.commit);
    if (own * 2 > evidence.recorded) {
      this.minority = minorityOf(evidence);
      if (this.minority.size > 0)
        notes.push(
          `${this.minority.size} of ${evidence.recorded} recorded gt_data_hash values are not reproduced by ${label}, the data version most of them fit (episodes ${episodeList([...this.minority.keys()].sort((a, b) => a - b))}): those hashes were computed on other data or another way, or edited; each of those episodes names it in its findings, and every verdict is judged on ${label}`,
        );
    } else
      notes.push(
        `only ${own} of ${evidence.recorded} recorded gt_data_hash values are reproduced by ${label}, no majority: the others were computed on other data or another way (a damaged or edited file, or a fork's evaluator)`,
      );
    this.settledNotes = notes;
    return majority !== null;
  }
}
