/** Rows of `tau-inspect index` as the library keeps them: the app's folder library and the CLI's `audit` alike. */
import { TableBuilder, type LibraryRow } from '../view/library/table-builder';
import type { LibraryTable } from '../view/library/table';
import type { IndexRow } from './index-row';

/** An index row as the library keeps it (`path`: the run's file as the library names it). */
export function libraryRow(path: string, r: IndexRow): LibraryRow {
  return {
    run: {
      file: path,
      benchmark: r.benchmark,
      domain: r.domain,
      model: r.model,
      userModel: r.user_model,
      dataVersion: r.data_version,
      contentHash: r.content_hash,
      numTrials: r.num_trials,
    },
    index: r.index,
    task: r.task_id,
    trial: r.trial,
    recorded: r.recorded_reward,
    reward: r.reward,
    error: r.error !== null,
    infrastructure: r.termination === 'infrastructure_error',
    disagree: r.matches_recorded_reward === false,
    findingKinds: r.finding_kinds,
    spend: { agent_cost: r.agent_cost, user_cost: r.user_cost, duration: r.duration, prompt_tokens: r.prompt_tokens, completion_tokens: r.completion_tokens },
  };
}

/** Index rows into the library's columns. */
export function indexTable(rows: Iterable<IndexRow>): LibraryTable {
  const out = new TableBuilder();
  for (const r of rows) out.add(libraryRow(r.file, r));
  return out.finish();
}
