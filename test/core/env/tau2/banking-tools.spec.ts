/**
 * banking_knowledge's discoverable tools, read-log allowlist, int/float in the DB hash and a raising gold action, on
 * an invented DB (no ../shared needed): each behaviour as τ²'s tools.py has it.
 */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../../src/core/py/json-parse';
import { pyJsonDumps, modelDump, validate, type TDict, type TValue } from '../../../../src/core/py/pydantic';
import { sha256Hex } from '../../../../src/core/py/hash';
import { Tau2Environment } from '../../../../src/core/env/tau2/environment';
import { BANKING, deriveReadLogAllowlist } from '../../../../src/core/model/domains/tau2/banking';
import { TransactionalDb } from '../../../../src/core/model/domains/tau2/banking/models';
import type { Tau2Task, Tau2ToolCall } from '../../../../src/core/model/episode/tau2/types';
import { NO_REFUSALS } from '../../../../src/core/model/episode/tau2/refusals';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { withDocstrings } from '../../../../src/core/judge/tau2/evaluate';
import { DOCSTRING, DOCSTRING_SHOWN } from '../../../../src/core/model/domains/tau2/toolkit';

/** An invented DB: one customer with a checking account, a credit card and one card transaction. */
const DB_JSON = JSON.stringify({
  users: { data: { u_ada: { user_id: 'u_ada', name: 'Ada Quill', email: 'ada@example.test' } }, notes: '' },
  accounts: {
    data: {
      chk_ada: {
        account_id: 'chk_ada',
        user_id: 'u_ada',
        class: 'checking',
        level: 'Blue Account',
        status: 'OPEN',
        current_holdings: '120.00',
        date_opened: '01/02/2024',
      },
    },
    notes: '',
  },
  credit_card_accounts: { data: { cc_ada: { account_id: 'cc_ada', user_id: 'u_ada', current_balance: '$40.00', credit_limit: '$1000.00' } }, notes: '' },
  credit_card_transaction_history: { data: { txn_a1: { transaction_id: 'txn_a1', user_id: 'u_ada', rewards_earned: '10 points' } }, notes: '' },
});

const base = () => ({ agent: validate(TransactionalDb, parseJson(DB_JSON) as TValue), user: null });
const env = () => new Tau2Environment(BANKING, base(), false);
const args = (o: Record<string, unknown>): TDict => parseJson(JSON.stringify(o)) as TDict;
let n = 0;
const call = (name: string, a: Record<string, unknown>, requestor: 'assistant' | 'user' = 'assistant'): Tau2ToolCall => ({
  id: `c${n++}`,
  name,
  arguments: args(a),
  requestor,
});
const table = (e: Tau2Environment, name: string): TDict => (e.agent!.db.get(name) as { get(k: string): TValue }).get('data') as TDict;
const dbText = (e: Tau2Environment): string => pyJsonDumps(modelDump(e.agent!.db), { sortKeys: true });
const task = (actions: { name: string; arguments: Record<string, unknown> }[]): Tau2Task => ({
  id: 't',
  initializationData: null,
  initializationActions: null,
  messageHistory: [],
  criteria: {
    actions: actions.map((a, i) => ({
      actionId: `a${i}`,
      requestor: 'assistant',
      name: a.name,
      arguments: args(a.arguments),
      info: null,
      compareArgs: null,
      raw: new Map(),
    })),
    envAssertions: null,
    communicateInfo: null,
    nlAssertions: null,
    rewardBasis: ['DB'],
  },
  raw: new Map(),
  refusals: NO_REFUSALS,
});

describe('answers that quote τ²’s docstrings (tau-inspect carries none of τ²’s prose)', () => {
  const replayed = `Tool given to user: t\nDescription: ${DOCSTRING}\nArguments: {"a": 1.0}\n\nThe user can now act.`;
  it('take the recorded answer where every other part agrees with it', () => {
    const recorded = 'Tool given to user: t\nDescription: Does a thing.\nIt has two lines.\nArguments: {"a": 1.0}\n\nThe user can now act.';
    expect(withDocstrings(replayed, recorded)).toEqual({ content: recorded, docstring: 'recorded' });
  });
  it('show where the docstring goes, and differ, where any other part does not agree (or nothing was recorded)', () => {
    const other = 'Tool given to user: t\nDescription: Does a thing.\nArguments: {"a": 1}\n\nThe user can now act.';
    const shown = `Tool given to user: t\nDescription: ${DOCSTRING_SHOWN}\nArguments: {"a": 1.0}\n\nThe user can now act.`;
    expect(withDocstrings(replayed, other)).toEqual({ content: shown, docstring: 'differs' });
    expect(withDocstrings(replayed, null)).toEqual({ content: shown, docstring: 'differs' });
  });
});

