/**
 * τ²-bench's `Environment` (environment/environment.py): tool calls routed to the agent's or the
 * user's toolkit, responses as τ² writes them into tool messages, initialization and replay.
 */
import { PyException } from '../../py/errors';
import {
  create,
  dateStr,
  deepCopyValue,
  EnumMember,
  modelDump,
  PyDate,
  PyDateTime,
  PydModel,
  pyJsonDumps,
  tStr,
  validate,
  type TDict,
  type TValue,
} from '../../py/pydantic';
import { sha256Hex } from '../../py/hash';
import { parseJson } from '../../py/json-parse';
import { eq } from '../../py/ops';
import type { PyValue } from '../../py/value';
import { hasherFor } from './db-hasher';
import { DOCSTRING, mergeInto, shallowDbCopy, Toolkit, type Tau2Domain } from '../../model/domains/tau2/toolkit';
import type { EnvFunctionCall, Requestor, Tau2Message, Tau2Task, Tau2ToolCall } from '../../model/episode/tau2/types';

/** A replayed call's response: the tool message's content and error flag. */
export interface ToolResponse {
  readonly content: string;
  readonly error: boolean;
}

/** The DBs an environment starts from (validated once per file; each environment works on copies). */
export interface BaseDbs {
  readonly agent: PydModel;
  readonly user: PydModel | null;
  /** State every toolkit of the run shares (what Python keeps in class attributes, per process). */
  readonly shared?: Map<string, TValue>;
}

/** sha256 of `json.dumps(db.model_dump(), sort_keys=True, default=str)`; `base`: the DB `db` shares records with. */
// Python parity: tau2.utils.get_pydantic_hash / get_dict_hash.
export function dbHash(db: PydModel, base: PydModel | null = null): string {
  return base === null ? sha256Hex(pyJsonDumps(modelDump(db), { sortKeys: true })) : hasherFor(base).hash(db);
}

// Python parity: Environment.to_json_str.
export function toJsonStr(resp: TValue): string {
  if (typeof resp === 'string') return resp;
  if (resp instanceof EnumMember) return resp.value; // a str: returned as it is
  const process = (x: TValue): TValue => {
    if (x instanceof PydModel) return modelDump(x);
    if (x instanceof PyDate || x instanceof PyDateTime) return dateStr(x, 'T'); // isoformat()
    if (typeof x === 'bigint' || typeof x === 'number' || typeof x === 'boolean') return tStr(x);
    if (Array.isArray(x)) return x.map(process);
    if (x instanceof Map) return new Map([...x].map(([k, y]) => [k, process(y)]));
    return x;
  };
  return pyJsonDumps(process(resp));
}

const deepMerge = mergeInto;

/** The DB after a task's initialization data, per base DB and per data object (see `setState`). */
const initialized = new WeakMap<PydModel, WeakMap<TDict, PydModel>>();
function initializedDb(base: PydModel, data: TDict, make: () => PydModel): PydModel {
  let perBase = initialized.get(base);
  if (perBase === undefined) initialized.set(base, (perBase = new WeakMap()));
  let db = perBase.get(data);
  if (db === undefined) perBase.set(data, (db = make()));
  return db;
}

export class Tau2Environment {
  readonly agent: Toolkit | null;
  readonly user: Toolkit | null;

  constructor(
    readonly domain: Tau2Domain,
    base: BaseDbs,
    readonly solo: boolean,
  ) {
    this.agent = domain.copyDb
      ? new Toolkit(domain.agent, domain.copyDb(base.agent), base.agent)
      : domain.copyOnWrite
        ? new Toolkit(domain.agent, shallowDbCopy(base.agent), base.agent)
        : new Toolkit(domain.agent, deepCopyValue(base.agent));
    // Python parity: banking_knowledge hands the one TransactionalDB to both toolkits.
    this.user =
      domain.user && domain.sharedDb
        ? new Toolkit(domain.user, this.agent.db)
        : domain.user && base.user
          ? new Toolkit(domain.user, deepCopyValue(base.user))
          : null;
    if (base.shared) for (const kit of [this.agent, this.user]) if (kit) kit.shared = base.shared;
    if (solo && this.user) {
      const overlap = this.agent.toolNames().filter((n) => this.user!.hasTool(n));
      if (overlap.length > 0) throw new PyException('ValueError', `Tool names overlap: {${overlap.map((n) => `'${n}'`).join(', ')}}`);
    }
    this.syncTools();
  }

