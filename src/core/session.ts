import { episodeView, type EpisodeView } from './analysis/episode-view';
import { reasons, type ReasonCode } from './analysis/explain';
import type { Domain } from './data/db';
import type { DataVersion } from './data/versions';
import { readResultsFile } from './episode/results-file';
import { jsonDumps } from './py/json-dumps';
import { tryParseJson } from './py/json-parse';
import type { EpisodeRecord } from './episode/types';
import { countRecordedMatches, detectRule, evaluateEpisode, EvalCache, finalReward, recordedHashSample, type EpisodeEvaluation, type EpisodeOutcome } from './evaluate';
import { chooseDomain, chooseVersion, type FileOptions } from './evaluate-file';
import type { RewardRule } from './env/reward';

/** One change for a what-if replay, addressed by the agent message that produced the action. */
export interface StepEdit {
  readonly messageIndex: number;
  readonly remove?: boolean;
  /** A new tool name (optional) and new arguments as JSON text (Python's json dialect). */
  readonly name?: string;
  readonly kwargsJson?: string;
}

/** What the overview shows of an episode before it is evaluated. */
export interface EpisodeHeader {
  readonly index: number;
  readonly taskId: number | null;
  readonly trial: number | null;
  readonly recordedReward: number | null;
  readonly turns: number;
  readonly problem: string | null;
  readonly extra: Readonly<Record<string, string>>;
}

/** One row of the overview after evaluation. */
export interface EpisodeSummary {
  readonly index: number;
  readonly reward: number | null;
  readonly hypotheticalReward: number | null;
  readonly done: boolean;
  readonly doneBy: string | null;
  readonly reasons: readonly ReasonCode[];
  readonly error: string | null;
  readonly strategy: string | null;
  readonly stepsExecuted: number;
  readonly diffCount: number;
  readonly outputsMissing: readonly string[];
  readonly outputsTotal: number;
  /** Recomputed reward equals the recorded one (null when either is missing). */
  readonly agrees: boolean | null;
}

export interface Detection {
  readonly domain: Domain;
  readonly domainWhy: string;
  readonly dataCommit: string;
  readonly dataSource: string;
  readonly versionWhy: string;
  readonly rule: RewardRule;
  readonly ruleWhy: string;
  /** The rule is provisional until every episode has been evaluated. */
  readonly ruleFinal: boolean;
}

/**
 * A loaded results file and its evaluation, independent of where it runs (Worker, Node,
 * main thread). Evaluation is incremental so callers can report progress and yield.
 */
export class InspectSession {
  readonly records: readonly EpisodeRecord[];
  readonly domain: Domain;
  readonly domainWhy: string;
  private readonly cache = new EvalCache();
  private version: DataVersion | null = null;
  private versionWhy = '';
  private rule: RewardRule = 'db-and-outputs';
  private ruleWhy = '';
  private ruleFinal = false;
  private readonly outcomes: (EpisodeOutcome | undefined)[];

  constructor(text: string, private readonly options: FileOptions = {}) {
    this.records = readResultsFile(text);
    const d = chooseDomain(this.records, options);
    this.domain = d.domain;
    this.domainWhy = d.why;
    this.outcomes = new Array<EpisodeOutcome | undefined>(this.records.length);
  }

  headers(): EpisodeHeader[] {
    return this.records.map((r) => ({
      index: r.index,
      taskId: r.taskId,
      trial: r.trial,
      recordedReward: r.recordedReward,
      turns: r.traj.filter((m) => m.get('role') !== 'system').length,
      problem: r.problem,
      extra: r.extra,
    }));
  }

  hashOf = (db: Parameters<EvalCache['hash']>[0]): string => this.cache.hash(db);

  /** Chooses the data version among those loaded; resets earlier results. */
  useData(versions: readonly DataVersion[]): Detection {
    const v = chooseVersion(this.records, this.domain, versions, this.cache, this.options);
    this.version = v.version;
    this.versionWhy = v.why;
    this.outcomes.fill(undefined);
    this.rule = this.options.rule ?? v.version.known?.rule ?? 'db-and-outputs';
    this.ruleWhy = this.options.rule ? 'given' : 'provisional: the rule of that data version, until all episodes are evaluated';
    this.ruleFinal = this.options.rule !== undefined;
    return this.detection();
  }

  detection(): Detection {
    if (!this.version) throw new Error('no data yet');
    return {
      domain: this.domain,
      domainWhy: this.domainWhy,
      dataCommit: this.version.commit,
      dataSource: this.version.source,
      versionWhy: this.versionWhy,
      rule: this.rule,
      ruleWhy: this.ruleWhy,
      ruleFinal: this.ruleFinal,
    };
  }

  /** Evaluates one episode (memoised) and returns its overview row. */
  evaluate(index: number): EpisodeSummary {
    const outcome = this.outcome(index);
    return this.summary(outcome);
  }