describe('banking_knowledge discoverable tools', () => {
  it('unlock changes only the toolkit (no DB write); an unknown name is answered, not raised', () => {
    const e = env();
    const before = dbText(e);
    const r = e.getResponse(call('unlock_discoverable_agent_tool', { agent_tool_name: 'update_transaction_rewards_3847' }));
    expect(r.error).toBe(false);
    // The description and parameter lines come from τ²'s docstrings, which tau-inspect does not carry: DOCSTRING
    // stands in their places (the judge takes the recorded answer where the rest agrees, evaluate.ts withDocstrings).
    expect(r.content).toBe(
      `Tool unlocked: update_transaction_rewards_3847\nDescription: ${DOCSTRING}\n\nTool: update_transaction_rewards_3847\nDescription: ${DOCSTRING}\nParameters:\n${DOCSTRING}\n\n` +
        "You can now use this tool by calling `call_discoverable_agent_tool` with agent_tool_name='update_transaction_rewards_3847' and the required arguments.",
    );
    expect(e.agent!.unlocked.has('update_transaction_rewards_3847')).toBe(true);
    expect(dbText(e)).toBe(before);
    expect(e.getResponse(call('unlock_discoverable_agent_tool', { agent_tool_name: 'no_such_tool' })).content).toBe(
      "Error: Unknown agent tool 'no_such_tool'. This tool is not available.",
    );
  });

  it('call takes its arguments as a JSON string; refusals are answers with the error flag false; one log row per tool name', () => {
    const e = env();
    const update = (json: string) =>
      e.getResponse(call('call_discoverable_agent_tool', { agent_tool_name: 'update_transaction_rewards_3847', arguments: json }));
    expect(update('{"transaction_id": "txn_a1", "new_rewards_earned": "12 points"}')).toEqual({
      content:
        "Error: Tool 'update_transaction_rewards_3847' has not been unlocked. You must first use `unlock_discoverable_agent_tool` to unlock this tool before calling it.",
      error: false,
    });
    e.getResponse(call('unlock_discoverable_agent_tool', { agent_tool_name: 'update_transaction_rewards_3847' }));
    expect(update('{"transaction_id": "txn_a1", "new_rewards_earned": "12 points"')).toEqual({
      content: "Error: Invalid JSON in arguments: Expecting ',' delimiter: line 1 column 63 (char 62)",
      error: false,
    });
    expect(update('{"transaction_id": "txn_a1", "points": 3}')).toEqual({
      content: "Error: Invalid arguments: KnowledgeTools.update_transaction_rewards_3847() got an unexpected keyword argument 'points'",
      error: false,
    });
    // CPython names a function by module and qualified name when `**` is given a non-mapping.
    expect(update('[1, 2]').content).toBe(
      'Error: Invalid arguments: tau2.domains.banking_knowledge.tools.KnowledgeTools.update_transaction_rewards_3847() argument after ** must be a mapping, not list',
    );
    expect(table(e, 'agent_discoverable_tools').size).toBe(0);
    expect(update('{"transaction_id": "txn_a1", "new_rewards_earned": "12 points"}').content).toMatch(/^Transaction rewards updated successfully\./);
    update('{"transaction_id": "txn_a1", "new_rewards_earned": "13 points"}');
    const log = table(e, 'agent_discoverable_tools');
    const id = sha256Hex('agent_discoverable_tool:update_transaction_rewards_3847').slice(0, 16);
    expect([...log.keys()]).toEqual([id]);
    expect(log.get(id)).toEqual(args({ tool_name: 'update_transaction_rewards_3847', status: 'CALLED' }));
    expect((table(e, 'credit_card_transaction_history').get('txn_a1') as TDict).get('rewards_earned')).toBe('13 points');
    // A non-str `arguments` is no JSON decode error: json.loads raises TypeError, an error response.
    expect(e.getResponse(call('call_discoverable_agent_tool', { agent_tool_name: 'update_transaction_rewards_3847', arguments: { a: 1 } }))).toEqual({
      content: 'Error: the JSON object must be str, bytes or bytearray, not dict',
      error: true,
    });
  });

  it('a discoverable tool called directly by name runs: no unlock needed, no log row; replayed when it writes', () => {
    const e = env();
    const r = e.getResponse(call('update_transaction_rewards_3847', { transaction_id: 'txn_a1', new_rewards_earned: '99 points' }));
    expect(r.content).toMatch(/^Transaction rewards updated successfully\./);
    expect(table(e, 'agent_discoverable_tools').size).toBe(0);
    expect(e.isMutating('update_transaction_rewards_3847')).toBe(true);
    expect(e.isMutating('get_all_user_accounts_by_user_id_3847')).toBe(false);
  });

  it('give writes the DB; the user may then call the tool, on the one DB agent and user share', () => {
    const e = env();
    const user = () =>
      e.getResponse(
        call('call_discoverable_user_tool', { discoverable_tool_name: 'get_card_last_4_digits', arguments: '{"credit_card_account_id": "cc_ada"}' }, 'user'),
      );
    expect(user().content).toBe(
      "Error: Tool 'get_card_last_4_digits' has not been given to you by the agent. The agent must first use `give_discoverable_user_tool` to give this tool to you.",
    );
    const given = e.getResponse(
      call('give_discoverable_user_tool', { discoverable_tool_name: 'get_card_last_4_digits', arguments: '{"credit_card_account_id": "cc_ada"}' }),
    );
    expect(given.content).toMatch(
      /^Tool given to user: get_card_last_4_digits\nDescription: .*\nArguments: \{\n {2}"credit_card_account_id": "cc_ada"\n\}\n\n/,
    );
    expect([...table(e, 'user_discoverable_tools').values()]).toEqual([args({ tool_name: 'get_card_last_4_digits', status: 'GIVEN' })]);
    expect(user().content).toMatch(/Last 4 digits of card: \d{4}$/);
    expect(e.user!.db).toBe(e.agent!.db);
    expect(table(e, 'user_discoverable_tool_calls').size).toBe(1);
    expect(e.userHash()).toBe(e.agentHash());
    expect(e.getResponse(call('give_discoverable_user_tool', { discoverable_tool_name: 'apply_for_credit_card' })).content).toBe(
      "Error: Unknown discoverable tool 'apply_for_credit_card'.",
    );
  });
});

