/**
 * The invented leaderboard submissions: a folder laid out as tau2-bench's leaderboard (`<entry>/submission.json` beside
 * `<entry>/trajectories/`), three entries of made-up models on the invented retail data (sample-runs/tau2-data). Each
 * trajectory file is a τ² results file of two invented tasks × two trials; tool outputs and `reward_info` are what
 * tau-inspect's τ² port computes, so recorded and recomputed rewards agree. The claims:
 *
 *   invented-model-a  claims what its trajectories give (retail pass^1 75.0, pass^2 50.0)
 *   invented-model-b  claims retail pass^1 62.5 where its trajectories give 25.0 (flagged), names a telecom
 *                     trajectory file its trajectories/ folder lacks, and a model_name its trajectories do not record
 *   invented-model-c  a malformed submission.json (no model_organization, a pass^1 of "high"); its pass^2 and its
 *                     trajectories are still read
 *
 *   npx tsx scripts/submissions-sample.ts          writes the files
 *   test/core/session/tau2/submissions.spec.ts     checks the committed files are what this makes
 */
import { parseJson } from '../src/core/py/json-parse';
import type { PyValue } from '../src/core/py/value';
import { validate, type TValue } from '../src/core/py/pydantic';
import { TAU2_DOMAINS } from '../src/core/model/domains/tau2/registry';
import { Tau2Environment } from '../src/core/env/tau2/environment';
import { Tau2Session } from '../src/core/session/tau2/session';

export const SUBMISSIONS = 'sample-runs/submissions';
const RETAIL_DB = 'sample-runs/tau2-data/data/tau2/domains/retail/db.json';
const COMMIT = 'a2c024725189473d2d7cea3a5cfdbcc67478e41f';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Order {
  readonly user: string;
  readonly email: string;
  readonly order: string;
  readonly reason: string;
  /** What goes back to the user, said by the agent. */
  readonly refund: string;
}
const TASKS: Record<string, Order> = {
  cancel_by_mistake: { user: 'Greta', email: 'greta.marchetti@example.org', order: '#W4458021', reason: 'ordered by mistake', refund: '61.74' },
  cancel_herb_kit: { user: 'Dmitri', email: 'dmitri.novak@example.org', order: '#W1849630', reason: 'no longer needed', refund: '61.00' },
};

const task = (id: string, o: Order): Json => ({
  id,
  description: { purpose: `Invented for tau-inspect's sample submissions: cancel order ${o.order} (${o.reason})` },
  user_scenario: { persona: 'Brief', instructions: `You are ${o.user} (${o.email}). Have order ${o.order} cancelled: ${o.reason}.` },
  initial_state: null,
  evaluation_criteria: {
    actions: [
      {
        action_id: 'cancel',
        requestor: 'assistant',
        name: 'cancel_pending_order',
        arguments: { order_id: o.order, reason: o.reason },
        info: null,
        compare_args: null,
      },
    ],
    env_assertions: null,
    communicate_info: id === 'cancel_by_mistake' ? [o.refund] : null,
    nl_assertions: null,
    reward_basis: id === 'cancel_by_mistake' ? ['DB', 'COMMUNICATE'] : ['DB'],
  },
});

/** One simulation: the user asks, the agent reads the order and cancels it (with the right reason when `pass`). */
function simulation(env: Tau2Environment, taskId: string, trial: number, pass: boolean, at: number): Record<string, Json> {
  const o = TASKS[taskId]!;
  const messages: Json[] = [
    { role: 'assistant', content: 'Hello, how can I help?', tool_calls: null },
    { role: 'user', content: `Hi, I'm ${o.user} (${o.email}). Please cancel order ${o.order}: ${o.reason}.`, tool_calls: null },
  ];
  const call = (id: string, name: string, args: Record<string, Json>): void => {
    const r = env.getResponse({ id, name, arguments: parseJson(JSON.stringify(args)) as Map<string, PyValue>, requestor: 'assistant' });
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, name, arguments: args, requestor: 'assistant' }] });
    messages.push({ role: 'tool', id, content: r.content, requestor: 'assistant', error: r.error });
  };
  call('c1', 'get_order_details', { order_id: o.order });
  const wrong = o.reason === 'ordered by mistake' ? 'no longer needed' : 'ordered by mistake';
  call('c2', 'cancel_pending_order', { order_id: o.order, reason: pass ? o.reason : wrong });
  messages.push({
    role: 'assistant',
    content: `Done: order ${o.order} is cancelled, and ${pass ? o.refund : 'the amount'} goes back to you.`,
    tool_calls: null,
  });
  messages.push({ role: 'user', content: 'Thanks. ###STOP###', tool_calls: null });
  const time = (s: number): string => new Date(at + s * 1000).toISOString().replace('Z', '');
  return {
    id: `sample-${taskId}-${trial}`,
    task_id: taskId,
    trial,
    start_time: time(0),
    end_time: time(30),
    duration: 30.0,
    termination_reason: 'user_stop',
    agent_cost: 0.01,
    user_cost: 0.002,
    messages,
    reward_info: null,
  };
}

const dumps = (v: Json): string => `${JSON.stringify(v, null, 2)}\n`;

