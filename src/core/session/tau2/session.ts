/**
 * A τ²-bench run opened for judging: the results file read, its domain's DBs loaded (once per
 * file) and each simulation evaluated on demand as τ² does.
 */
import { PyException } from '../../py/errors';
import { validate, type PydModel, type TValue } from '../../py/pydantic';
import { SnapshotError } from '../../py/pydantic/snapshot';
import { bankingGradingNote, TAU2_PINNED_COMMIT, tau2DataPath } from '../../model/data/tau2/data';
import type { ReadText } from '../../model/data/versions';
import { TAU2_DOMAINS, TAU2_PENDING_DOMAINS } from '../../model/domains/tau2/registry';
import type { Tau2Domain } from '../../model/domains/tau2/toolkit';
import { readTau2Results, Tau2FileError } from '../../model/episode/tau2/results';
import { tau2JudgingNote } from '../../model/episode/tau2/judging';
import type { Tau2Run } from '../../model/episode/tau2/types';
import type { Tau2Context, Tau2Evaluation } from '../../judge/tau2/evaluate';
import { evaluateTau2 } from '../../judge/tau2/judged';
import { tau2Report, type Tau2Report } from '../../view/tau2/report';
import { tau2Explain } from '../../view/tau2/explain';
import { retrievedDocuments, type KnowledgeDocument, type Tau2RetrievalView } from '../../view/tau2/retrieval';
import { tau2SimView, type Tau2SimView } from '../../view/tau2/sim-view';
import { interactionConfigOf, interactionMetrics, type InteractionMetrics } from '../../view/tau2/voice/metrics';
import { voiceTimeline, type VoiceTimelineView } from '../../view/tau2/voice/timeline';
import { Tau2Timeline, type Tau2DbSide, type Tau2StateView } from '../../view/tau2/state-at-step';
import { tau2ToolChoices, tau2WhatIf, type Tau2ToolChoice, type Tau2WhatIfView } from './what-if';
import type { StepEdit } from '../what-if';
import { tau2DbsFromSnapshot, tau2DbsSnapshot, tau2DbSnapshotCode, type Tau2DbSnapshot } from './db-snapshot';
import { Tau2DbHasher } from '../../env/tau2/db-hasher';
import { knownHashesOf, knownHashesText } from '../../env/tau2/known-hashes';

export class Tau2SetupError extends Error {}

/**
 * The data files a domain's DBs are read from, under the commit (raw file hosting's layout) and then
 * as in a checkout (`checkout`); null for a domain this version does not judge (`Tau2Session.open` says why).
 */
export function tau2DbPaths(domainName: string, checkout: boolean, commit: string = TAU2_PINNED_COMMIT): string[] | null {
  const domain = TAU2_DOMAINS.get(domainName);
  if (domain === undefined) return null;
  const files = [domain.dbFiles.agent, ...(domain.dbFiles.user === null ? [] : [domain.dbFiles.user])];
  return [...files.map((f) => tau2DataPath(domain.name, f, commit)), ...(checkout ? files.map((f) => tau2DataPath(domain.name, f)) : [])];
}

/** Where a DB file is looked for, in order: under the commit, then as in a checkout. */
const dbFilePlaces = (domain: Tau2Domain, file: string, commit: string): string[] => [tau2DataPath(domain.name, file, commit), tau2DataPath(domain.name, file)];

async function readDbFile(read: ReadText, domain: Tau2Domain, file: string, commit: string): Promise<{ text: string; where: string }> {
  for (const path of dbFilePlaces(domain, file, commit)) {
    const text = await read(path);
    if (text !== null) return { text, where: path };
  }
  throw new Tau2SetupError(
    `τ²-bench data not found: neither ${tau2DataPath(domain.name, file, commit)} nor ${tau2DataPath(domain.name, file)} under the data location`,
  );
}

/** A domain's DBs read and validated (shared by every session judged against the same data). */
export interface LoadedDbs {
  readonly agent: PydModel;
  readonly user: PydModel | null;
  readonly where: string;
}