describe('banking_knowledge read-log allowlist', () => {
  const gold = [
    { name: 'unlock_discoverable_agent_tool', arguments: { agent_tool_name: 'get_all_user_accounts_by_user_id_3847' } },
    { name: 'call_discoverable_agent_tool', arguments: { agent_tool_name: 'get_all_user_accounts_by_user_id_3847', arguments: '{"user_id": "u_ada"}' } },
    { name: 'call_discoverable_agent_tool', arguments: { agent_tool_name: '', arguments: '{}' } },
    { name: 'log_verification', arguments: { agent_tool_name: 'not_a_call' } },
  ];

  it('is the agent_tool_name of every gold call_discoverable_agent_tool action (empty names left out)', () => {
    expect([...deriveReadLogAllowlist(task(gold).criteria!.actions!)]).toEqual(['get_all_user_accounts_by_user_id_3847']);
  });

  it('a read is logged into the hashed DB only when allowlisted; writes always are', () => {
    const read = (allow: boolean) => {
      const e = env();
      e.setState(allow ? task(gold) : task([]), []);
      e.getResponse(call('unlock_discoverable_agent_tool', { agent_tool_name: 'get_all_user_accounts_by_user_id_3847' }));
      const r = e.getResponse(
        call('call_discoverable_agent_tool', { agent_tool_name: 'get_all_user_accounts_by_user_id_3847', arguments: '{"user_id": "u_ada"}' }),
      );
      expect(r.content).toMatch(/^User accounts retrieved successfully\./);
      return table(e, 'agent_discoverable_tools').size;
    };
    expect(read(true)).toBe(1);
    expect(read(false)).toBe(0);
  });
});

