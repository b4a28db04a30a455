/**
 * τ³'s banking_knowledge agent toolkit (domains/banking_knowledge/tools.py `KnowledgeTools`, composed with the
 * default `alltools` retrieval mixins): its plain tools, the discoverable-tool machinery (give, unlock, call, list)
 * and the retrieval tools, which are never replayed here.
 */
import { PyException } from '../../../../py/errors';
import { tTypeName, type TDict, type TValue } from '../../../../py/pydantic';
import { DOCSTRING, type ToolDef, type Toolkit } from '../toolkit';
import { record, tool, type Args } from './common';
import { addToDb, constraint, queryDatabaseTool, updateRecord } from './db-query';
import { deterministicId, dictKey, dumpsIndent, iterate, loads, replace, s, truthy, typeError } from './py';
import { USER_DISCOVERABLE } from './user-tools';
import { DISCOVERABLE_AGENT_TOOLS } from './agent-discoverable';
import { DEBIT_CARD_TOOLS } from './debit-cards';

const v = (a: Args, n: string): TValue => a.get(n)!;

export const TRANSFER_REASONS: readonly string[] = [
  'fraud_or_security_concern',
  'account_closure_request',
  'deceased_account_holder',
  'legal_or_regulatory_matter',
  'account_ownership_dispute',
  'complex_billing_dispute',
  'abusive_customer_behavior',
  'third_party_inquiry',
  'technical_system_error',
  'unconfirmed_external_communication',
  'customer_demands_after_unavailable_offer_refusal',
  'kb_search_unsuccessful_customer_requests_transfer',
  'specialized_department_required',
  'accessibility_or_special_needs',
  'customer_frustrated_demands_human',
  'supervisor_request_service_complaint',
  'customer_requests_human_no_specific_reason',
  'request_completed_customer_wants_human_followup',
  'other',
];

// Python parity: tools.format_discoverable_tool_for_agent — a tool's description and its parameters' lines come from
// its docstring, which tau-inspect does not carry (DOCSTRING stands in for them; see toolkit.ts).
const formatForAgent = (name: string): string => `Tool: ${name}\nDescription: ${DOCSTRING}\nParameters:\n${DOCSTRING}`;

/** `self.has_discoverable_tool(name)` on the agent toolkit (an unhashable name raises). */
function agentDiscoverable(self: Toolkit, name: TValue): ToolDef | null {
  const k = dictKey(name);
  const t = k === null ? undefined : self.tool(k);
  return t?.discoverable ? t : null;
}

const byUser = (table: string, field: string) => (self: Toolkit, a: Args) => queryDatabaseTool(self.db, table, constraint(field, v(a, 'user_id')));

// Python parity: KnowledgeTools.call_discoverable_agent_tool.
function callDiscoverable(self: Toolkit, a: Args): TValue {
  const name = v(a, 'agent_tool_name');
  const method = agentDiscoverable(self, name);
  if (method === null) return `Error: Unknown agent tool '${s(name)}'. This tool is not available.`;
  if (!self.unlocked.has(method.name))
    return `Error: Tool '${method.name}' has not been unlocked. You must first use \`unlock_discoverable_agent_tool\` to unlock this tool before calling it.`;
  const parsed = loads(v(a, 'arguments'), true);
  if ('error' in parsed) return `Error: Invalid JSON in arguments: ${parsed.error}`;
  let result: TValue;
  try {
    if (!(parsed.value instanceof Map))
      throw typeError(
        `tau2.domains.banking_knowledge.tools.${self.def.className}.${method.name}() argument after ** must be a mapping, not ${tTypeName(parsed.value)}`,
      );
    result = self.callByName(method.name, parsed.value);
  } catch (e) {
    if (e instanceof PyException && e.pyType === 'TypeError') return `Error: Invalid arguments: ${e.text}`;
    throw e;
  }
  // Python parity: only state-changing tools, and reads the task's gold actions name (the allowlist), are logged.
  if (method.mutates || self.readLogAllowlist.has(method.name))
    addToDb(
      self.db,
      'agent_discoverable_tools',
      deterministicId(`agent_discoverable_tool:${method.name}`),
      record(['tool_name', method.name], ['status', 'CALLED']),
    );
  return result;
}

// Python parity: KnowledgeTools.give_discoverable_user_tool.
function giveUserTool(self: Toolkit, a: Args): TValue {
  const name = v(a, 'discoverable_tool_name');
  if (typeof name !== 'string') throw typeError(`attribute name must be string, not '${tTypeName(name)}'`);
  const method = USER_DISCOVERABLE.get(name);
  if (method === undefined) return `Error: Unknown discoverable tool '${name}'.`;
  const parsed = loads(v(a, 'arguments'), false);
  if ('error' in parsed) return `Error: Invalid JSON in arguments: ${parsed.error}`;
  const args = parsed.value;
  const params = new Set(['self', ...method.params.map((p) => p.name)]);
  for (const k of iterate(args)) {
    const key = dictKey(k);
    if (key === null || !params.has(key)) return `Error: Unexpected parameter: ${s(k)}`;
  }
  addToDb(self.db, 'user_discoverable_tools', deterministicId(`user_discoverable_tool:${name}`), record(['tool_name', name], ['status', 'GIVEN']));
  const argsStr = truthy(args) ? dumpsIndent(args) : '(no arguments)';
  return (
    `Tool given to user: ${name}\nDescription: ${DOCSTRING}\nArguments: ${argsStr}\n\n` +
    `The user can now execute this action by calling \`call_discoverable_user_tool\` with discoverable_tool_name='${name}' and the same arguments.`
  );
}

