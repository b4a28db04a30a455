/**
 * Full-duplex (voice) simulations written for specs: ticks built from a compact description, put in a τ² results file
 * on the invented mock sample (sample-runs/runs/tau2-mock-sample.json, its data in sample-runs/tau2-data).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readTau2Text } from '../../src/core/contract';
import { Tau2Session } from '../../src/core/session/tau2/session';

const ROOT = resolve(import.meta.dirname, '../..');

/** The invented sample's τ² data (mock, banking_knowledge) as the session reads it. */
export const sampleTau2Read = async (p: string): Promise<string | null> => {
  try {
    return readFileSync(join(ROOT, 'sample-runs/tau2-data', p.replace(/^[^/]*\/(?=data\/tau2)/, '')), 'utf8');
  } catch {
    return null;
  }
};

export interface ChunkSpec {
  readonly text?: string | null;
  readonly ids?: readonly string[] | null;
  readonly speech?: boolean;
  readonly action?: string;
  readonly toolCalls?: readonly unknown[] | null;
  readonly audio?: boolean;
  readonly extra?: Record<string, unknown>;
}

export interface TickSpec {
  readonly agent?: ChunkSpec;
  readonly user?: ChunkSpec;
  readonly agentCalls?: readonly { id: string; name: string; arguments: Record<string, unknown>; output: string; error?: boolean }[];
  readonly userCalls?: readonly { id: string; name: string; arguments: Record<string, unknown>; output: string; error?: boolean }[];
}

const chunk = (role: 'assistant' | 'user', c: ChunkSpec | undefined, at: string): Record<string, unknown> | null =>
  c === undefined
    ? null
    : {
        role,
        content: c.text === undefined ? null : c.text,
        tool_calls: c.toolCalls ?? null,
        is_audio: c.audio ?? false,
        timestamp: at,
        turn_taking_action: c.action ? { action: c.action, info: null } : null,
        utterance_ids: c.ids === undefined ? null : c.ids,
        chunk_id: 0,
        is_final_chunk: true,
        contains_speech: c.speech ?? true,
        ...c.extra,
      };

const stamp = (i: number): string => new Date(Date.UTC(2026, 0, 1, 9, 0, 0, i * 200)).toISOString().replace('Z', '');

/** τ²'s `Tick` objects, `tick_id` from 0 (each spec one tick; `{}` is a silent tick). */
export function ticksOf(specs: readonly TickSpec[]): Record<string, unknown>[] {
  return specs.map((t, i) => {
    const calls = (xs: TickSpec['agentCalls'], requestor: string) => (xs ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, requestor }));
    const results = (xs: TickSpec['agentCalls'], requestor: string) =>
      (xs ?? []).map((c) => ({ id: c.id, role: 'tool', content: c.output, requestor, error: c.error ?? false }));
    return {
      tick_id: i,
      timestamp: stamp(i),
      agent_chunk: chunk('assistant', t.agent, stamp(i)),
      user_chunk: chunk('user', t.user, stamp(i)),
      agent_tool_calls: calls(t.agentCalls, 'assistant'),
      user_tool_calls: calls(t.userCalls, 'user'),
      agent_tool_results: results(t.agentCalls, 'assistant'),
      user_tool_results: results(t.userCalls, 'user'),
      user_transcript: null,
      tick_duration_seconds: 0.2,
      wall_clock_duration_seconds: null,
    };
  });
}

const SAMPLE = join(ROOT, 'sample-runs/runs/tau2-mock-sample.json');

/** The mock sample as a results object, its simulations replaced by `sims` (each a partial simulation over a base one). */
export function voiceRunJson(
  sims: readonly { task: string; ticks: readonly TickSpec[] | null; reward?: number; extra?: Record<string, unknown> }[],
  info: (info: Record<string, unknown>) => void = () => {},
): string {
  const run = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { info: Record<string, unknown>; simulations: Record<string, unknown>[] };
  const base = run.simulations[0]!;
  info(run.info);
  run.simulations = sims.map((s, i) => ({
    ...base,
    id: `voice-${i}`,
    task_id: s.task,
    trial: 0,
    termination_reason: 'user_stop',
    messages: null,
    mode: 'full_duplex',
    ticks: s.ticks === null ? null : ticksOf(s.ticks),
    reward_info: { reward: s.reward ?? 1.0 },
    review: null,
    auth_classification: null,
    hallucination_check: null,
    ...s.extra,
  }));
  return JSON.stringify(run);
}

/** A voice run on the mock sample, opened on the sample's data. */
export async function openVoice(...args: Parameters<typeof voiceRunJson>): Promise<Tau2Session> {
  return Tau2Session.open(readTau2Text(voiceRunJson(...args))!, sampleTau2Read);
}

/** The mock sample's `create_task` for user_2, as the port answers it on the sample data. */
export const CREATE_TASK_3 = {
  id: 'c1',
  name: 'create_task',
  arguments: { user_id: 'user_2', title: 'Book the team offsite' },
  output: '{"task_id": "task_3", "title": "Book the team offsite", "description": null, "status": "pending"}',
};
