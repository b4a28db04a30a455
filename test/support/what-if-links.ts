/**
 * `#ep=` links whose what-if is at the app's caps (issue #35 class 8), for the what-if link bench
 * (bench/browser/whatif-link-bench.ts) and the browser spec that opens one and one past them
 * (test/browser/what-if-caps.spec.ts): the retail sample's episode 1 and the mock sample's simulation 0, each with
 * `MAX_EDITS` inserted calls whose arguments fill the caps (`argsAtCaps`).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TAU2_PINNED_COMMIT, type StepEdit } from '../../src/core/contract';
import { MAX_EDIT_TEXT, MAX_EDITS, MAX_EDITS_CHARS } from '../../src/protocol/share-context';
import { MAX_SHARED_JSON_BYTES, sharePayload } from '../../src/worker/shared-episode';

const ROOT = resolve(import.meta.dirname, '../..');

/** Arguments of `chars` characters that deflate as a hand-typed text would not (a link of random text would be past the payload cap). */
const longText = (i: number, chars: number): string => {
  const unit = `call ${i}: the quick brown fox jumps over the lazy dog ${i * 7919} `;
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
};

/**
 * The longest arguments each of `MAX_EDITS` edits may carry: an edit's text cap (`MAX_EDIT_TEXT`), its share of all edits'
 * text (`MAX_EDITS_CHARS`, the tool's name counted) and of the link's inflate cap (`MAX_SHARED_JSON_BYTES`, a tenth left
 * for the episode), whichever is least.
 */
export const argsAtCaps = (tool: string): number =>
  Math.min(MAX_EDIT_TEXT, Math.floor(MAX_EDITS_CHARS / MAX_EDITS) - tool.length, Math.floor((MAX_SHARED_JSON_BYTES * 0.9) / MAX_EDITS));

/** `count` inserted calls of `tool` (`MAX_EDITS`), each with one argument `arg`, its JSON `chars` characters long (`argsAtCaps`). */
export function editsAtCaps(messageIndex: number, tool: string, arg: string, count = MAX_EDITS, chars = argsAtCaps(tool)): StepEdit[] {
  return Array.from({ length: count }, (_, i) => {
    const text = longText(i, chars - arg.length - 8);
    return { messageIndex, insert: true, name: tool, kwargsJson: JSON.stringify({ [arg]: text }) };
  });
}

/** The `#ep=` fragment of the retail sample's episode 1 with the edits at the caps (inserted before its first tool call). */
export function tauBenchLinkAtCaps(count = MAX_EDITS, chars = argsAtCaps('find_user_id_by_email')): string {
  const run = JSON.parse(readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json'), 'utf8')) as { traj: { role: string; tool_calls?: unknown[] }[] }[];
  const episode = run[1]!;
  const at = episode.traj.findIndex((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0);
  const edits = editsAtCaps(at, 'find_user_id_by_email', 'email', count, chars);
  return `#ep=${sharePayload(JSON.stringify(episode), { file: 'retail-sample.json', index: 1, step: 0, notes: null, edits })}&episode=0&step=0`;
}

/** The `#ep=` fragment of the mock sample's simulation 0 (a results file of its task and it) with the edits at the caps. */
export function tau2LinkAtCaps(count = MAX_EDITS, chars = argsAtCaps('transfer_to_human_agents')): string {
  const run = JSON.parse(readFileSync(join(ROOT, 'sample-runs/runs/tau2-mock-sample.json'), 'utf8')) as {
    tasks: { id: string }[];
    simulations: { task_id: string; messages: { role: string; tool_calls?: unknown[] | null }[] }[];
  };
  const sim = run.simulations[0]!;
  const at = sim.messages.findIndex((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0);
  const edits = editsAtCaps(at, 'transfer_to_human_agents', 'summary', count, chars);
  const one = { ...run, tasks: run.tasks.filter((t) => t.id === sim.task_id), simulations: [sim] };
  return `#ep=${sharePayload(JSON.stringify(one), { file: 'tau2-mock-sample.json', index: 0, step: 0, notes: null, edits })}&episode=0&step=0`;
}

/** A folder with the mock sample's invented data laid out as the public host has it, to serve as TAU2_DATA (as the τ² review spec does). */
export function mockDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'what-if-links-'));
  const mock = join(dir, TAU2_PINNED_COMMIT, 'data/tau2/domains/mock');
  mkdirSync(mock, { recursive: true });
  for (const f of ['db.json', 'user_db.json']) copyFileSync(join(ROOT, 'sample-runs/tau2-data/data/tau2/domains/mock', f), join(mock, f));
  return dir;
}
