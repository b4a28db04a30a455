/** Reading a τ²-bench results file, its tasks (results.ts reads the rest): env calls, actions, evaluation criteria, a task. */
import { validate, validationErrors, type InputMode, type TDict, type TValue } from '../../../py/pydantic';
import { EnvAssertionModel } from './models';
import { taskRefusals } from './refusals';
import type { EnvFunctionCall, RewardType, Tau2Action, Tau2Criteria, Tau2Task } from './types';
import { Tau2FileError, isDict, str, list, requestorOf, readMessage } from './read-messages';

function envCall(v: TValue, where: string): EnvFunctionCall {
  if (!isDict(v)) throw new Tau2FileError(`${where}: not an object`);
  const args = v.get('arguments');
  const av = v.get('assert_value');
  return {
    envType: requestorOf(v.get('env_type')),
    funcName: str(v.get('func_name')) ?? '',
    arguments: isDict(args) ? args : new Map(),
    assertValue: typeof av === 'boolean' ? av : v.has('assert_value') ? null : null,
    message: str(v.get('message')),
    raw: v,
  };
}

function action(v: TValue, where: string): Tau2Action {
  if (!isDict(v)) throw new Tau2FileError(`${where}: not an object`);
  const args = v.get('arguments');
  const ca = list(v.get('compare_args'));
  return {
    actionId: str(v.get('action_id')) ?? '',
    requestor: requestorOf(v.get('requestor')),
    name: str(v.get('name')) ?? '',
    arguments: isDict(args) ? args : new Map(),
    info: str(v.get('info')),
    compareArgs: ca === null ? null : ca.filter((x): x is string => typeof x === 'string'),
    raw: v,
  };
}

const REWARD_TYPES = new Set(['DB', 'ENV_ASSERTION', 'NL_ASSERTION', 'ACTION', 'COMMUNICATE']);

/** The criteria as the evaluator reads them; only ever judged from when τ²'s models read them too (see tau2-refusals.ts). */
function criteria(v: TValue | undefined, where: string): Tau2Criteria | null {
  if (!isDict(v)) return null;
  const actions = list(v.get('actions'));
  const envAssertions = list(v.get('env_assertions'));
  const info = list(v.get('communicate_info'));
  const nl = list(v.get('nl_assertions'));
  const basis = list(v.get('reward_basis')) ?? ['DB', 'COMMUNICATE'];
  const dicts = (xs: readonly TValue[] | null): TDict[] | null => (xs === null ? null : xs.filter(isDict));
  return {
    actions: dicts(actions)?.map((a, i) => action(a, `${where}, action ${i}`)) ?? null,
    // pydantic's lax bool: an assert_value written "false" or 0 is False.
    envAssertions:
      dicts(envAssertions)?.map((a, i) => {
        const call = envCall(a, `${where}, env assertion ${i}`);
        return validationErrors(EnvAssertionModel, a).length === 0
          ? { ...call, assertValue: validate(EnvAssertionModel, a).get('assert_value') as boolean }
          : call;
      }) ?? null,
    communicateInfo: info === null ? null : info.map((x) => (typeof x === 'string' ? x : String(x))),
    nlAssertions: nl === null ? null : nl.map((x) => (typeof x === 'string' ? x : String(x))),
    rewardBasis: basis.filter((b): b is RewardType => typeof b === 'string' && REWARD_TYPES.has(b)),
  };
}

export function readTask(v: TValue, where: string, index = 0, mode: InputMode = 'python'): Tau2Task {
  if (!isDict(v)) throw new Tau2FileError(`${where}: not an object`);
  const id = str(v.get('id'));
  if (id === null) throw new Tau2FileError(`${where}: no "id"`);
  const init = v.get('initial_state');
  const initDict = isDict(init) ? init : null;
  const data = initDict?.get('initialization_data');
  const actions = list(initDict?.get('initialization_actions'));
  const history = list(initDict?.get('message_history'));
  return {
    id,
    initializationData: isDict(data)
      ? {
          agentData: isDict(data.get('agent_data')) ? (data.get('agent_data') as TDict) : null,
          userData: isDict(data.get('user_data')) ? (data.get('user_data') as TDict) : null,
        }
      : null,
    initializationActions: actions === null ? null : actions.filter(isDict).map((a, i) => envCall(a, `${where}, initialization action ${i}`)),
    messageHistory: (history ?? []).filter(isDict).map((m, i) => readMessage(m, `${where}, history message ${i}`)),
    criteria: criteria(v.get('evaluation_criteria'), `task ${id}`),
    raw: v,
    refusals: taskRefusals(v, index, mode),
  };
}
