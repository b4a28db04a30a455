/**
 * Leaderboard submissions re-judged: a folder laid out as tau2-bench's leaderboard (`<entry>/submission.json` beside
 * `<entry>/trajectories/`), each entry's claimed pass^k per domain (`results.<domain>.pass_1…pass_4`, percentages)
 * beside the pass^k of its trajectories — from their recorded rewards (what the leaderboard's maintainers recompute) and
 * recomputed by tau-inspect's judge — with the difference flagged; the trajectory files it names but lacks listed.
 *
 * Pure: the caller (the CLI's `submissions`, the app's library) reads the files and judges each trajectory file into
 * index rows (`index-row.ts`, as `tau-inspect index` does); `parseSubmission` reads a submission.json's text and
 * `submissionView` puts the numbers side by side. A malformed submission.json is named field by field, and whatever of
 * it can be read is still compared.
 */
import { PyException } from '../../py/errors';
import { parseJson } from '../../py/json-parse';
import type { PyValue } from '../../py/value';
import { tau2PassHatK } from '../../view/tau2/summary';
import type { IndexRow } from '../index-row';

/** The leaderboard's domains (tau2's `scripts/leaderboard/submission.py` DOMAINS), in its order. */
export const SUBMISSION_DOMAINS = ['retail', 'airline', 'telecom', 'banking_knowledge'] as const;
/** The folder beside submission.json that holds the trajectory files (TRAJECTORY_FILES_DIR_NAME). */
export const TRAJECTORIES_DIR = 'trajectories';
export const SUBMISSION_FILE = 'submission.json';

/** A domain's claims: pass^1…pass^4 in percent (null: not claimed) and the cost per trajectory. */
export interface SubmissionClaims {
  readonly pass: readonly (number | null)[];
  readonly cost: number | null;
}

export interface ParsedSubmission {
  readonly modelName: string | null;
  readonly modelOrganization: string | null;
  readonly submittingOrganization: string | null;
  readonly submissionDate: string | null;
  readonly submissionType: string | null;
  readonly modality: string | null;
  /** `trajectory_files`: domain → file name under trajectories/ (null: the file names none). */
  readonly trajectoryFiles: ReadonlyMap<string, string> | null;
  readonly claims: ReadonlyMap<string, SubmissionClaims>;
  /** What is wrong with the file, each naming its field (`results.airline.pass_1: …`); empty when nothing is. */
  readonly errors: readonly string[];
}

const isDict = (v: PyValue | undefined): v is Map<string, PyValue> => v instanceof Map;
const num = (v: PyValue | undefined): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);
const show = (v: PyValue | undefined): string =>
  v === undefined
    ? 'nothing'
    : typeof v === 'string'
      ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)
      : isDict(v)
        ? 'an object'
        : Array.isArray(v)
          ? 'a list'
          : String(v);