/** The data files a domain's DBs were read from: what a cache of validated DBs is keyed by (their content, not their place). */
export interface Tau2DbFiles {
  readonly domain: string;
  /** The snapshot's format and the domain's classes (`tau2DbSnapshotCode`): a cache keeps it in its key too. */
  readonly code: string;
  readonly files: readonly { readonly where: string; readonly text: string }[];
}

/** The data files of a domain's DBs before they are read: for each file (agent's, then user's) the places it is looked for, in order. */
export interface Tau2DbPlaces {
  readonly domain: string;
  /** As `Tau2DbFiles.code`. */
  readonly code: string;
  readonly files: readonly (readonly string[])[];
}

/**
 * A cache of validated DBs kept between processes (the CLI's is a folder; see `tau2DbsSnapshot`): `get` answers the
 * snapshot (JSON and bytes) `put` stored for data files with the same content, or null. Whatever `get` answers is checked as it is read;
 * a text that cannot be used is `refused` (with the reason) and the DBs are loaded from the files and `put` again.
 * `peek`, asked first, may answer without the files being read (the CLI's: by each file's place, size and times as
 * they were when it was last read whole); it answers, with the place of each file, only what `get` would answer for the
 * files as they are, and null when it does not know (then the files are read and `get` is asked). A snapshot it answers
 * that cannot be used is passed over silently: `get` then meets it and says why.
 */
export interface Tau2DbStore {
  peek?(places: Tau2DbPlaces): Promise<{ readonly snapshot: Tau2DbSnapshot; readonly where: readonly string[] } | null>;
  /**
   * The hashes of DB states an earlier process computed from a base DB of this text (`known-hashes.ts`'s lines, by the
   * text's sha256), or null; `keep` is given what hands on those computed here (the caller decides when to ask it).
   */
  knownHashes?(textHash: string): Promise<{ readonly text: string | null; keep(take: () => string): void }>;
  get(files: Tau2DbFiles): Promise<Tau2DbSnapshot | null>;
  put(files: Tau2DbFiles, snapshot: () => Tau2DbSnapshot): Promise<void>;
  refused(files: Tau2DbFiles, why: string): void;
}

/** The DBs of a snapshot if they are this domain's (a user DB exactly where the domain has one), else null. */
function snapshotDbs(domain: Tau2Domain, kept: Tau2DbSnapshot, userFile: boolean): ReturnType<typeof tau2DbsFromSnapshot> | 'another set' {
  const dbs = tau2DbsFromSnapshot(domain, kept);
  return (dbs.user === null) === (!userFile || domain.user === null) ? dbs : 'another set';
}

async function loadDbs(read: ReadText, domain: Tau2Domain, commit: string, store: Tau2DbStore | null): Promise<LoadedDbs> {
  const loaded = await loadDbsOnce(read, domain, commit, store);
  // The agent's base: the one the hasher resumes from (each environment's DB shares its records).
  if (store?.knownHashes && (domain.copyOnWrite || domain.copyDb)) {
    const hasher = Tau2DbHasher.of(loaded.agent);
    const known = await store.knownHashes(hasher.baseHash);
    if (known.text !== null) hasher.learn(knownHashesOf(known.text));
    known.keep(() => knownHashesText(hasher.takeKnown()));
  }
  return loaded;
}