  syncTools(): void {
    this.domain.syncTools?.(this.agent, this.user);
  }

  hasTool(name: string): boolean {
    return (this.agent?.hasTool(name) ?? false) || (this.user?.hasTool(name) ?? false);
  }

  // Python parity: Environment._is_mutating_tool (unknown tools count as mutating).
  isMutating(name: string): boolean {
    for (const kit of [this.agent, this.user]) if (kit?.hasTool(name)) return kit.tool(name)!.mutates;
    return true;
  }

  /** The toolkit a call reaches (solo mode routes the agent's calls of user tools to the user's toolkit). */
  route(name: string, requestor: Requestor): Toolkit | null {
    if (requestor === 'user') return this.solo ? null : this.user;
    if (this.solo && this.user?.hasTool(name)) return this.user;
    return this.agent;
  }

  // Python parity: Environment.make_tool_call (no sync).
  makeToolCall(name: string, requestor: Requestor, args: TDict): TValue {
    if (requestor === 'user') {
      if (this.solo) throw new PyException('ValueError', 'User tool calls are not allowed in solo mode');
      if (!this.user) throw new PyException('ValueError', 'User tools not available');
      return this.user.useTool(name, args);
    }
    const kit = this.route(name, requestor);
    if (!kit) throw new PyException('ValueError', 'Tools not available');
    return kit.useTool(name, args);
  }

  // Python parity: Environment.get_response — `Error: <str(e)>` for any exception, sync after success.
  getResponse(call: Tau2ToolCall): ToolResponse {
    try {
      makeToolCallSiteCheck(call.arguments);
      const resp = this.makeToolCall(call.name, call.requestor, call.arguments);
      this.syncTools();
      return { content: toJsonStr(resp), error: false };
    } catch (e) {
      // A JS error here is a flaw of this port, not τ²'s answer: said as such, never a crash.
      return {
        content:
          e instanceof PyException ? `Error: ${e.text}` : `Error: (tau-inspect could not replay this call: ${e instanceof Error ? e.message : String(e)})`,
        error: true,
      };
    }
  }

  // Python parity: Environment.run_env_function_call.
  runEnvFunctionCall(call: EnvFunctionCall): TValue {
    const kit = call.envType === 'user' ? this.user : this.agent;
    if (!kit) throw new PyException('AttributeError', `'NoneType' object has no attribute '${call.funcName}'`);
    const res = kit.callByName(call.funcName, call.arguments);
    this.syncTools();
    return res;
  }

  // Python parity: Environment.run_env_assertion(raise_assertion_error=False).
  runEnvAssertion(a: EnvFunctionCall): boolean {
    const res = this.runEnvFunctionCall(a);
    if (typeof res !== 'boolean')
      throw new PyException(
        'ValueError',
        `Function ${a.funcName} returned ${res instanceof EnumMember ? `<enum '${res.cls.name}'>` : `<class '${typeOfName(res)}'>`} instead of bool`,
      );
    return res === (a.assertValue ?? true);
  }

  // Python parity: ToolKitBase.update_db / update_pydantic_model_with_dict.
  private updateDb(kit: Toolkit, update: TDict): void {
    const raw = modelDump(kit.db) as TDict;
    deepMerge(raw, update);
    kit.db = validate(kit.def.db, raw);
  }

