/**
 * The invented τ³ voice sample: a full-duplex run folder on the invented retail data, laid out as τ² saves voice runs
 * (`results.json` with `simulation_index`, `simulations/<id>.json` with ticks, `artifacts/task_*\/sim_*\/audio/both.wav`),
 * and the invented retail DB in τ²'s schema it runs on. Everything is made up here: the dialogue, the ids, and the audio
 * (tones and noise, one pitch per speaker, both at once where they overlap). Tool outputs and `reward_info` are what
 * tau-inspect's τ² port computes, so every recorded reward is the recomputed one.
 *
 *   npx tsx scripts/voice-sample.ts          writes the files
 *   test/core/session/voice-sample.spec.ts   checks the committed files are what this makes
 */
import { jsonDumps } from '../src/core/py/json-dumps';
import { parseJson } from '../src/core/py/json-parse';
import type { PyValue } from '../src/core/py/value';
import { validate, type TValue } from '../src/core/py/pydantic';
import { readTau2Folder, type ReadText } from '../src/core/contract';
import { Tau2Session } from '../src/core/session/tau2/session';
import { TAU2_DOMAINS } from '../src/core/model/domains/tau2/registry';
import { Tau2Environment } from '../src/core/env/tau2/environment';

export const VOICE_RUN = 'sample-runs/voice-runs/tau2-retail-voice-sample';
export const RETAIL_DB = 'sample-runs/tau2-data/data/tau2/domains/retail/db.json';
const COMMIT = 'a2c024725189473d2d7cea3a5cfdbcc67478e41f';
const TICK = 0.2;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** τ²'s retail DB from the invented τ-bench-schema data (τ² keeps the same tables; a user also carries its user_id). */
export function retailDb(files: { products: string; users: string; orders: string }): string {
  const users = parseJson(files.users) as Map<string, PyValue>;
  const withIds = new Map<string, PyValue>();
  for (const [id, u] of users) withIds.set(id, new Map<string, PyValue>([['user_id', id], ...(u as Map<string, PyValue>)]));
  const db = new Map<string, PyValue>([
    ['products', parseJson(files.products)],
    ['users', withIds],
    ['orders', parseJson(files.orders)],
  ]);
  return `${jsonDumps(db)}\n`;
}

interface Say {
  readonly who: 'agent' | 'user';
  readonly at: number;
  readonly text: string;
  readonly id: string;
  /** Ticks without a chunk inside the utterance (silent ticks), after these chunk positions. */
  readonly gapsAfter?: readonly number[];
  readonly action?: string;
  /** The agent stops after this many chunks, cut off (turn_taking_action 'interrupted' on the last). */
  readonly cutAfter?: number;
}
interface Call {
  readonly who: 'agent' | 'user';
  readonly at: number;
  readonly name: string;
  readonly arguments: Record<string, Json>;
}

const words = (t: string): string[] => {
  const ws = t.split(/(?<= )/);
  const out: string[] = [];
  for (let i = 0; i < ws.length; i += 2) out.push(ws.slice(i, i + 2).join(''));
  return out;
};

const stamp = (base: number, tick: number): string => new Date(base + Math.round(tick * TICK * 1000)).toISOString().replace('Z', '');

const chunk = (role: string, content: string, id: string, n: number, last: boolean, at: string, action: string | null): Json => ({
  role,
  content,
  tool_calls: null,
  is_audio: false,
  turn_idx: null,
  timestamp: at,
  cost: null,
  usage: null,
  raw_data: null,
  generation_time_seconds: null,
  audio_format: null,
  audio_path: null,
  audio_script_gold: null,
  speech_effects: null,
  source_effects: null,
  channel_effects: null,
  turn_taking_action: action === null ? null : { action, info: null },
  utterance_ids: [id],
  chunk_id: n,
  is_final_chunk: last,
  source: null,
  contains_speech: true,
});