async function loadDbsOnce(read: ReadText, domain: Tau2Domain, commit: string, store: Tau2DbStore | null): Promise<LoadedDbs> {
  const code = tau2DbSnapshotCode(domain);
  const dbFiles = [domain.dbFiles.agent, ...(domain.dbFiles.user === null ? [] : [domain.dbFiles.user])];
  const peeked = (await store?.peek?.({ domain: domain.name, code, files: dbFiles.map((f) => dbFilePlaces(domain, f, commit)) })) ?? null;
  if (peeked !== null && peeked.where.length === dbFiles.length) {
    try {
      const dbs = snapshotDbs(domain, peeked.snapshot, domain.dbFiles.user !== null);
      if (dbs !== 'another set') return { ...dbs, where: peeked.where[0]! };
    } catch (e) {
      if (!(e instanceof SnapshotError)) throw e;
    }
  }
  const agentFile = await readDbFile(read, domain, domain.dbFiles.agent, commit);
  const userFile = domain.dbFiles.user === null ? null : await readDbFile(read, domain, domain.dbFiles.user, commit);
  const files: Tau2DbFiles = {
    domain: domain.name,
    code,
    files: [agentFile, ...(userFile === null ? [] : [userFile])].map((f) => ({ where: f.where, text: f.text })),
  };
  const kept = store === null ? null : await store.get(files);
  if (kept !== null) {
    try {
      const dbs = snapshotDbs(domain, kept, userFile !== null);
      if (dbs !== 'another set') return { ...dbs, where: agentFile.where };
      store!.refused(files, 'it holds another set of DBs');
    } catch (e) {
      if (!(e instanceof SnapshotError)) throw e;
      store!.refused(files, e.message);
    }
  }
  const load = (text: string, file: string, model: typeof domain.agent.db): PydModel => {
    try {
      return validate(model, domain.parseDbFile(text, file) as TValue);
    } catch (e) {
      throw new Tau2SetupError(`${file}: ${e instanceof PyException ? e.text : String(e)}`);
    }
  };
  const loaded: LoadedDbs = {
    agent: load(agentFile.text, agentFile.where, domain.agent.db),
    user: userFile && domain.user ? load(userFile.text, userFile.where, domain.user.db) : null,
    where: agentFile.where,
  };
  await store?.put(files, () => tau2DbsSnapshot(domain, loaded));
  return loaded;
}

export class Tau2Session {
  private readonly memo = new Map<number, Tau2Evaluation>();
  /** The replays kept for the state at a message, the newest last (a few simulations: the one open and those just before). */
  private readonly timelines = new Map<number, Tau2Timeline>();

  private constructor(
    readonly run: Tau2Run,
    readonly domain: Tau2Domain,
    private readonly ctx: Tau2Context,
    /** How the data was found, in words (for the CLI's detection line). */
    readonly dataWhy: string,
    /** Where the domain's data files are read (knowledge-base documents are opened on demand). */
    private readonly data: { readonly read: ReadText; readonly commit: string } | null = null,
  ) {}