const retrievalUnavailable = (): TValue => {
  throw new PyException('AssertionError', 'retrieval tools are not run offline (no knowledge-base index is built)');
};

export const AGENT_TOOLS: readonly ToolDef[] = [
  tool('transfer_to_human_agents', 'generic', ['summary', ['reason', 'other']], (_self, a) => {
    const reason = v(a, 'reason');
    if (!TRANSFER_REASONS.some((r) => r === reason)) return `Error: Invalid transfer reason '${s(reason)}'. Must be one of: ${TRANSFER_REASONS.join(', ')}`;
    return `Transfer successful (reason: ${s(reason)}). A human agent will assist you shortly.`;
  }),
  tool('get_current_time', 'read', [], () => 'The current time is 2025-11-14 03:40:00 EST.'),
  tool('get_user_information_by_id', 'read', ['user_id'], byUser('users', 'user_id')),
  tool('get_user_information_by_name', 'read', ['customer_name'], (self, a) => queryDatabaseTool(self.db, 'users', constraint('name', v(a, 'customer_name')))),
  tool('get_user_information_by_email', 'read', ['email'], (self, a) => queryDatabaseTool(self.db, 'users', constraint('email', v(a, 'email')))),
  tool('change_user_email', 'write', ['user_id', 'new_email'], (self, a) => {
    const [userId, email] = [v(a, 'user_id'), v(a, 'new_email')];
    if (!updateRecord(self.db, 'users', userId, [['email', email]])) return `Error: User with ID '${s(userId)}' not found.`;
    return `Email updated successfully.\n  - User ID: ${s(userId)}\n  - New Email: ${s(email)}`;
  }),
  tool('get_referrals_by_user', 'read', ['user_id'], byUser('referrals', 'referrer_id')),
  tool('get_credit_card_transactions_by_user', 'read', ['user_id'], byUser('credit_card_transaction_history', 'user_id')),
  tool('get_credit_card_accounts_by_user', 'read', ['user_id'], byUser('credit_card_accounts', 'user_id')),
  tool('log_verification', 'write', ['name', 'user_id', 'address', 'email', 'phone_number', 'date_of_birth', 'time_verified'], (self, a) => {
    const time = v(a, 'time_verified');
    // Python parity: utils.generate_verification_id.
    const id = `${s(v(a, 'user_id'))}_${replace(replace(replace(time, ' ', '_'), ':', ''), '-', '')}`;
    const r: TDict = record(
      ...(['name', 'user_id', 'address', 'email', 'phone_number', 'date_of_birth', 'time_verified'] as const).map((k) => [k, v(a, k)] as const),
    );
    if (!addToDb(self.db, 'verification_history', id, r)) return 'Failed to log verification: Record may already exist.';
    return `Verification logged successfully.\n  - User: ${s(v(a, 'name'))} (ID: ${s(v(a, 'user_id'))})\n  - Verified at: ${s(time)}`;
  }),
  tool('give_discoverable_user_tool', 'generic', ['discoverable_tool_name', ['arguments', '{}']], giveUserTool, { mutates: true }),
  tool(
    'unlock_discoverable_agent_tool',
    'generic',
    ['agent_tool_name'],
    (self, a) => {
      const name = v(a, 'agent_tool_name');
      const method = agentDiscoverable(self, name);
      if (method === null) return `Error: Unknown agent tool '${s(name)}'. This tool is not available.`;
      self.unlocked.add(method.name);
      return (
        `Tool unlocked: ${method.name}\nDescription: ${DOCSTRING}\n\n${formatForAgent(method.name)}\n\n` +
        `You can now use this tool by calling \`call_discoverable_agent_tool\` with agent_tool_name='${method.name}' and the required arguments.`
      );
    },
    { mutates: true },
  ),
  tool('call_discoverable_agent_tool', 'write', ['agent_tool_name', ['arguments', '{}']], callDiscoverable),
  tool('list_discoverable_agent_tools', 'read', [], (self) => {
    const result = queryDatabaseTool(self.db, 'agent_discoverable_tools', '{}');
    // Python parity: the check looks for "No results found", which the query never says.
    if (result.includes('No results found')) return 'No agent tools have been called yet. Search the knowledge base to discover available tools.';
    return `Your called agent tools:\n${result}`;
  }),
  ...DISCOVERABLE_AGENT_TOOLS,
  ...DEBIT_CARD_TOOLS,
  tool('KB_search_bm25', 'read', ['query', ['k', 10n]], retrievalUnavailable, { retrieval: true }),
  tool('KB_search_dense', 'read', ['query', ['k', 10n]], retrievalUnavailable, { retrieval: true }),
  tool('shell', 'read', ['command'], retrievalUnavailable, { retrieval: true }),
];
