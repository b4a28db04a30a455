/** τ²'s results-file models of data_model/tasks.py: a task, its user scenario, evaluation criteria and initial state (see models.ts). */
// Python parity: pydantic 2 models of τ² v1.0.1 (data_model/tasks.py), field order and defaults as declared.
import { defineModel, field, t } from '../../../py/pydantic';
import { opt, none, m, dict, REQUESTOR, REWARD_TYPE, TASK_ISSUE_STATUS, Message } from './models-messages';

// ---- tasks.py ----

const StructuredUserInstructions = defineModel('StructuredUserInstructions', [
  field('domain', t.str),
  field('reason_for_call', t.str),
  field('known_info', opt(t.str), none),
  field('unknown_info', opt(t.str), none),
  field('task_instructions', t.str),
]);
const UserScenario = defineModel('UserScenario', [
  field('persona', opt(t.str), none),
  field(
    'instructions',
    t.union(
      m(() => StructuredUserInstructions),
      t.str,
    ),
  ),
]);
const Description = defineModel('Description', [
  field('purpose', opt(t.str), none),
  field('relevant_policies', opt(t.str), none),
  field('notes', opt(t.str), none),
]);
export const ActionModel = defineModel('Action', [
  field('action_id', t.str),
  field('requestor', REQUESTOR, { default: 'assistant' }),
  field('name', t.str),
  field('arguments', dict),
  field('info', opt(t.str), none),
  field('compare_args', opt(t.list(t.str)), none),
]);
const envFunctionCallFields = [field('env_type', REQUESTOR), field('func_name', t.str), field('arguments', dict)];
const EnvFunctionCall = defineModel('EnvFunctionCall', envFunctionCallFields);
export const EnvAssertionModel = defineModel('EnvAssertion', [
  ...envFunctionCallFields,
  field('assert_value', t.bool, { default: true }),
  field('message', opt(t.str), none),
]);
const TaskIssue = defineModel('TaskIssue', [
  field('id', t.str),
  field('title', t.str),
  field('description', opt(t.str), none),
  field('status', t.enum(TASK_ISSUE_STATUS), { default: 'open' }),
  field('resolution', opt(t.str), none),
  field('created_at', opt(t.str), none),
  field('resolved_at', opt(t.str), none),
  field('author_email', opt(t.str), none),
  field('pr_link', opt(t.str), none),
  field('simulation_file', opt(t.str), none),
]);
const EvaluationCriteria = defineModel('EvaluationCriteria', [
  field('actions', opt(t.list(m(() => ActionModel))), none),
  field('env_assertions', opt(t.list(m(() => EnvAssertionModel))), none),
  field('communicate_info', opt(t.list(t.str)), none),
  field('nl_assertions', opt(t.list(t.str)), none),
  field('reward_basis', t.list(t.enum(REWARD_TYPE)), { factory: () => ['DB', 'COMMUNICATE'] }),
]);
const InitializationData = defineModel('InitializationData', [field('agent_data', opt(dict), none), field('user_data', opt(dict), none)]);
const InitialState = defineModel('InitialState', [
  field('initialization_data', opt(m(() => InitializationData)), none),
  field('initialization_actions', opt(t.list(m(() => EnvFunctionCall))), none),
  field('message_history', opt(t.list(Message)), none),
]);
export const TaskModel = defineModel('Task', [
  field('id', t.str),
  field('description', opt(m(() => Description)), none),
  field(
    'user_scenario',
    m(() => UserScenario),
  ),
  field('ticket', opt(t.str), none),
  field('initial_state', opt(m(() => InitialState)), none),
  field('evaluation_criteria', opt(m(() => EvaluationCriteria)), none),
  field('issues', opt(t.list(m(() => TaskIssue))), none),
  field('required_documents', opt(t.list(t.str)), none),
  field('user_tools', opt(t.list(t.str)), none),
]);