/** Reads a submission.json as the leaderboard's `Submission` model asks for it, naming each field it cannot use. */
export function parseSubmission(text: string): ParsedSubmission {
  const errors: string[] = [];
  let root: PyValue;
  try {
    root = parseJson(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    const why = e instanceof PyException ? e.text : String(e);
    return empty([`submission.json is not JSON: ${why}`]);
  }
  if (!isDict(root)) return empty([`submission.json: should be an object, not ${show(root)}`]);
  const text1 = (key: string, required: boolean): string | null => {
    const v = root.get(key);
    if (typeof v === 'string') return v;
    if (v === undefined || v === null) {
      if (required) errors.push(`${key}: missing (the leaderboard requires it)`);
    } else errors.push(`${key}: should be text, not ${show(v)}`);
    return null;
  };
  const modelName = text1('model_name', true);
  const modelOrganization = text1('model_organization', true);
  const submittingOrganization = text1('submitting_organization', true);
  const submissionDate = text1('submission_date', true);
  if (submissionDate !== null && !/^\d{4}-\d{2}-\d{2}$/.test(submissionDate))
    errors.push(`submission_date: should be a date (YYYY-MM-DD), not ${show(submissionDate)}`);
  const submissionType = text1('submission_type', false);
  if (submissionType !== null && submissionType !== 'standard' && submissionType !== 'custom')
    errors.push(`submission_type: should be 'standard' or 'custom', not ${show(submissionType)}`);
  const modality = text1('modality', false);
  if (!isDict(root.get('contact_info')))
    errors.push(
      `contact_info: ${root.has('contact_info') ? `should be an object, not ${show(root.get('contact_info'))}` : 'missing (the leaderboard requires it)'}`,
    );
  const claims = new Map<string, SubmissionClaims>();
  const results = root.get('results');
  if (!isDict(results))
    errors.push(`results: ${results === undefined ? 'missing (the leaderboard requires it)' : `should be an object, not ${show(results)}`}`);
  else
    for (const [domain, r] of results) {
      if (!(SUBMISSION_DOMAINS as readonly string[]).includes(domain)) {
        errors.push(`results.${domain}: not a leaderboard domain (${SUBMISSION_DOMAINS.join(', ')})`);
        continue;
      }
      if (r === null) continue;
      if (!isDict(r)) {
        errors.push(`results.${domain}: should be an object, not ${show(r)}`);
        continue;
      }
      const pass = [1, 2, 3, 4].map((k) => {
        const v = r.get(`pass_${k}`);
        if (v === undefined || v === null) return null;
        const n = typeof v === 'boolean' ? null : num(v);
        if (n === null || !Number.isFinite(n) || n < 0 || n > 100) {
          errors.push(`results.${domain}.pass_${k}: should be a percentage from 0 to 100, not ${show(v)}`);
          return null;
        }
        return n;
      });
      const c = r.get('cost');
      const cost = c === undefined || c === null ? null : typeof c === 'boolean' ? null : num(c);
      if (c !== undefined && c !== null && (cost === null || cost < 0)) errors.push(`results.${domain}.cost: should be a number ≥ 0, not ${show(c)}`);
      claims.set(domain, { pass, cost: cost !== null && cost >= 0 ? cost : null });
    }
  let trajectoryFiles: Map<string, string> | null = null;
  const tf = root.get('trajectory_files');
  if (tf !== undefined && tf !== null) {
    if (!isDict(tf)) errors.push(`trajectory_files: should be an object (domain → file name), not ${show(tf)}`);
    else {
      trajectoryFiles = new Map();
      for (const [domain, name] of tf) {
        if (typeof name !== 'string' || name === '') errors.push(`trajectory_files.${domain}: should be a file name, not ${show(name)}`);
        else if (name.split(/[\\/]/).some((p) => p === '..')) errors.push(`trajectory_files.${domain}: names a file outside trajectories/ (${show(name)})`);
        else trajectoryFiles.set(domain, name);
      }
    }
  }
  return { modelName, modelOrganization, submittingOrganization, submissionDate, submissionType, modality, trajectoryFiles, claims, errors };
}

function empty(errors: string[]): ParsedSubmission {
  return {
    modelName: null,
    modelOrganization: null,
    submittingOrganization: null,
    submissionDate: null,
    submissionType: null,
    modality: null,
    trajectoryFiles: null,
    claims: new Map(),
    errors,
  };
}

/** A trajectory file (or run folder) under trajectories/, by its name there, judged into index rows — or why it could not be. */
export interface SubmissionFile {
  readonly name: string;
  readonly rows: readonly IndexRow[] | null;
  readonly error: string | null;
}

/** One pass^k, claimed beside recomputed and recorded (percentages), and how the claim stands. */
export interface SubmissionPassK {
  readonly k: number;
  readonly claimed: number | null;
  /** From tau-inspect's judge (a simulation it cannot judge counts as failed); null when the trajectories give no such k. */
  readonly recomputed: number | null;
  /** From the rewards the file records (what the leaderboard's maintainers recompute). */
  readonly recorded: number | null;
  /** The claim against the recomputed value, beyond the claim's own rounding: 'higher' | 'lower'; null when it agrees or either is missing. */
  readonly flag: 'higher' | 'lower' | null;
}

export interface SubmissionDomain {
  readonly domain: string;
  /** The trajectory file the submission names for it (null: none named). */
  readonly file: string | null;
  /** The named file is not under trajectories/. */
  readonly missing: boolean;
  /** Why the file gave no numbers (cannot be read, another domain, no simulations). */
  readonly error: string | null;
  readonly passK: readonly SubmissionPassK[];
  readonly claimedCost: number | null;
  /** The mean `agent_cost` the trajectories record (infrastructure errors left out, as τ²'s compute_metrics); null: none recorded. */
  readonly recordedCost: number | null;
  /** The agent's model the trajectories record (`info.agent_info.llm`). */
  readonly model: string | null;
  /** Denominators: tasks, the fewest trials of a task, simulations, of which tau-inspect could not judge. */
  readonly tasks: number;
  readonly trials: number;
  readonly simulations: number;
  readonly notEvaluable: number;
  /** Simulations tau2 evaluate-trajs would judge otherwise than the run was judged (#502). */
  readonly evaluateTrajsDiffers: number;
}

export interface SubmissionView {
  /** The entry's folder name (its submission id). */
  readonly entry: string;
  readonly modelName: string | null;
  readonly organization: string | null;
  readonly submissionType: string | null;
  readonly modality: string | null;
  readonly errors: readonly string[];
  readonly domains: readonly SubmissionDomain[];
  /** Files trajectory_files names that trajectories/ lacks. */
  readonly missingFiles: readonly string[];
  /** Files under trajectories/ that trajectory_files does not name. */
  readonly unnamedFiles: readonly string[];
  /** How many pass^k claims differ from the recomputed ones. */
  readonly flagged: number;
  /** What τ²'s own `prepare_submission` warns of beside the numbers: another model than the trajectories', a domain they hold that no claim covers. */
  readonly notes: readonly string[];
}

/** Decimal places a claim is written with (at least one: a claim of 61 is read as 61.0). */
function decimals(x: number): number {
  const s = String(x);
  const i = s.indexOf('.');
  return Math.max(1, i < 0 ? 0 : s.length - i - 1);
}

/** The claim against a recomputed percentage: beyond half a unit of the claim's last decimal place. */
export function claimFlag(claimed: number | null, recomputed: number | null): 'higher' | 'lower' | null {
  if (claimed === null || recomputed === null) return null;
  const tolerance = 0.5 * 10 ** -decimals(claimed) + 1e-9;
  return claimed - recomputed > tolerance ? 'higher' : recomputed - claimed > tolerance ? 'lower' : null;
}

function domainOf(file: SubmissionFile): string | null {
  return file.rows?.find((r) => r.domain !== null)?.domain ?? null;
}

function judgedDomain(domain: string, name: string | null, file: SubmissionFile | undefined, claims: SubmissionClaims | undefined): SubmissionDomain {
  const none = { tasks: 0, trials: 0, simulations: 0, notEvaluable: 0, evaluateTrajsDiffers: 0 };
  // k from 1 to the largest the trajectories give or the submission claims.
  const claimedTop = (claims?.pass ?? []).reduce<number>((m, x, i) => (x !== null ? i + 1 : m), 0);
  const passK = (recomputed: readonly number[], recorded: readonly number[]): SubmissionPassK[] =>
    Array.from({ length: Math.max(recomputed.length, claimedTop) }, (_, i) => {
      const claimed = claims?.pass[i] ?? null;
      const r = recomputed[i] ?? null;
      return { k: i + 1, claimed, recomputed: r, recorded: recorded[i] ?? null, flag: claimFlag(claimed, r) };
    });
  const base = { domain, file: name, claimedCost: claims?.cost ?? null, recordedCost: null, model: null };
  if (name !== null && file === undefined) return { ...base, missing: true, error: null, passK: passK([], []), ...none };
  if (file === undefined) return { ...base, missing: false, error: null, passK: passK([], []), ...none };
  const rows = (file.rows ?? []).filter((r) => r.benchmark === 'tau2');
  const error =
    file.error ??
    (rows.length === 0
      ? 'no τ² simulation in it'
      : domainOf(file) !== domain
        ? `its simulations are of domain ${domainOf(file) ?? '(none)'}, not ${domain}`
        : null);
  if (error !== null) return { ...base, missing: false, error, passK: passK([], []), ...none };
  const numTrials = rows[0]!.num_trials;
  const outcomes = (reward: (r: IndexRow) => number | null) =>
    rows.map((r) => ({ task: r.task_id ?? '', reward: reward(r) ?? 0, termination: r.termination ?? '' }));
  // As percentages, as the leaderboard writes them; a simulation that cannot be judged (or records no reward) fails.
  const pct = (xs: { k: number; value: number }[]): number[] => xs.map((x) => x.value * 100);
  const recomputed = pct(
    tau2PassHatK(
      outcomes((r) => r.reward),
      numTrials,
    ),
  );
  const recorded = pct(
    tau2PassHatK(
      outcomes((r) => r.recorded_reward),
      numTrials,
    ),
  );
  const judged = rows.filter((r) => r.termination !== 'infrastructure_error');
  // Python parity: compute_metrics' avg_agent_cost — pandas' mean, which skips simulations that record none.
  const costs = judged.map((r) => r.agent_cost).filter((c): c is number => c !== null);
  const perTask = new Map<string, number>();
  for (const r of judged) perTask.set(r.task_id ?? '', (perTask.get(r.task_id ?? '') ?? 0) + 1);
  return {
    ...base,
    recordedCost: costs.length === 0 ? null : costs.reduce((a, b) => a + b, 0) / costs.length,
    model: rows[0]!.model,
    missing: false,
    error: null,
    passK: passK(recomputed, recorded),
    tasks: perTask.size,
    trials: perTask.size === 0 ? 0 : Math.min(...perTask.values()),
    simulations: rows.length,
    notEvaluable: rows.filter((r) => r.reward === null).length,
    evaluateTrajsDiffers: rows.filter((r) => r.finding_kinds.includes('evaluate-trajs-differs')).length,
  };
}

/**
 * One entry: its claims beside the pass^k of the files under trajectories/ (`files`, by name there; null when the
 * entry has no trajectories/ folder). Domains in the leaderboard's order, then any other the files hold.
 */
export function submissionView(entry: string, parsed: ParsedSubmission, files: readonly SubmissionFile[] | null): SubmissionView {
  const byName = new Map((files ?? []).map((f) => [f.name, f]));
  const named = parsed.trajectoryFiles;
  const domains = new Map<string, { name: string | null; file: SubmissionFile | undefined }>();
  if (named !== null) for (const [d, name] of named) domains.set(d, { name, file: byName.get(name) });
  else
    // No trajectory_files: each file is matched to the domain its simulations are of.
    for (const f of files ?? []) {
      const d = domainOf(f);
      if (d !== null && !domains.has(d)) domains.set(d, { name: f.name, file: f });
    }
  for (const d of parsed.claims.keys()) if (!domains.has(d)) domains.set(d, { name: null, file: undefined });
  const order = (d: string): number => {
    const i = (SUBMISSION_DOMAINS as readonly string[]).indexOf(d);
    return i < 0 ? SUBMISSION_DOMAINS.length : i;
  };
  const rows = [...domains.entries()]
    .sort(([a], [b]) => order(a) - order(b) || (a < b ? -1 : 1))
    .map(([d, { name, file }]) => judgedDomain(d, name, file, parsed.claims.get(d)));
  const used = new Set(rows.map((r) => r.file).filter((x): x is string => x !== null));
  return {
    entry,
    modelName: parsed.modelName,
    organization: parsed.submittingOrganization ?? parsed.modelOrganization,
    submissionType: parsed.submissionType,
    modality: parsed.modality,
    errors: parsed.errors,
    domains: rows,
    missingFiles: named === null ? [] : [...new Set([...named.values()].filter((n) => !byName.has(n)))],
    unnamedFiles: (files ?? []).map((f) => f.name).filter((n) => !used.has(n)),
    flagged: rows.reduce((n, r) => n + r.passK.filter((p) => p.flag !== null).length, 0),
    notes: [
      ...[...new Set(rows.map((r) => r.model).filter((m): m is string => m !== null && m !== parsed.modelName))].map(
        (m) =>
          `model_name ${parsed.modelName === null ? '(none)' : `'${parsed.modelName}'`} is not the model the trajectories record ('${m}', info.agent_info.llm)`,
      ),
      ...rows
        .filter((r) => r.simulations > 0 && !parsed.claims.has(r.domain))
        .map((r) => `the trajectories hold ${r.domain} simulations, and submission.json claims nothing for ${r.domain}`),
    ],
  };
}

/** A percentage as the submissions view shows it (two decimals), `none` for none. */
export const formatPercent = (x: number | null, none = '—'): string => (x === null ? none : x.toFixed(2));

/** The claim against the recomputed value in words (null when they agree or either is missing). */
export function claimFlagText(p: SubmissionPassK): string | null {
  if (p.flag === null || p.claimed === null || p.recomputed === null) return null;
  return `claim ${p.flag} than recomputed by ${formatPercent(Math.abs(p.claimed - p.recomputed))} points`;
}

/** An entry as the CLI's `submissions --json` writes it (snake_case, plain). */
export function submissionJson(v: SubmissionView) {
  return {
    entry: v.entry,
    model_name: v.modelName,
    organization: v.organization,
    submission_type: v.submissionType,
    modality: v.modality,
    errors: v.errors,
    flagged: v.flagged,
    missing_files: v.missingFiles,
    unnamed_files: v.unnamedFiles,
    notes: v.notes,
    domains: v.domains.map((d) => ({
      domain: d.domain,
      file: d.file,
      missing: d.missing,
      error: d.error,
      tasks: d.tasks,
      trials: d.trials,
      simulations: d.simulations,
      not_evaluable: d.notEvaluable,
      evaluate_trajs_differs: d.evaluateTrajsDiffers,
      claimed_cost: d.claimedCost,
      recorded_cost: d.recordedCost,
      model: d.model,
      pass_k: d.passK.map((p) => ({ k: p.k, claimed: p.claimed, recomputed: p.recomputed, recorded: p.recorded, flag: p.flag })),
    })),
  };
}