  /**
   * `Environment.set_state`: initialization data and actions, then the known mutating calls of `messages` replayed
   * (reads and unknown tools skipped), then a sync. `onCall` sees every pair of call and recorded tool message,
   * replayed or not. The answer lists the replayed calls whose output differs from the recorded tool message (what
   * `strict=True` raises at, what `strict=False` logs); the state reached is the same either way, so the caller decides.
   */
  setState(
    task: Tau2Task | null,
    messages: readonly Tau2Message[],
    onCall?: (call: Tau2ToolCall, recorded: Tau2Message, replayed: ToolResponse | null) => void,
  ): ReplayMismatch[] {
    if (this.solo && messages.some((m) => m.role === 'user')) throw new PyException('AssertionError', 'User messages are not allowed in solo mode');
    // Python parity: the env kwarg `read_log_allowlist` evaluate-trajs derives from the task (a constructor argument in τ²;
    // every environment of a task here is set up through set_state, so it is given here).
    if (task && this.domain.readLogAllowlist && this.agent) this.agent.readLogAllowlist = this.domain.readLogAllowlist(task.criteria?.actions ?? []);
    const init = task?.initializationData ?? null;
    if (init?.agentData) {
      const copy = this.domain.copyDb;
      if (copy && this.agent!.base) {
        // The DB after the task's initialization data is the same for every environment of the task: made once, then
        // copied like the file's DB (the hasher resumes from its text).
        const initialized = initializedDb(this.agent!.base, init.agentData, () => {
          const shared = this.domain.initializeDb?.(this.agent!.base!, init.agentData!);
          if (shared) return shared;
          const raw = modelDump(this.agent!.base!) as TDict;
          deepMerge(raw, init.agentData!);
          return validate(this.agent!.def.db, raw);
        });
        this.agent!.db = copy(initialized);
        this.agent!.base = initialized;
      } else this.updateDb(this.agent!, init.agentData);
      // Python parity: set_state hands the agent's DB to the user toolkit when agent data is given.
      if (this.user) this.user.db = this.agent!.db;
    }
    if (init?.userData) {
      if (!this.user) throw new PyException('AttributeError', "'NoneType' object has no attribute 'update_db'");
      this.updateDb(this.user, init.userData);
      if (this.agent) this.agent.db = this.user.db;
    }
    for (const action of task?.initializationActions ?? []) this.runEnvFunctionCall(action);
    // Python parity: set_state pairs the calls with their tool messages after the initialization (which raises first).
    const pairs = callPairs(messages);
    const mismatches: ReplayMismatch[] = [];
    pairs.forEach(([call, recorded], index) => {
      if (!this.hasTool(call.name) || !this.isMutating(call.name)) {
        onCall?.(call, recorded, null);
        return;
      }
      const response = this.getResponse(call);
      const content = compareLoads(response.content);
      if (!recorded.unrecorded && !sameContent(content, response.content, compareLoads(recorded.content), recorded.content))
        mismatches.push({ index, name: call.name });
      onCall?.(call, recorded, response);
    });
    this.syncTools();
    return mismatches;
  }

  /** Whether a tool drew a random id in this environment (see `Toolkit.nondeterministic`). */
  nondeterministic(): boolean {
    return (this.agent?.nondeterministic ?? false) || (this.user?.nondeterministic ?? false);
  }

  agentHash(): string | null {
    return this.agent ? dbHash(this.agent.db, this.agent.base) : null;
  }

  userHash(): string | null {
    if (this.domain.sharedDb && this.user && this.agent && this.user.db === this.agent.db) return this.agentHash();
    return this.user ? dbHash(this.user.db) : null;
  }
}

/** A replayed write whose output differs from the recorded tool message: its index among the replay's calls, its tool. */
export interface ReplayMismatch {
  readonly index: number;
  readonly name: string;
}

const PYDANTIC_URL = /errors\.pydantic\.dev\/\d+\.\d+\//g;

/**
 * set_state's `content != expected_content` on the two `json.loads` results (Python's `==`: 1 == 1.0 == True, dicts
 * whatever their order). Texts that differ only in the pydantic version of a help URL agree: the run's own pydantic
 * wrote its version there, and the replay at run time ran on that pydantic.
 */
// Python parity: Environment.set_state — `if content != expected_content:`.
function sameContent(a: PyValue, aText: string, b: PyValue, bText: string | null): boolean {
  if (eq(a, b)) return true;
  if (bText === null) return false;
  // An answer quoting τ²'s docstrings (which this port does not carry, DOCSTRING): the rest of it must agree.
  if (aText.includes(DOCSTRING)) return docstringsAgree(aText, bText);
  return aText.replace(PYDANTIC_URL, '') === bText.replace(PYDANTIC_URL, '');
}