/** The ticks of a scripted conversation; tool outputs from the environment, replayed in tick order as τ² replays them. */
function ticksOf(env: Tau2Environment, lines: readonly Say[], calls: readonly Call[], base: number): Json[] {
  const agent = new Map<number, Json>();
  const user = new Map<number, Json>();
  let end = 0;
  for (const s of lines) {
    const parts = words(s.text).slice(0, s.cutAfter ?? Infinity);
    let t = s.at;
    parts.forEach((p, n) => {
      const last = n === parts.length - 1;
      const action = n === 0 && s.action ? s.action : last && s.cutAfter !== undefined ? 'interrupted' : null;
      (s.who === 'agent' ? agent : user).set(t, chunk(s.who === 'agent' ? 'assistant' : 'user', p, s.id, n, last, stamp(base, t + 1), action));
      t += 1 + (s.gapsAfter?.includes(n) ? 1 : 0);
    });
    end = Math.max(end, t);
  }
  for (const c of calls) end = Math.max(end, c.at + 1);
  const out: Json[] = [];
  for (let t = 0; t < end; t++) {
    const made = (who: 'agent' | 'user') =>
      calls
        .filter((c) => c.at === t && c.who === who)
        .map((c, k) => {
          const requestor = who === 'agent' ? 'assistant' : 'user';
          const call = { id: `call_${who}_${t}_${k}`, name: c.name, arguments: c.arguments, requestor };
          const r = env.getResponse({ id: call.id, name: c.name, arguments: parseJson(JSON.stringify(c.arguments)) as Map<string, PyValue>, requestor });
          return {
            call,
            result: { id: call.id, role: 'tool', content: r.content, requestor, error: r.error, turn_idx: null, timestamp: stamp(base, t + 0.5) },
          };
        });
    const u = made('user');
    const a = made('agent');
    out.push({
      tick_id: t,
      timestamp: stamp(base, t),
      agent_chunk: agent.get(t) ?? null,
      user_chunk: user.get(t) ?? null,
      agent_tool_calls: a.map((x) => x.call),
      user_tool_calls: u.map((x) => x.call),
      agent_tool_results: a.map((x) => x.result),
      user_tool_results: u.map((x) => x.result),
      user_transcript: null,
      tick_duration_seconds: TICK,
      wall_clock_duration_seconds: null,
    });
  }
  return out;
}

const TASK: Json = {
  id: 'voice_cancel_by_mistake',
  description: { purpose: 'Invented for tau-inspect: cancel a pending order over the phone and say the refund' },
  user_scenario: {
    persona: 'Calls from a busy kitchen; talks over the agent when in a hurry',
    instructions:
      'You are Greta Marchetti (greta.marchetti@example.org). You ordered #W4458021 by mistake: have it cancelled and ask how much comes back to your gift card.',
  },
  initial_state: null,
  evaluation_criteria: {
    actions: [
      {
        action_id: 'cancel',
        requestor: 'assistant',
        name: 'cancel_pending_order',
        arguments: { order_id: '#W4458021', reason: 'ordered by mistake' },
        info: null,
        compare_args: null,
      },
    ],
    env_assertions: null,
    communicate_info: ['61.74'],
    nl_assertions: null,
    reward_basis: ['DB', 'COMMUNICATE'],
  },
};

const ORDER_LOOKUPS = (at: number): Call[] => [
  { who: 'agent', at, name: 'find_user_id_by_email', arguments: { email: 'greta.marchetti@example.org' } },
  { who: 'agent', at: at + 1, name: 'get_order_details', arguments: { order_id: '#W4458021' } },
];
const CANCEL = (at: number): Call => ({ who: 'agent', at, name: 'cancel_pending_order', arguments: { order_id: '#W4458021', reason: 'ordered by mistake' } });

