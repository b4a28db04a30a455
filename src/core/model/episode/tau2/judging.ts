/**
 * How a τ² run was judged when it was made, and how `tau2 evaluate-trajs` (v1.0.1) judges it again — from the
 * results file's `info`: which agent and which user ran (`agent_info.implementation`, `user_info.implementation`).
 *
 * - **Solo mode.** At run time the environment is in solo mode when the agent is registered as a solo agent
 *   (`registry.get_agent_metadata(agent, 'solo_mode')` in v1.0.x, `issubclass(…, LLMSoloAgent)` in v0.x):
 *   `llm_agent_solo`, and its ground-truth variant `llm_agent_solo_gt` that recorded several of τ²'s own telecom
 *   files. `evaluate-trajs` decides it with `is_solo_mode`: `llm_agent_solo` with `dummy_user` only — so an
 *   `llm_agent_solo_gt` run is replayed without solo mode, its calls of the user's device tools find no tool, and
 *   its rewards collapse (#502: 0.72 → 0.10).
 * - **Replay.** A simulation's calls are replayed on a fresh environment (`Environment.set_state`); at run time the
 *   replay is strict (every version: a replayed write whose output differs from the recorded tool message raises
 *   `ValueError`, and the simulation gets no verdict), `evaluate-trajs` v1.0.1 replays leniently (`strict_replay=False`:
 *   the difference is logged and the replay goes on). The state reached is the same either way.
 *
 * tau-inspect judges in solo mode as the run was judged (the `runTime` rule) and replays leniently, as `evaluate-trajs`
 * does: a recorded write that replays to another output cannot come from a run made on this data (the run-time replay
 * would have raised before any reward was recorded), so the only verdict τ² gives such a file is evaluate-trajs'
 * (the simulation's `output-differs` finding names the calls and says the run-time replay would have raised). Where the
 * solo rule gives another reward, the simulation says so (the `evaluate-trajs-differs` finding) — never a silent switch.
 */
import type { TDict, TValue } from '../../../py/pydantic';

/** Agents registered with `solo_mode` (they also drive the user's tools; the user is `dummy_user`). */
export const TAU2_SOLO_AGENTS: ReadonlySet<string> = new Set(['llm_agent_solo', 'llm_agent_solo_gt']);
/** Agents given the task's reference actions as a plan (τ²'s `LLMGTAgent`, and the solo variant): an oracle, not a leaderboard score. */
export const TAU2_GT_AGENTS: ReadonlySet<string> = new Set(['llm_agent_gt', 'llm_agent_solo_gt']);

/** The rules a judge replays a simulation by. */
export interface Tau2ReplayRules {
  /** The predicted environment in solo mode (the agent's calls of user tools reach the user's toolkit). */
  readonly solo: boolean;
  /** A replayed write whose output differs from the recorded tool message raises (no verdict) instead of being logged. */
  readonly strict: boolean;
}

export interface Tau2Judging {
  /** `info.agent_info.implementation` (null when the file has none). */
  readonly agent: string | null;
  /** `info.user_info.implementation`. */
  readonly user: string | null;
  /** The agent was given the task's reference actions (`llm_agent_gt`, `llm_agent_solo_gt`). */
  readonly groundTruth: boolean;
  /** How τ² judged the run when it was made. */
  readonly runTime: Tau2ReplayRules;
  /** How `tau2 evaluate-trajs` v1.0.1 judges it again. */
  readonly evaluateTrajs: Tau2ReplayRules;
}

const implementationOf = (info: TDict, key: string): string | null => {
  const d = info.get(key);
  if (!(d instanceof Map)) return null;
  const v: TValue | undefined = d.get('implementation');
  return typeof v === 'string' ? v : null;
};

/** The run's rules, from its `info`. */
export function tau2Judging(info: TDict): Tau2Judging {
  const agent = implementationOf(info, 'agent_info');
  const user = implementationOf(info, 'user_info');
  return {
    agent,
    user,
    groundTruth: agent !== null && TAU2_GT_AGENTS.has(agent),
    // Python parity: runner/build.py — solo_mode = registry.get_agent_metadata(agent, "solo_mode", default=False).
    // Replay: lenient, as evaluate-trajs (see above; `strict: true` is what a run-time replay did, and is kept for what-ifs of it).
    runTime: { solo: agent !== null && TAU2_SOLO_AGENTS.has(agent), strict: false },
    // Python parity: evaluate_trajectories.is_solo_mode, and compute_simulation_rewards' strict_replay=False.
    evaluateTrajs: { solo: agent === 'llm_agent_solo' && user === 'dummy_user', strict: false },
  };
}

/** The run's judging in words (the CLI's detection lines, the app's run notes): null for a plain run judged alike by both. */
export function tau2JudgingNote(j: Tau2Judging): string | null {
  const who = `the agent ran as ${j.agent ?? '(no agent_info.implementation)'} with ${j.user ?? '(no user_info.implementation)'}`;
  const parts: string[] = [];
  if (j.groundTruth) parts.push("it was given the task's reference actions as a plan (an oracle run, not a leaderboard score)");
  if (j.runTime.solo) parts.push('solo mode at run time: the agent also drives the user’s tools, and is judged so');
  if (j.runTime.solo !== j.evaluateTrajs.solo)
    parts.push(
      `tau2 evaluate-trajs v1.0.1 replays it ${j.evaluateTrajs.solo ? 'in' : 'without'} solo mode (is_solo_mode: llm_agent_solo with dummy_user only, #502): each simulation where that changes the reward says so`,
    );
  return parts.length === 0 ? null : `${who}: ${parts.join('; ')}`;
}