const escapeRegExp = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a replayed answer with DOCSTRING places agrees with the recorded one everywhere else. */
export function docstringsAgree(content: string, recorded: string): boolean {
  return new RegExp(`^${content.split(DOCSTRING).map(escapeRegExp).join('[\\s\\S]*')}$`).test(recorded);
}

/**
 * set_state's reading of a replayed write's and the recorded tool message's content for comparing them:
 * `json.loads` of each content, a JSONDecodeError meaning "compare as text". Anything else it raises stops the
 * replay: a recorded content of null (`TypeError`), an integer over 4300 digits (`ValueError`), nesting past
 * Python's recursion limit (`RecursionError`).
 */
// Python parity: Environment.set_state — `try: json.loads(content) except json.JSONDecodeError: content`.
function compareLoads(content: string | null): PyValue {
  if (content === null) throw new PyException('TypeError', 'the JSON object must be str, bytes or bytearray, not NoneType');
  try {
    return parseJson(content);
  } catch (e) {
    if (!(e instanceof PyException) || e.pyType !== 'JSONDecodeError') throw e;
    return content;
  }
}

/**
 * Python parity: Environment.get_response calls `self.make_tool_call(message.name, requestor=message.requestor,
 * **message.arguments)`: CPython merges the keywords first (a second `requestor` is refused there, the function named
 * with its module), then binds them, where `self` and `tool_name` are already given positionally.
 */
function makeToolCallSiteCheck(args: TDict): void {
  if (args.has('requestor'))
    throw new PyException('TypeError', "tau2.environment.environment.Environment.make_tool_call() got multiple values for keyword argument 'requestor'");
  for (const k of args.keys())
    if (k === 'self' || k === 'tool_name') throw new PyException('TypeError', `Environment.make_tool_call() got multiple values for argument '${k}'`);
}

// Python parity: set_state's get_actions_from_messages — calls paired with the tool messages that follow, by position.
export function callPairs(messages: readonly Tau2Message[]): [Tau2ToolCall, Tau2Message][] {
  const out: [Tau2ToolCall, Tau2Message][] = [];
  for (let i = 0; i < messages.length;) {
    const m = messages[i++]!;
    if (m.multiTool) continue;
    if (m.role === 'tool') throw new PyException('ValueError', 'Tool message not expected. Tool messages should always follow a tool call.');
    if ((m.role !== 'assistant' && m.role !== 'user') || m.toolCalls === null) continue;
    for (const tc of m.toolCalls) {
      const tm = messages[i++];
      if (tm === undefined) throw new PyException('ValueError', 'Tool message expected. Got None.');
      if (tm.role !== 'tool' || tm.multiTool)
        throw new PyException(
          'ValueError',
          `Tool message expected. Got <class 'tau2.data_model.message.${tm.multiTool ? 'MultiToolMessage' : messageClass(tm.role)}'>`,
        );
      if (tc.id !== tm.id) throw new PyException('ValueError', `Tool call id mismatch. Got ${tc.id} and ${tm.id}`);
      out.push([tc, tm]);
    }
  }
  return out;
}

const messageClass = (role: string): string => ({ assistant: 'AssistantMessage', user: 'UserMessage', system: 'SystemMessage' })[role] ?? 'Message';

const typeOfName = (v: TValue): string =>
  v === null
    ? 'NoneType'
    : typeof v === 'string'
      ? 'str'
      : typeof v === 'bigint'
        ? 'int'
        : typeof v === 'number'
          ? 'float'
          : Array.isArray(v)
            ? 'list'
            : v instanceof PydModel
              ? v.cls.name
              : 'dict';

/** `str(e)` of an exception raised by emulated Python code; a JS error (a bug here) says so. */
export function exceptionText(e: unknown): string {
  if (e instanceof PyException) return e.text;
  throw e;
}

export { create };