/** A results file of the two tasks, each trial passing where `passes` says (task 0 trial 0, task 0 trial 1, task 1 trial 0, task 1 trial 1). */
async function trajectory(db: string, model: string, passes: readonly boolean[], at: number): Promise<string> {
  const domain = TAU2_DOMAINS.get('retail')!;
  const ids = Object.keys(TASKS);
  const sims = ids.flatMap((taskId, t) =>
    [0, 1].map((trial) => {
      const agentDb = validate(domain.agent.db, domain.parseDbFile(db, 'db.json') as TValue);
      const env = new Tau2Environment(domain, { agent: agentDb, user: null, shared: new Map() }, false);
      return simulation(env, taskId, trial, passes[t * 2 + trial]!, at + (t * 2 + trial) * 60_000);
    }),
  );
  const run = {
    timestamp: new Date(at).toISOString().replace('Z', ''),
    info: {
      git_commit: COMMIT,
      num_trials: 2,
      max_steps: 100,
      max_errors: 10,
      user_info: { implementation: 'user_simulator', llm: 'invented-user-model', llm_args: null },
      agent_info: { implementation: 'llm_agent', llm: model, llm_args: null },
      environment_info: { domain_name: 'retail', policy: 'An invented policy for the tau-inspect sample submissions.', tool_defs: null },
    },
    tasks: ids.map((id) => task(id, TASKS[id]!)),
    simulations: sims as Json[],
  };
  // Judge the simulations as they stand, then record τ²'s verdict in each (so recorded and recomputed agree).
  const session = await Tau2Session.open(Tau2Session.read(JSON.stringify(run)), async (p) => (p.endsWith('retail/db.json') ? db : null), { commit: COMMIT });
  sims.forEach((s, i) => {
    const r = session.report(i);
    s.reward_info = {
      reward: r.reward,
      db_check: { db_match: r.db_match, db_reward: r.db_reward },
      env_assertions: null,
      action_checks: r.action_checks as Json,
      nl_assertions: null,
      communicate_checks: r.communicate_checks as Json,
      reward_basis: r.reward_basis as Json,
      reward_breakdown: r.reward_breakdown as Json,
      info: null,
    };
  });
  return dumps(run as unknown as Json);
}

const submission = (model: string, org: string, date: string, results: Json, files: Json, extra: Record<string, Json> = {}): Json => ({
  model_name: model,
  model_organization: org,
  submitting_organization: org,
  submission_date: date,
  submission_type: 'standard',
  contact_info: { email: 'nobody@example.org', name: 'Invented for tau-inspect', github: null },
  is_new: false,
  trajectories_available: true,
  trajectory_files: files,
  references: [],
  results,
  methodology: {
    evaluation_date: date,
    tau2_bench_version: 'v1.0.1',
    user_simulator: 'invented-user-model',
    notes: 'Invented for tau-inspect: no real model or result.',
  },
  ...extra,
});

/** Every file of the sample, by path from the repository root. */
export async function submissionsSampleFiles(read: (path: string) => string): Promise<Map<string, string>> {
  const db = read(RETAIL_DB);
  const files = new Map<string, string>();
  const at = Date.UTC(2026, 10, 25, 9, 0, 0);
  const a = 'invented-model-a_example-lab_2026-11-30';
  files.set(`${SUBMISSIONS}/${a}/trajectories/retail.json`, await trajectory(db, 'Invented-Model-A', [true, true, true, false], at));
  files.set(
    `${SUBMISSIONS}/${a}/submission.json`,
    dumps(submission('Invented-Model-A', 'Example Lab', '2026-11-30', { retail: { pass_1: 75.0, pass_2: 50.0, cost: 0.012 } }, { retail: 'retail.json' })),
  );
  const b = 'invented-model-b_other-lab_2026-12-01';
  files.set(`${SUBMISSIONS}/${b}/trajectories/retail.json`, await trajectory(db, 'invented-model-b-2026-11', [true, false, false, false], at + 86_400_000));
  files.set(
    `${SUBMISSIONS}/${b}/submission.json`,
    dumps(
      submission(
        'Invented-Model-B',
        'Other Lab',
        '2026-12-01',
        { retail: { pass_1: 62.5, pass_2: 0.0 }, telecom: { pass_1: 40.0 } },
        { retail: 'retail.json', telecom: 'telecom.json' },
      ),
    ),
  );
  const c = 'invented-model-c_broken-lab_2026-12-02';
  files.set(`${SUBMISSIONS}/${c}/trajectories/retail.json`, await trajectory(db, 'Invented-Model-C', [true, true, false, true], at + 2 * 86_400_000));
  const broken = submission('Invented-Model-C', 'Broken Lab', '2026-12-02', { retail: { pass_1: 'high', pass_2: 50.0 } }, { retail: 'retail.json' }) as Record<
    string,
    Json
  >;
  delete broken.model_organization;
  files.set(`${SUBMISSIONS}/${c}/submission.json`, dumps(broken));
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  await (await import('../src/core/py/sha256')).prepareSha256();
  const files = await submissionsSampleFiles((p) => readFileSync(p, 'utf8'));
  for (const [path, body] of files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body);
    process.stdout.write(`${path} (${body.length} bytes)\n`);
  }
}