  /** Opens a run: `run` already read (text or folder), `read` reaches the τ² data (see `tau2DataPath`). */
  /**
   * `dbs`: DBs already loaded for this data location (a caller judging several runs keeps one map,
   * so airline's 7 MB DB is read and validated once; the DBs are never written, see `own`).
   */
  static async open(
    run: Tau2Run,
    read: ReadText,
    options: { readonly commit?: string; readonly dbs?: Map<string, Promise<LoadedDbs>>; readonly store?: Tau2DbStore } = {},
  ): Promise<Tau2Session> {
    const domain = TAU2_DOMAINS.get(run.domain);
    if (domain === undefined) {
      const what = `a τ²-bench results file (${run.simulations.length} simulations) of domain '${run.domain}'`;
      const why = !run.domain
        ? `the file names no domain (info.environment_info.domain_name${run.info.size > 0 ? '' : ': the file has no info'}); this version judges ${[...TAU2_DOMAINS.keys()].join(', ')}`
        : TAU2_PENDING_DOMAINS.includes(run.domain)
          ? `the τ² domain '${run.domain}' is not ported yet (this version judges: ${[...TAU2_DOMAINS.keys()].join(', ')})`
          : `'${run.domain}' is not one of τ²'s domains (a fork's own domain?); this version judges ${[...TAU2_DOMAINS.keys()].join(', ')}`;
      throw new Tau2SetupError(`${what}: ${why}`);
    }
    const commit = options.commit ?? TAU2_PINNED_COMMIT;
    const key = `${domain.name}@${commit}`;
    let loading = options.dbs?.get(key);
    if (loading === undefined) {
      loading = loadDbs(read, domain, commit, options.store ?? null);
      options.dbs?.set(key, loading);
    }
    const loaded = await loading;
    const agentFile = { where: loaded.where };
    const base = { agent: loaded.agent, user: loaded.user, shared: new Map<string, TValue>() };
    const recorded = run.info.get('git_commit');
    const why = `data ${agentFile.where.startsWith(commit) ? commit.slice(0, 7) : 'checkout'} (${agentFile.where}); the file records τ² commit ${
      typeof recorded === 'string' ? recorded.slice(0, 7) : 'unknown'
    }; τ²'s DB files are the same from v0.1.0 to v1.0.1`;
    // A banking_knowledge file recorded before 1.0.1's grading changes: its recorded rewards may be the older grading's.
    const gradingNote = domain.name === 'banking_knowledge' ? bankingGradingNote(typeof recorded === 'string' ? recorded : null) : null;
    const judgingNote = tau2JudgingNote(run.judging);
    const added = [...(gradingNote === null ? [] : [gradingNote]), ...(judgingNote === null ? [] : [judgingNote])];
    const opened = added.length === 0 ? run : { ...run, notes: [...run.notes, ...added] };
    // Judged as the run was judged when it was made; evaluate-trajs' verdict beside it where its rules differ (judged.ts).
    const { runTime, evaluateTrajs } = run.judging;
    const ctx: Tau2Context = { domain, base, solo: runTime.solo, strict: runTime.strict, evaluateTrajs, fileRefusal: run.refusal, perTask: new Map() };
    return new Tau2Session(opened, domain, ctx, why, { read, commit });
  }

  /** Reads a results object's text; throws `Tau2FileError` when it is not one. */
  static read(text: string): Tau2Run {
    return readTau2Results(text);
  }

  get size(): number {
    return this.run.simulations.length;
  }

  evaluate(index: number): Tau2Evaluation {
    let e = this.memo.get(index);
    if (e === undefined) {
      const sim = this.run.simulations[index];
      if (sim === undefined) throw new RangeError(`no simulation ${index} (the file has ${this.size})`);
      e = evaluateTau2(this.ctx, this.run.tasks.get(sim.taskId) ?? null, sim);
      if (this.memo.size > 64) this.memo.clear();
      this.memo.set(index, e);
    }
    return e;
  }

  report(index: number): Tau2Report {
    return tau2Report(this.evaluate(index));
  }

  /** The simulation screen's data (messages, checks with their evidence, DB diff with blame, walkthrough, what each call wrote). */
  simView(index: number): Tau2SimView {
    const e = this.evaluate(index);
    const view = tau2SimView(this.ctx, e, this.taskOf(index), this.timeline(index));
    let voice: VoiceTimelineView | null = null;
    try {
      if (e.simulation.fullDuplex) voice = voiceTimeline(e, interactionConfigOf(this.run.info));
    } catch {
      // The screen without its timeline rather than no screen.
    }
    return voice === null ? view : { ...view, voice };
  }

  private taskOf(index: number) {
    return this.run.tasks.get(this.run.simulations[index]!.taskId) ?? null;
  }

  private timeline(index: number): Tau2Timeline {
    let t = this.timelines.get(index);
    if (t === undefined) {
      const sim = this.run.simulations[index];
      if (sim === undefined) throw new RangeError(`no simulation ${index} (the file has ${this.size})`);
      t = new Tau2Timeline(this.ctx, this.taskOf(index), sim);
      if (this.timelines.size >= 4) this.timelines.delete(this.timelines.keys().next().value!);
    } else this.timelines.delete(index);
    this.timelines.set(index, t);
    return t;
  }