  private outcome(index: number): EpisodeOutcome {
    if (!this.version) throw new Error('no data yet');
    let o = this.outcomes[index];
    if (!o) {
      o = evaluateEpisode(this.records[index]!, this.domain, this.version, this.cache);
      this.outcomes[index] = o;
    }
    return o;
  }

  /** After every episode is evaluated: settles the rule; returns whether it changed. */
  finish(): boolean {
    if (this.ruleFinal) return false;
    const evals = this.outcomes.filter((o): o is { ok: true; value: EpisodeEvaluation } => o?.ok === true).map((o) => o.value);
    const r = detectRule(evals, this.version!);
    const changed = r.rule !== this.rule;
    this.rule = r.rule;
    this.ruleWhy = r.why;
    this.ruleFinal = true;
    return changed;
  }

  summaries(): EpisodeSummary[] {
    return this.records.map((_, i) => this.summary(this.outcome(i)));
  }

  private summary(o: EpisodeOutcome): EpisodeSummary {
    if (!o.ok)
      return {
        index: o.record.index,
        reward: null,
        hypotheticalReward: null,
        done: false,
        doneBy: null,
        reasons: [],
        error: o.error,
        strategy: null,
        stepsExecuted: 0,
        diffCount: 0,
        outputsMissing: [],
        outputsTotal: 0,
        agrees: null,
      };
    const ev = o.value;
    const verdict = ev.verdicts[this.rule];
    const reward = finalReward(ev, this.rule);
    return {
      index: ev.record.index,
      reward,
      hypotheticalReward: ev.replay.done ? null : verdict.reward,
      done: ev.replay.done,
      doneBy: ev.replay.doneBy,
      reasons: [...new Set(reasons(verdict, ev.replay, ev.diff).map((r) => r.code))],
      error: null,
      strategy: ev.strategy,
      stepsExecuted: ev.replay.steps.length,
      diffCount: ev.diff.length,
      outputsMissing: verdict.outputs?.checks.filter((c) => !c.found).map((c) => c.output) ?? [],
      outputsTotal: verdict.outputs?.checks.length ?? 0,
      agrees: ev.record.recordedReward === null ? null : ev.record.recordedReward === reward,
    };
  }

  /** The episode screen's data; null for an episode that cannot be evaluated. */
  view(index: number): EpisodeView | { readonly error: string; readonly index: number } {
    const o = this.outcome(index);
    if (!o.ok) return { error: o.error, index };
    return episodeView(o.value, this.version!, this.rule);
  }

  /**
   * What-if replay: the episode with some agent actions replaced (new kwargs as JSON text) or
   * removed, judged again under the same data version and rule. The recorded observations of
   * later steps stay as they were; only the replayed ones change.
   */
  whatIf(index: number, edits: readonly StepEdit[]): EpisodeView | { readonly error: string; readonly index: number } {
    if (!this.version) throw new Error('no data yet');
    const byMessage = new Map(edits.map((e) => [e.messageIndex, e]));
    let problem: string | null = null;
    const o = evaluateEpisode(this.records[index]!, this.domain, this.version, this.cache, (steps) =>
      steps.flatMap((s) => {
        const e = byMessage.get(s.messageIndex);
        if (!e) return [s];
        if (e.remove) return [];
        if (e.kwargsJson === undefined || s.action === null) return [s];
        const parsed = tryParseJson(e.kwargsJson);
        if (!parsed.ok || !(parsed.value instanceof Map)) {
          problem = `arguments of the action at message ${s.messageIndex} are not a JSON object${parsed.ok ? '' : `: ${parsed.error.text}`}`;
          return [s];
        }
        return [{ ...s, action: { name: e.name ?? s.action.name, kwargs: parsed.value } }];
      }),
    );
    if (problem !== null) return { error: problem, index };
    if (!o.ok) return { error: o.error, index };
    return episodeView(o.value, this.version, this.rule);
  }

  /** Whether some recorded gt_data_hash values are reproduced on `version` (and none contradicts it). */
  reproducesRecordedHashes(version: DataVersion): boolean {
    const picked = recordedHashSample(this.records);
    return picked.length > 0 && countRecordedMatches(picked, this.domain, version, this.cache) === picked.length;
  }

  /** The episode as JSON text that Python's json.loads reads back to the same values. */
  episodeJson(index: number): string {
    return jsonDumps(this.records[index]!.raw);
  }

  /** Indices of episodes whose messages contain `query` (case-insensitive). */
  search(query: string): number[] {
    const q = query.toLowerCase();
    if (!q) return this.records.map((r) => r.index);
    return this.records
      .filter((r) =>
        r.traj.some((m) => {
          const c = m.get('content');
          if (typeof c === 'string' && c.toLowerCase().includes(q)) return true;
          const calls = m.get('tool_calls');
          if (!Array.isArray(calls)) return false;
          return calls.some((x) => {
            const fn = x instanceof Map ? x.get('function') : null;
            if (!(fn instanceof Map)) return false;
            return [fn.get('name'), fn.get('arguments')].some((t) => typeof t === 'string' && t.toLowerCase().includes(q));
          });
        }),
      )
      .map((r) => r.index);
  }
}