/** Two simulations: 0 — the user cuts the agent off, and the refund is said over two utterances (τ² does not merge them: the check fails); 1 — a clean pass. */
const SCRIPTS: readonly { id: string; lines: Say[]; calls: Call[]; audio: boolean }[] = [
  {
    id: '5a0e7c1d-voice-0000-0000-sample000001',
    audio: true,
    lines: [
      { who: 'agent', at: 0, id: 'a-0001', text: 'Thanks for calling, how can I help? ' },
      { who: 'user', at: 5, id: 'u-0001', text: 'Hi, I placed an order by mistake and want it cancelled. ', action: 'keep_talking' },
      { who: 'agent', at: 12, id: 'a-0002', text: 'I can help with that. Could you first tell me the email on your account and then the ', cutAfter: 8 },
      { who: 'user', at: 18, id: 'u-0002', text: 'Sorry, it is greta.marchetti@example.org and the order is W4458021. ', action: 'interrupt' },
      { who: 'agent', at: 30, id: 'a-0003', text: 'Found it: a teapot and a kitchen scale. Cancel it as ordered by mistake? ' },
      { who: 'user', at: 37, id: 'u-0003', text: 'Yes, please. ', action: 'keep_talking' },
      { who: 'agent', at: 41, id: 'a-0004', text: 'Done. Your refund of $61', gapsAfter: [0] },
      { who: 'agent', at: 46, id: 'a-0005', text: '.74 goes back to your gift card. ' },
      { who: 'user', at: 50, id: 'u-0004', text: 'Great, thanks! ###STOP###', action: 'keep_talking' },
    ],
    calls: [...ORDER_LOOKUPS(28), CANCEL(40)],
  },
  {
    id: '5a0e7c1d-voice-0000-0000-sample000002',
    audio: false,
    lines: [
      { who: 'agent', at: 0, id: 'b-0001', text: 'Hello, how can I help today? ' },
      {
        who: 'user',
        at: 4,
        id: 'v-0001',
        text: 'Please cancel my order W4458021, greta.marchetti@example.org, I ordered it by mistake. ',
        action: 'keep_talking',
      },
      { who: 'agent', at: 18, id: 'b-0002', text: 'Found it. Cancel it as ordered by mistake? ' },
      { who: 'user', at: 23, id: 'v-0002', text: 'Yes. ', action: 'keep_talking' },
      { who: 'agent', at: 26, id: 'b-0003', text: 'Cancelled. $61', gapsAfter: [0] },
      { who: 'agent', at: 29, id: 'b-0003', text: '.74 goes back to your gift card. ' },
      { who: 'user', at: 33, id: 'v-0003', text: 'Thank you! ###STOP###', action: 'keep_talking' },
    ],
    calls: [...ORDER_LOOKUPS(15), CANCEL(25)],
  },
];

/** A deterministic WAV (8 kHz, 8-bit mono): the agent a low tone, the user a higher one, syllable-shaped; faint noise between. */
export function wav(ticks: readonly Json[]): Uint8Array {
  const rate = 8000;
  const per = Math.round(rate * TICK);
  const n = per * ticks.length;
  const out = new Uint8Array(44 + n);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string) => [...s].forEach((ch, i) => (out[at + i] = ch.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + n, true);
  text(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  text(36, 'data');
  view.setUint32(40, n, true);
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 2;
  ticks.forEach((t, k) => {
    const tick = t as { agent_chunk: Json; user_chunk: Json };
    for (let i = 0; i < per; i++) {
      const s = (k * per + i) / rate;
      const syllable = 0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * s);
      let v = noise() * 0.02;
      if (tick.agent_chunk !== null) v += 0.35 * syllable * (Math.sin(2 * Math.PI * 220 * s) + 0.3 * Math.sin(2 * Math.PI * 440 * s));
      if (tick.user_chunk !== null) v += 0.3 * syllable * (Math.sin(2 * Math.PI * 330 * s) + 0.4 * Math.sin(2 * Math.PI * 990 * s));
      out[44 + k * per + i] = Math.max(0, Math.min(255, Math.round(128 + 127 * v)));
    }
  });
  return out;
}

const dumps = (v: Json): string => `${JSON.stringify(v, null, 2)}\n`;

