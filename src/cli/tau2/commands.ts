/** τ²-bench runs in the CLI: a results file or a results folder, judged by `Tau2Session`. */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  compareRuns,
  countIgnored,
  formatRatio,
  ignoredText,
  formatReward,
  inertJson,
  interactionMetricsText,
  prepareSha256,
  type LoadedDbs,
  readTau2Folder,
  readTau2Text,
  TAU2_DEFAULT_DATA_BASE,
  TAU2_PINNED_COMMIT,
  Tau2Session,
  tau2Ignored,
  tau2TaskOrder,
  type CompareOutcome,
  type Tau2RetrievalView,
  type Tau2Run,
} from '../../core/contract';
import { compareText } from '../compare-table';
import { keepKnownHashes, tau2Data } from './db-cache';
import { simulationNames } from '../library/walk';
import { terminalSafe } from '../terminal';
import { UsageError } from '../usage';

/** The `simulations/*.json` of a τ² run folder, by name (none when the folder has no `simulations/`); null when there is no such folder. */
async function simulationFiles(dir: string): Promise<{ name: string; text: string }[] | null> {
  const sims = join(dir, 'simulations');
  if (
    !(await stat(sims).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return null;
  // Each entry that cannot be read as a simulation file (a folder, a link that leads nowhere, a name that is not UTF-8) is named.
  const names = await simulationNames(dir, (n) => n.endsWith('.json'));
  return Promise.all(names.map(async (name) => ({ name, text: await readFile(join(sims, name), 'utf8') })));
}

/**
 * The τ² run at `path` — a results file (`{info, tasks, simulations}`) or a folder laid out as
 * leaderboard submissions are (`results.json` + `simulations/<id>.json`) — or null for anything else.
 * A results file beside a `simulations/` folder is that folder's run, as τ²'s `Results.load` reads it
 * (the "dir" format: the file holds the run's metadata, each simulation a file of its own).
 */
export async function readTau2Run(path: string): Promise<Tau2Run | null> {
  let isDir = false;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch {
    return null;
  }
  if (isDir) {
    let results: string;
    try {
      results = await readFile(join(path, 'results.json'), 'utf8');
    } catch {
      throw new UsageError(`${path} is a folder without results.json (a τ² run folder holds results.json and simulations/<id>.json)`);
    }
    return readTau2Folder(results, (await simulationFiles(path)) ?? []);
  }
  const bytes = await readFile(path);
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  if (bytes[i] !== 0x7b) return null;
  const text = new TextDecoder('utf-8').decode(bytes);
  // Python parity: Results._detect_format — a file with a sibling simulations/ folder is the "dir" format.
  const beside = await simulationFiles(dirname(path));
  return beside === null ? readTau2Text(text) : readTau2Folder(text.replace(/^\uFEFF/, ''), beside);
}

/** Opens a τ² run with its domain's data from `--data` (a folder or URL base), else τ²'s public host. */
export async function openTau2(
  run: Tau2Run,
  data: string | undefined,
  dbs?: Map<string, Promise<LoadedDbs>>,
): Promise<{ session: Tau2Session; notes: string[] }> {
  await prepareSha256();
  const root = data ?? (process.env.TAU2_DATA || TAU2_DEFAULT_DATA_BASE);
  const { read, store } = tau2Data(root);
  const session = await Tau2Session.open(run, read, { ...(dbs && { dbs }), ...(store && { store }) });
  const notes = [
    `file: a τ²-bench results file (${run.simulations.length} simulations, ${run.tasks.size} tasks${run.soloMode ? ', solo mode' : ''})`,
    `domain: ${run.domain} (info.environment_info.domain_name)`,
    `data: ${session.dataWhy}; from ${root}${data === undefined ? ` (default: pinned ${TAU2_PINNED_COMMIT.slice(0, 7)})` : ''}`,
    'rule: τ² v1.0.1 evaluate_simulation, EvaluationType.ALL (the product of each task’s reward_basis); NL assertions as recorded',
    `replay: lenient, as tau2 evaluate-trajs; ${run.judging.runTime.solo ? 'in' : 'without'} solo mode, as the run was judged when it was made (from info.agent_info.implementation ${
      run.judging.agent ?? '(none)'
    }); where evaluate-trajs' solo rule (${run.judging.evaluateTrajs.solo ? 'solo' : 'not solo'}) gives another reward, the simulation's findings say so`,
    ...voiceNotes(run),
    ...run.notes.map((n) => `note: ${n}`),
  ].map(terminalSafe);
  return { session, notes };
}

const fmt = (r: number | null): string => formatReward(r, '-');

/** The run's full-duplex (voice) simulations, as τ² decides them (get_communication_mode). */
function voiceNotes(run: Tau2Run): string[] {
  const n = run.simulations.filter((s) => s.fullDuplex).length;
  if (n === 0) return [];
  const ticks = run.simulations.filter((s) => s.fullDuplex && s.ticks).length;
  return [
    `mode: ${n === run.simulations.length ? 'every simulation is' : `${n} of ${run.simulations.length} simulations are`} full duplex (voice), judged from ${
      ticks === n ? 'their ticks' : `their ticks (${n - ticks} without ticks: τ²'s checks raise there)`
    }: the calls in tick order (the user's before the agent's within a tick), the communicate check on the agent's merged speech`,
  ];
}

/** τ²'s interaction metrics of a voice run in one line; null for a text run. */
function interactionLine(session: Tau2Session): string | null {
  return session.voice ? interactionMetricsText(session.interactionMetrics()) : null;
}

/**
 * `evaluate` on τ² runs: a JSON line per simulation, or a table. Several runs (a whole submission) are
 * judged in one process with each domain's DBs loaded once; their JSON lines then start with `file`.
 */
export async function evaluateTau2Runs(
  runs: readonly { readonly name: string; readonly run: Tau2Run }[],
  data: string | undefined,
  json: boolean,
): Promise<void> {
  const dbs = new Map<string, Promise<LoadedDbs>>();
  for (const { name, run } of runs) {
    if (runs.length > 1 && !json) process.stdout.write(`== ${terminalSafe(name)}\n`);
    await evaluateTau2(run, data, json, dbs, runs.length > 1 ? name : null);
    if (runs.length > 1 && !json) process.stdout.write('\n');
  }
}

/** `evaluate` on a τ² run: a JSON line per simulation, or a table. */
export async function evaluateTau2(
  run: Tau2Run,
  data: string | undefined,
  json: boolean,
  dbs?: Map<string, Promise<LoadedDbs>>,
  file: string | null = null,
): Promise<void> {
  const { session, notes } = await openTau2(run, data, dbs);
  const interaction = interactionLine(session);
  if (json) {
    process.stderr.write([...notes, ...(interaction === null ? [] : [interaction])].join('\n') + '\n');
    for (let i = 0; i < session.size; i++) process.stdout.write(`${inertJson(file === null ? session.report(i) : { file, ...session.report(i) })}\n`);
    await keepKnownHashes();
    return;
  }
  const rows = [['#', 'task', 'trial', 'recorded', 'reward', 'db', 'ended', 'why']];
  let total = 0;
  let judged = 0;
  let agree = 0;
  let recorded = 0;
  const ignored: string[][] = [];
  for (let i = 0; i < session.size; i++) {
    const r = session.report(i);
    ignored.push(tau2Ignored(r.findings));
    // A simulation that cannot be judged has no reward: it is said so, and left out of the average (never a 0.0).
    const evaluable = r.error === null;
    if (evaluable) {
      total += r.reward;
      judged++;
      if (r.recorded_reward !== null) {
        recorded++;
        if (r.matches_recorded_reward) agree++;
      }
    }
    const why = evaluable
      ? r.premature
        ? 'ended prematurely'
        : ([
            ...(r.db_match === false ? ['DB differs'] : []),
            ...(r.action_checks ?? []).filter((c) => !c.action_match).map(() => 'action missed'),
            ...(r.communicate_checks ?? []).filter((c) => !c.met).map((c) => `not said: ${c.info}`),
          ].join('; ') || 'ok') + (r.tau2_would_refuse !== null ? '; τ² would refuse the file' : '')
      : r.error!;
    rows.push([
      String(i),
      r.task_id,
      String(r.trial ?? '-'),
      r.recorded_reward_text ?? fmt(r.recorded_reward),
      evaluable ? fmt(r.reward) + (r.matches_recorded_reward === false ? ' ≠' : '') : 'not evaluable',
      r.db_match === null ? '-' : r.db_match ? 'match' : 'differ',
      r.termination_reason,
      terminalSafe(why),
    ]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => [...row[c]!].length)));
  const table = rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n');
  process.stdout.write(`${notes.join('\n')}\n\n${table}\n\n`);
  const apart = session.size - judged;
  process.stdout.write(
    `${session.size} simulations${apart > 0 ? `, ${apart} not evaluable (left out of the average)` : ''}; average reward ${formatRatio(total, judged)} = ${total}/${judged} (premature terminations count 0, as τ² reports); recomputed reward equals the recorded one for ${agree} of ${recorded}\n${
      interaction === null ? '' : `${interaction}\n`
    }`,
  );
  await keepKnownHashes();
  const counts = countIgnored(ignored);
  if (counts.length > 0) process.stdout.write(`what the reward ignores (procedure findings, not part of τ²'s reward): ${ignoredText(counts, 'simulations')}\n`);
}

/** `explain` on a τ² run. */
export async function explainTau2(run: Tau2Run, data: string | undefined, index: number, json: boolean): Promise<void> {
  const { session, notes } = await openTau2(run, data);
  if (!Number.isInteger(index) || index < 0 || index >= session.size)
    throw new UsageError(`--episode must be 0 … ${session.size - 1} (the file has ${session.size} simulations)`);
  const retrieval = session.domain.name === 'banking_knowledge' ? await session.retrieval(index) : null;
  if (json) {
    process.stdout.write(`${inertJson({ ...session.report(index), explanation: session.explain(index), ...(retrieval && { retrieval }) })}\n`);
    return;
  }
  const lines = [...session.explain(index), ...(retrieval ? retrievalLines(retrieval) : [])];
  process.stdout.write(`${notes.join('\n')}\n\n${lines.map(terminalSafe).join('\n')}\n`);
}

/** `compare` on two τ² runs: per task the passes of each, flipped tasks, pass^k of both. */
export async function compareTau2(
  a: { name: string; run: Tau2Run },
  b: { name: string; run: Tau2Run },
  data: string | undefined,
  json: boolean,
): Promise<void> {
  const sa = (await openTau2(a.run, data)).session;
  const sb = (await openTau2(b.run, data)).session;
  const ids = tau2TaskOrder([...a.run.simulations, ...b.run.simulations].map((s) => s.taskId));
  const number = new Map(ids.map((id, i) => [id, i]));
  const outcomes = (s: Tau2Session): CompareOutcome[] =>
    Array.from({ length: s.size }, (_, i) => {
      const r = s.report(i);
      return {
        index: i,
        taskId: number.get(r.task_id) ?? null,
        trial: typeof r.trial === 'number' ? r.trial : null,
        reward: r.error === null ? r.reward : null,
      };
    });
  const cmp = compareRuns(outcomes(sa), outcomes(sb));
  const notes = [`A: ${a.name} (τ² ${a.run.domain}, ${sa.size} simulations)`, `B: ${b.name} (τ² ${b.run.domain}, ${sb.size} simulations)`];
  if (a.run.domain !== b.run.domain) notes.push(`warning: A is ${a.run.domain} and B is ${b.run.domain}; the task ids do not name the same tasks`);
  if (json) {
    process.stderr.write(notes.map(terminalSafe).join('\n') + '\n');
    for (const t of cmp.tasks) process.stdout.write(`${inertJson({ task_id: ids[t.taskId], a: t.a, b: t.b, flip: t.flip })}\n`);
    return;
  }
  process.stdout.write(compareText(notes, cmp, (id) => ids[id]!, `flipped: ${cmp.gained} now passed by B, ${cmp.lost} no longer passed by B`));
}

/** The knowledge-base documents each retrieval call brought back (banking_knowledge), titles and the first words of each. */
function retrievalLines(r: Tau2RetrievalView): string[] {
  const out: string[] = ['', 'Retrieval (never replayed; documents named in the recorded outputs, opened from the data):'];
  if (r.calls.length === 0) out.push('  no retrieval call');
  for (const c of r.calls) {
    out.push(
      `  call ${c.call + 1} ${c.name}: ${c.documents.length === 0 ? 'names no document' : `${c.documents.length} document${c.documents.length === 1 ? '' : 's'}`}`,
    );
    for (const d of c.documents)
      out.push(`    ${d.id}${d.required ? ' [required by the task]' : ''}: ${d.doc ? `${d.doc.title} — ${oneLine(d.doc.content, 160)}` : '(not in the data)'}`);
  }
  if (r.required.length > 0) {
    out.push(
      `  the task requires: ${r.required.map((d) => `${d.id} (${d.retrievedIn === null ? 'never retrieved' : `retrieved in call ${d.retrievedIn + 1}`})`).join(', ')}`,
    );
  }
  return out;
}

const oneLine = (s: string, n: number): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