describe('banking_knowledge numbers in the DB hash', () => {
  const dispute = (json: string, direct: boolean) => {
    const e = env();
    const fields = {
      transaction_id: 't9',
      account_id: 'chk_ada',
      card_id: 'dbc_1',
      user_id: 'u_ada',
      dispute_category: 'duplicate_charge',
      transaction_date: '11/01/2025',
      discovery_date: '11/02/2025',
      transaction_type: 'pin_purchase',
      card_in_possession: true,
      pin_compromised: 'no',
      contacted_merchant: false,
      police_report_filed: false,
      written_statement_provided: true,
      provisional_credit_eligible: true,
      card_action: 'keep_active',
    };
    const text = `{${JSON.stringify(fields).slice(1, -1)}, "disputed_amount": ${json}, "customer_max_liability_amount": 0}`;
    if (direct) e.getResponse({ id: 'd', name: 'file_debit_card_transaction_dispute_6281', arguments: parseJson(text) as TDict, requestor: 'assistant' });
    else {
      e.getResponse(call('unlock_discoverable_agent_tool', { agent_tool_name: 'file_debit_card_transaction_dispute_6281' }));
      e.getResponse(call('call_discoverable_agent_tool', { agent_tool_name: 'file_debit_card_transaction_dispute_6281', arguments: text }));
    }
    return { hash: e.agentHash(), text: dbText(e) };
  };

  it('json.dumps writes 25 and 25.0 apart: a direct call keeps the int, the JSON-string path reads every number as a float (#397)', () => {
    expect(dispute('25', true).text).toContain('"disputed_amount": 25,');
    expect(dispute('25.0', true).text).toContain('"disputed_amount": 25.0,');
    expect(dispute('25', true).hash).not.toBe(dispute('25.0', true).hash);
    expect(dispute('25', false).text).toContain('"disputed_amount": 25.0,');
    expect(dispute('25', false).text).toContain('"customer_max_liability_amount": 0.0,');
    expect(dispute('25', false).hash).toBe(dispute('25.0', false).hash);
  });
});

describe('banking_knowledge gold actions that raise', () => {
  it('are skipped as τ² skips them, and named: gold action N raises, the gold DB lacks it', async () => {
    const info = {
      git_commit: 'a2c024725189473d2d7cea3a5cfdbcc67478e41f',
      num_trials: 1,
      max_steps: 10,
      max_errors: 10,
      user_info: { implementation: 'user_simulator', llm: 'invented' },
      agent_info: { implementation: 'llm_agent', llm: 'invented' },
      environment_info: { domain_name: 'banking_knowledge', policy: '' },
    };
    const actions = [
      { action_id: 'g0', requestor: 'assistant', name: 'change_user_email', arguments: { user_id: 'u_ada', new_email: 'ada@new.test' } },
      { action_id: 'g1', requestor: 'assistant', name: 'close_the_vault', arguments: {} },
    ];
    const messages = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'x1', name: 'change_user_email', arguments: actions[0]!.arguments, requestor: 'assistant' }] },
      { role: 'tool', id: 'x1', content: 'Email updated successfully.\n  - User ID: u_ada\n  - New Email: ada@new.test', requestor: 'assistant' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'x2', name: 'grep', arguments: { pattern: 'email' }, requestor: 'assistant' }] },
      { role: 'tool', id: 'x2', content: 'doc_sample_email_001.json: change of email', requestor: 'assistant' },
    ];
    const run = {
      info,
      tasks: [{ id: 'task_x', user_scenario: { instructions: 'x' }, evaluation_criteria: { actions, reward_basis: ['DB'] } }],
      simulations: [
        {
          id: 's0',
          task_id: 'task_x',
          trial: 0,
          start_time: '2026-01-01T00:00:00',
          end_time: '2026-01-01T00:00:01',
          duration: 1,
          termination_reason: 'user_stop',
          messages,
        },
      ],
    };
    const read = async (path: string) => (path.endsWith('banking_knowledge/db.json') ? DB_JSON : null);
    const session = await Tau2Session.open(Tau2Session.read(JSON.stringify(run)), read);
    const report = session.report(0);
    expect(report.reward).toBe(1);
    expect(report.db_match).toBe(true);
    // A retrieval tool of another retrieval variant (grep): unknown to the default toolkit, and never replayed all the same.
    expect(report.tool_calls[1]).toMatchObject({ name: 'grep', known_tool: false, output: null, error: null });
    expect(report.tool_calls[1]!.output_unavailable).toBeDefined();
    expect(session.evaluate(0).goldActionErrors).toEqual([{ index: 1, name: 'close_the_vault', error: "Tool 'close_the_vault' not found." }]);
    expect(report.findings.map((f) => f.text)).toContain(
      "Gold action 2 (close_the_vault) raises: Tool 'close_the_vault' not found., the gold DB lacks it (τ² only logs a gold action's exception and goes on).",
    );
  });
});