/** Every file of the sample, by path from the repository root. */
export async function voiceSampleFiles(read: (path: string) => string): Promise<Map<string, string | Uint8Array>> {
  const files = new Map<string, string | Uint8Array>();
  const db = retailDb({
    products: read('sample-runs/data/tau_bench/envs/retail/data/products.json'),
    users: read('sample-runs/data/tau_bench/envs/retail/data/users.json'),
    orders: read('sample-runs/data/tau_bench/envs/retail/data/orders.json'),
  });
  files.set(RETAIL_DB, db);
  const dataRead: ReadText = async (p) => (p.endsWith('retail/db.json') ? db : null);
  const base = Date.UTC(2026, 10, 20, 14, 0, 0);
  const sims: Record<string, Json>[] = SCRIPTS.map((s, i) => {
    const domain = TAU2_DOMAINS.get('retail')!;
    const agentDb = validate(domain.agent.db, domain.parseDbFile(db, 'db.json') as TValue);
    const env = new Tau2Environment(domain, { agent: agentDb, user: null, shared: new Map() }, false);
    const ticks = ticksOf(env, s.lines, s.calls, base + i * 3_600_000);
    return {
      id: s.id,
      task_id: 'voice_cancel_by_mistake',
      timestamp: stamp(base + i * 3_600_000, 0),
      start_time: stamp(base + i * 3_600_000, 0),
      end_time: stamp(base + i * 3_600_000, ticks.length),
      duration: ticks.length * TICK,
      termination_reason: 'user_stop',
      agent_cost: null,
      user_cost: null,
      agent_usage: null,
      reward_info: null,
      messages: null,
      ticks,
      trial: i,
      seed: 300 + i,
      mode: 'full_duplex',
      speech_environment: null,
      info: { note: 'invented for tau-inspect' },
    };
  });
  const results = (index: Json[]): Json => ({
    timestamp: stamp(base, 0),
    info: {
      git_commit: COMMIT,
      num_trials: 2,
      max_steps: 600,
      max_errors: 10,
      user_info: {
        implementation: 'voice_streaming_user_simulator',
        llm: 'invented-user-model',
        llm_args: null,
        global_simulation_guidelines: null,
        voice_settings: null,
        persona_config: null,
      },
      agent_info: { implementation: 'discrete_time_audio_native_agent', llm: 'invented-voice-model', llm_args: null, voice_settings: null },
      environment_info: { domain_name: 'retail', policy: 'An invented policy for the tau-inspect voice sample.', tool_defs: null },
      seed: 300,
      text_streaming_config: null,
      speech_complexity: null,
      audio_native_config: { provider: 'openai', model: 'invented-voice-model', tick_duration_seconds: TICK },
    },
    tasks: [TASK],
    simulation_index: index,
  });
  // Judge the simulations as they stand, then record τ²'s verdict in each (so recorded and recomputed agree).
  const texts = () => sims.map((s) => ({ name: `${s.id as string}.json`, text: JSON.stringify(s) }));
  const session = await Tau2Session.open(readTau2Folder(JSON.stringify(results([])), texts()), dataRead, { commit: COMMIT });
  sims.forEach((s, i) => {
    const r = session.report(i);
    s.reward_info = {
      reward: r.reward,
      db_check: { db_match: r.db_match, db_reward: r.db_reward },
      env_assertions: r.env_assertions as Json,
      action_checks: r.action_checks as Json,
      nl_assertions: null,
      communicate_checks: r.communicate_checks as Json,
      reward_basis: r.reward_basis as Json,
      reward_breakdown: r.reward_breakdown as Json,
      info: null,
    };
  });
  const index: Json[] = sims.map((s) => ({
    id: s.id!,
    task_id: s.task_id!,
    trial: s.trial!,
    reward: (s.reward_info as { reward: number }).reward,
    termination_reason: s.termination_reason!,
    agent_cost: null,
    duration: s.duration!,
  }));
  files.set(`${VOICE_RUN}/results.json`, dumps(results(index)));
  for (const s of sims) files.set(`${VOICE_RUN}/simulations/${s.id as string}.json`, dumps(s as Json));
  SCRIPTS.forEach((s, i) => {
    if (s.audio) files.set(`${VOICE_RUN}/artifacts/task_voice_cancel_by_mistake/sim_${s.id}/audio/both.wav`, wav(sims[i]!.ticks as Json[]));
  });
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  await (await import('../src/core/py/sha256')).prepareSha256();
  const files = await voiceSampleFiles((p) => readFileSync(p, 'utf8'));
  for (const [path, body] of files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body);
    process.stdout.write(`${path} (${typeof body === 'string' ? body.length : body.byteLength} bytes)\n`);
  }
}