  /** A DB of simulation `index` after message `message`: records changed so far, tables, and the record asked for. */
  stateAt(index: number, message: number, db: Tau2DbSide, record: { readonly table: string; readonly key: string | null } | null): Tau2StateView {
    return this.timeline(index).at(message, db, record);
  }

  /** Simulation `index` with what-if edits, judged again (`error`: an edit that cannot apply, in words). */
  whatIf(index: number, edits: readonly StepEdit[]): Tau2WhatIfView | { readonly error: string } {
    const before = this.evaluate(index);
    return tau2WhatIf(this.ctx, this.run.tasks.get(before.simulation.taskId) ?? null, before.simulation, before, edits);
  }

  /** The tools an inserted call may name (the agent's, then the user's device tools). */
  toolChoices(): Tau2ToolChoice[] {
    return tau2ToolChoices(this.domain, this.run.soloMode);
  }

  /**
   * banking_knowledge: each retrieval call of simulation `index` with the knowledge-base documents its recorded output
   * names, opened from the data's `documents/` (title, body; null when the file is not there), each marked when the task
   * requires it; and the task's required documents the agent never retrieved.
   */
  async retrieval(index: number): Promise<Tau2RetrievalView> {
    const e = this.evaluate(index);
    const required = e.requiredDocuments ?? [];
    const calls = retrievedDocuments(e);
    const ids = [...new Set([...calls.flatMap((c) => c.documents), ...required])];
    const docs = new Map(await Promise.all(ids.map(async (id) => [id, await this.document(id)] as const)));
    return {
      calls: calls.map((c) => ({
        call: c.call,
        name: c.name,
        documents: c.documents.map((id) => ({ id, required: required.includes(id), doc: docs.get(id) ?? null })),
      })),
      required: required.map((id) => ({ id, doc: docs.get(id) ?? null, retrievedIn: calls.find((c) => c.documents.includes(id))?.call ?? null })),
    };
  }

  private readonly documents = new Map<string, Promise<KnowledgeDocument | null>>();

  /** A knowledge-base document (`documents/<id>.json`: id, title, content), read once; null when absent or not one. */
  document(id: string): Promise<KnowledgeDocument | null> {
    let p = this.documents.get(id);
    if (p === undefined) {
      p = (async () => {
        if (this.data === null || !/^doc_[A-Za-z0-9_()\-.]+$/.test(id)) return null;
        for (const path of [tau2DataPath(this.domain.name, `documents/${id}.json`, this.data.commit), tau2DataPath(this.domain.name, `documents/${id}.json`)]) {
          const text = await this.data.read(path);
          if (text === null) continue;
          try {
            const v = JSON.parse(text) as { id?: unknown; title?: unknown; content?: unknown };
            return typeof v.title === 'string' && typeof v.content === 'string' ? { id, title: v.title, content: v.content } : null;
          } catch {
            return null;
          }
        }
        return null;
      })();
      this.documents.set(id, p);
    }
    return p;
  }

  /** Whether the run holds full-duplex (voice) simulations. */
  get voice(): boolean {
    return this.run.simulations.some((s) => s.fullDuplex);
  }

  /** A full-duplex simulation's timeline (lanes, interruptions, calls, merged transcript, communicate evidence, metrics); null otherwise. */
  voiceTimeline(index: number): VoiceTimelineView | null {
    return voiceTimeline(this.evaluate(index), interactionConfigOf(this.run.info));
  }

  /**
   * τ²'s interaction metrics of the run, its simulations with ticks pooled (as `tau2 submit interaction-metrics` computes
   * a domain's panel); `metrics` null with the reason where τ² would raise.
   */
  interactionMetrics(): { metrics: InteractionMetrics | null; error: string | null } {
    return interactionMetrics(this.run.simulations, interactionConfigOf(this.run.info));
  }

  explain(index: number): string[] {
    return tau2Explain(this.evaluate(index), this.run.tasks.get(this.run.simulations[index]!.taskId) ?? null);
  }
}

export { Tau2FileError };
