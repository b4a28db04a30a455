import type { LibraryTable } from '../../protocol/wire-types';
import { readParquetColumns, type Cell } from './parquet-file';
import { TableBuilder } from '../../core/contract';

/** The columns of `tau-inspect index` the library needs (src/cli/library/index-row.ts), and those it uses when there. */
const REQUIRED = ['file', 'index', 'benchmark', 'domain', 'task_id', 'trial', 'recorded_reward', 'reward', 'content_hash', 'error'] as const;
const OPTIONAL = [
  'model',
  'user_model',
  'data_version',
  'termination',
  'matches_recorded_reward',
  'finding_kinds',
  'num_trials',
  'agent_cost',
  'user_cost',
  'duration',
  'prompt_tokens',
  'completion_tokens',
] as const;

/** The columns the library reads as numbers (a reward, a position): anything else in them is refused, not read as none. */
const NUMBERS = [
  'index',
  'trial',
  'recorded_reward',
  'reward',
  'num_trials',
  'agent_cost',
  'user_cost',
  'duration',
  'prompt_tokens',
  'completion_tokens',
] as const;

/** A cell in words, for a sentence: text (quoted, cut), true/false, a list. */
const describeCell = (v: Cell): string =>
  typeof v === 'string'
    ? `text (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`
    : Array.isArray(v)
      ? 'a list'
      : `${typeof v} values (${String(v)})`;

const text = (v: Cell | undefined): string | null => (typeof v === 'string' ? v : v === null || v === undefined || typeof v === 'object' ? null : String(v));
const number = (v: Cell | undefined): number | null => (typeof v === 'number' ? v : null);

/**
 * A `runs.parquet` (one row per episode, as `tau-inspect index` writes it) read into the library's columns.
 * A file that is not Parquet, or lacks a column the library needs, is refused in words.
 */
export async function readLibraryParquet(file: Blob | Uint8Array): Promise<LibraryTable> {
  const bytes = file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer());
  const { rows, columns } = await readParquetColumns(bytes, [...REQUIRED, ...OPTIONAL]);
  const missing = REQUIRED.filter((c) => !columns.has(c));
  if (missing.length > 0) throw new Error(`it lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}: make it with tau-inspect index`);
  // A column of numbers that holds something else (text rewards would all read as "no reward"): refused, naming it.
  for (const name of NUMBERS) {
    const cells = columns.get(name) ?? [];
    const at = cells.findIndex((v) => v !== null && v !== undefined && typeof v !== 'number');
    if (at >= 0)
      throw new Error(`its ${name} column holds ${describeCell(cells[at]!)} (row ${at + 1}), not numbers: tau-inspect index writes ${name} as numbers`);
  }
  const none: Cell[] = [];
  const col = (n: (typeof REQUIRED)[number] | (typeof OPTIONAL)[number]): readonly Cell[] => columns.get(n) ?? none;
  const [file_, index, benchmark, domain, task, trial, recorded, reward, hash, error] = REQUIRED.map(col);
  const [model, userModel, dataVersion, termination, matches, findings, numTrials, agentCost, userCost, duration, promptTokens, completionTokens] =
    OPTIONAL.map(col);
  // An index written before the spend columns: nothing recorded (never 0).
  const hasSpend = columns.has('agent_cost');
  // An index written before `num_trials` was a column: runs get none (absent), and the leaderboard says what that changes.
  const hasTrials = columns.has('num_trials');
  const out = new TableBuilder(rows);
  for (let i = 0; i < rows; i++) {
    const kinds = findings![i];
    out.add({
      run: {
        file: text(file_![i]) ?? '',
        benchmark: text(benchmark![i]) ?? '',
        domain: text(domain![i]),
        model: text(model![i]),
        userModel: text(userModel![i]),
        dataVersion: text(dataVersion![i]),
        contentHash: text(hash![i]) ?? '',
        ...(hasTrials && { numTrials: number(numTrials![i]) }),
      },
      index: number(index![i]) ?? i,
      task: text(task![i]),
      trial: number(trial![i]),
      recorded: number(recorded![i]),
      reward: number(reward![i]),
      error: error![i] !== null && error![i] !== undefined,
      infrastructure: termination![i] === 'infrastructure_error',
      disagree: matches![i] === false,
      findingKinds: Array.isArray(kinds) ? kinds : null,
      ...(hasSpend && {
        spend: {
          agent_cost: number(agentCost![i]),
          user_cost: number(userCost![i]),
          duration: number(duration![i]),
          prompt_tokens: number(promptTokens![i]),
          completion_tokens: number(completionTokens![i]),
        },
      }),
    });
  }
  return out.finish();
}
