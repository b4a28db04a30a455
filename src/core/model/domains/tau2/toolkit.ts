/**
 * The face a τ²-bench domain shows its environment: toolkits (agent and user), their tools and the
 * other methods tasks call by name (initialization actions, env assertions), and the DB models.
 * A toolkit instance holds its DB, which initialization may replace (τ²'s `ToolKitBase.update_db`).
 */
import { PyException } from '../../../py/errors';
import { sha256Hex } from '../../../py/hash';
import {
  copyDict,
  deepCopyValue,
  EnumClass,
  modelDump,
  PydModel,
  pyJsonDumps,
  tRepr,
  tStr,
  validate,
  type ModelClass,
  type TDict,
  type TValue,
} from '../../../py/pydantic';

export type ToolType = 'read' | 'write' | 'think' | 'generic';

/** A parameter of a method, in signature order; without `default` it is required. */
export interface ParamSpec {
  readonly name: string;
  readonly default?: TValue;
}

/** A toolkit method: `run` gets `self` and the bound arguments (every parameter present). */
export interface MethodDef {
  readonly name: string;
  /** The class that defines it, as CPython names the method in argument errors (the toolkit's own class by default). */
  readonly qualname?: string;
  /** In signature order; a last one named `**kwargs` takes every other keyword (as a dict). */
  readonly params: readonly ParamSpec[];
  readonly run: (self: Toolkit, args: ReadonlyMap<string, TValue>) => TValue;
}

/** A tool (`@is_tool`): its type and whether replay re-executes it (`mutates_state`, WRITE by default). */
/**
 * Stands in a tool's answer for text τ² takes from its tools' docstrings (banking_knowledge's unlock and give
 * answers quote each discoverable tool's description and parameters). tau-inspect does not carry τ²'s prose:
 * the judge (core/judge/tau2/evaluate.ts, `withDocstrings`) takes the recorded answer where everything around
 * these places agrees with it, and shows `DOCSTRING_SHOWN` in them otherwise. A NUL never occurs in a tool's own text.
 */
export const DOCSTRING = '\u0000docstring\u0000';
export const DOCSTRING_SHOWN = '(text from τ²’s docstring of the tool, which tau-inspect does not carry)';

export interface ToolDef extends MethodDef {
  readonly toolType: ToolType;
  readonly mutates: boolean;
  /** `@is_discoverable_tool`: callable by name like any tool, left out of the tool list the agent is shown. */
  readonly discoverable?: boolean;
  /** A retrieval tool (banking_knowledge's knowledge-base search, shell): never replayed here, its output shown as recorded. */
  readonly retrieval?: boolean;
}

export interface ToolkitDef {
  /** The Python class name, as argument errors name the method (`MockTools.create_task()`). */
  readonly className: string;
  readonly db: ModelClass;
  readonly tools: readonly ToolDef[];
  /** Methods that are not tools (initialization actions, assertions), reached only by name. */
  readonly functions: readonly MethodDef[];
  /**
   * Attributes τ²'s toolkit class has (its own helpers and properties) that this port does not carry: reached by
   * name, they stop the evaluation saying so, never with an AttributeError τ² would not raise.
   */
  readonly pythonOnly?: readonly string[];
}

/** A toolkit with its DB (`self` of the Python methods). */
export class Toolkit {
  private readonly tools: ReadonlyMap<string, ToolDef>;
  /** A tool drew a random id (telecom's new bill): no hash of this DB can be reproduced. */
  nondeterministic = false;
  private readonly counters = new Map<string, number>();
  /** State shared by every toolkit of one opened run (Python class attributes live per process). */
  shared: Map<string, TValue> = new Map();
  private readonly methods: ReadonlyMap<string, MethodDef>;
  /** banking_knowledge: the agent's unlocked discoverable tools (in-memory toolkit state, never in the DB). */
  readonly unlocked = new Set<string>();
  /** banking_knowledge: read-only discoverable tools whose calls are logged into the DB (`set_read_log_allowlist`). */
  readLogAllowlist: ReadonlySet<string> = new Set();

  /**
   * `base`: the DB this one was shallowly copied from (see `shallowDbCopy`): its records are shared
   * until `own` copies one; null when `db` is a whole copy of its own.
   */
  constructor(
    readonly def: ToolkitDef,
    public db: PydModel,
    public base: PydModel | null = null,
  ) {
    this.tools = new Map(def.tools.map((x) => [x.name, x]));
    this.methods = new Map([...def.functions, ...def.tools].map((x) => [x.name, x]));
  }

  /** A per-toolkit counter (stands in for randomness where τ² draws an id). */
  counter(name: string): number {
    const n = (this.counters.get(name) ?? 0) + 1;
    this.counters.set(name, n);
    return n;
  }

  hasTool(name: string): boolean {
    return this.tools.has(name);
  }

  tool(name: string): ToolDef | undefined {
    return this.tools.get(name);
  }

  toolNames(): string[] {
    return [...this.tools.keys()];
  }

  // Python parity: ToolKitBase.use_tool.
  useTool(name: string, kwargs: TDict): TValue {
    const tool = this.tools.get(name);
    if (tool === undefined) throw new PyException('ValueError', `Tool '${name}' not found.`);
    return callMethod(this, tool, kwargs);
  }

  // Python parity: getattr(toolkit, func_name)(**arguments) — the class's own methods, then ToolKitBase's, then its attributes.
  callByName(name: string, kwargs: TDict): TValue {
    const m = this.methods.get(name) ?? BASE_METHODS.get(name);
    if (m !== undefined) return callMethod(this, m, kwargs);
    // Python parity: attributes that are not methods: calling them raises TypeError.
    if (name === 'tools' || name === '_func_tools') throw new PyException('TypeError', "'dict' object is not callable");
    if (name === 'db') throw new PyException('TypeError', `'${this.db.cls.name}' object is not callable`);
    if (this.def.pythonOnly?.includes(name) || OBJECT_ATTRIBUTES.has(name))
      throw new NotEmulated(`${this.def.className}.${name} is an attribute of τ²'s toolkit that tau-inspect does not emulate: no verdict is made from it`);
    throw new PyException('AttributeError', `'${this.def.className}' object has no attribute ${tRepr(name)}`);
  }

  /** Whether getattr finds `name` on the toolkit (for what-if checks and views). */
  hasAttribute(name: string): boolean {
    return this.methods.has(name) || BASE_METHODS.has(name) || ['tools', '_func_tools', 'db'].includes(name) || (this.def.pythonOnly?.includes(name) ?? false);
  }
}

/** The attributes every Python instance of a class has (CPython 3.11's `dir()` of one): getattr finds them. */
// Python parity: dir(object()) plus a class instance's __dict__, __module__, __weakref__ (CPython 3.11).
const OBJECT_ATTRIBUTES: ReadonlySet<string> = new Set(
  '__class__ __delattr__ __dict__ __dir__ __doc__ __eq__ __format__ __ge__ __getattribute__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __le__ __lt__ __module__ __ne__ __new__ __reduce__ __reduce_ex__ __repr__ __setattr__ __sizeof__ __str__ __subclasshook__ __weakref__'.split(
    ' ',
  ),
);

/** A toolkit attribute τ² has and this port does not run: the evaluation says so instead of giving a verdict. */
export class NotEmulated extends Error {}

/** τ²'s `ToolType` enum: what `tool_type` returns. */
export const TOOL_TYPE_ENUM = new EnumClass('ToolType', [
  ['READ', 'read'],
  ['WRITE', 'write'],
  ['THINK', 'think'],
  ['GENERIC', 'generic'],
]);

/** `self.tools[name]`: KeyError for a name that is no tool (TypeError for an unhashable one). */
function toolAt(self: Toolkit, name: TValue): ToolDef {
  const k = key(name);
  const tool = k === null ? undefined : self.tool(k);
  if (tool === undefined) throw new PyException('KeyError', tRepr(name));
  return tool;
}
const inTools = (self: Toolkit, name: TValue): boolean => {
  const k = key(name);
  return k !== null && self.hasTool(k);
};
const discoverable = (self: Toolkit): ToolDef[] =>
  self
    .toolNames()
    .map((n) => self.tool(n)!)
    .filter((x) => x.discoverable === true);
/** A dict of callables (`tools`, `get_tools()`): only its type is ever looked at, as a return value. */
const callables = (tools: readonly ToolDef[]): TDict => new Map(tools.map((x) => [x.name, `<bound method ${x.name}>`]));

const base = (name: string, params: readonly ParamSpec[], run: MethodDef['run']): MethodDef => ({ name, params, run, qualname: 'ToolKitBase' });

// Python parity: ToolKitBase's methods (environment/toolkit.py), as getattr finds them on every toolkit.
const BASE_METHODS: ReadonlyMap<string, MethodDef> = new Map(
  [
    base('use_tool', [{ name: 'tool_name' }, { name: '**kwargs' }], (self, a) => {
      const name = a.get('tool_name')!;
      if (!inTools(self, name)) throw new PyException('ValueError', `Tool '${tStr(name)}' not found.`);
      return callMethod(self, toolAt(self, name), a.get('**kwargs') as TDict);
    }),
    base('get_tools', [{ name: 'include', default: null }], (self, a) => {
      const tools = self
        .toolNames()
        .map((n) => self.tool(n)!)
        .filter((x) => !x.discoverable);
      const include = a.get('include')!;
      if (include === null) return callables(tools);
      if (!Array.isArray(include) || !include.every((x) => typeof x === 'string'))
        throw new NotEmulated('ToolKitBase.get_tools with an include that is not a list of names is not emulated: no verdict is made from it');
      const names = new Set(tools.map((x) => x.name));
      const unknown = [...new Set(include as string[])].filter((x) => !names.has(x)).sort();
      const list = (xs: readonly string[]): string => `[${xs.map((x) => tRepr(x)).join(', ')}]`;
      if (unknown.length > 0) throw new PyException('ValueError', `Tool(s) not found: ${list(unknown)}. Available: ${list([...names].sort())}`);
      return callables(tools.filter((x) => include.includes(x.name)));
    }),
    base('has_tool', [{ name: 'tool_name' }], (self, a) => inTools(self, a.get('tool_name')!)),
    base(
      'is_discoverable',
      [{ name: 'tool_name' }],
      (self, a) => inTools(self, a.get('tool_name')!) && toolAt(self, a.get('tool_name')!).discoverable === true,
    ),
    base('get_discoverable_tools', [], (self) => callables(discoverable(self))),
    base('has_discoverable_tool', [{ name: 'tool_name' }], (self, a) => {
      const k = key(a.get('tool_name')!);
      return k !== null && discoverable(self).some((x) => x.name === k);
    }),
    base('tool_type', [{ name: 'tool_name' }], (self, a) => TOOL_TYPE_ENUM.of(toolAt(self, a.get('tool_name')!).toolType)!),
    base('tool_mutates_state', [{ name: 'tool_name' }], (self, a) => toolAt(self, a.get('tool_name')!).mutates),
    base('get_statistics', [], (self) => {
      const types = self.toolNames().map((n) => self.tool(n)!.toolType);
      const count = (t: ToolType): bigint => BigInt(types.filter((x) => x === t).length);
      return new Map<string, TValue>([
        ['num_tools', BigInt(types.length)],
        ['num_read_tools', count('read')],
        ['num_write_tools', count('write')],
        ['num_think_tools', count('think')],
        ['num_generic_tools', count('generic')],
      ]);
    }),
    base('update_db', [{ name: 'update_data', default: null }], (self, a) => {
      const update = a.get('update_data')!;
      if (update !== null && !(update instanceof Map))
        throw new NotEmulated('ToolKitBase.update_db with update_data that is not a dict is not emulated: no verdict is made from it');
      // Python parity: update_pydantic_model_with_dict — dumped, merged addict-style, validated again.
      const raw = modelDump(self.db) as TDict;
      mergeInto(raw, update ?? new Map());
      self.db = validate(self.def.db, raw);
      return null;
    }),
    // Python parity: get_dict_hash(self.db.model_dump()).
    base('get_db_hash', [], (self) => sha256Hex(pyJsonDumps(modelDump(self.db), { sortKeys: true }))),
  ].map((m) => [m.name, m]),
);

// Python parity: addict.Dict.update — nested dicts merged key by key, anything else replaced.
export function mergeInto(into: TDict, update: TDict): void {
  for (const [k, v] of update) {
    const cur = into.get(k);
    if (cur instanceof Map && v instanceof Map) mergeInto(cur, v);
    else into.set(k, deepCopyValue(v));
  }
}

// Python parity: CPython 3.11's argument binding errors for `method(**kwargs)`.
function callMethod(self: Toolkit, m: MethodDef, kwargs: TDict): TValue {
  const where = `${m.qualname ?? self.def.className}.${m.name}()`;
  const rest = m.params[m.params.length - 1]?.name === '**kwargs';
  const params = rest ? m.params.slice(0, -1) : m.params;
  const names = new Set(params.map((p) => p.name));
  const extra: TDict = new Map();
  for (const [k, v] of kwargs) {
    // `self` is bound already (a bound method): CPython says so rather than that it is unknown.
    if (k === 'self') throw new PyException('TypeError', `${where} got multiple values for argument 'self'`);
    if (!names.has(k)) {
      if (!rest) throw new PyException('TypeError', `${where} got an unexpected keyword argument '${k}'`);
      extra.set(k, v);
    }
  }
  const missing = params.filter((p) => p.default === undefined && !kwargs.has(p.name)).map((p) => `'${p.name}'`);
  if (missing.length > 0) {
    const list =
      missing.length === 1
        ? missing[0]
        : missing.length === 2
          ? missing.join(' and ')
          : `${missing.slice(0, -1).join(', ')}, and ${missing[missing.length - 1]}`;
    throw new PyException('TypeError', `${where} missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`);
  }
  const bound = new Map<string, TValue>();
  for (const p of params) bound.set(p.name, kwargs.has(p.name) ? kwargs.get(p.name)! : p.default!);
  if (rest) bound.set('**kwargs', extra);
  return m.run(self, bound);
}

/**
 * A copy of a DB that shares the base's dict-of-record fields (the same maps) until a tool writes one: cheap for a
 * big DB (airline's 2,000 reservations are not copied per environment), safe as long as every table a tool writes is
 * taken with `ownTable` and every record with `own` first.
 */
export function shallowDbCopy(db: PydModel): PydModel {
  const fields = new Map<string, TValue>();
  for (const [k, v] of db.fields) fields.set(k, v instanceof Map ? v : deepCopyValue(v));
  return new PydModel(db.cls, fields);
}

/** `self.db.<table>` for a tool that may add, remove or replace a record: a map of this DB's own, copied from the base's the first time. */
export function ownTable(self: Toolkit, table: string): TDict {
  const map = self.db.get(table) as TDict;
  if (self.base === null || !(map instanceof Map) || map !== self.base.fields.get(table)) return map;
  // A table read lazily from a snapshot is copied lazily (copyDict): the copy decodes nothing, its records are the base's.
  const copy: TDict = copyDict(map);
  self.db.set(table, copy);
  return copy;
}

/**
 * `self.db.<table>[key]` for a tool that may change the record: the record of this DB's own,
 * copied from the base the first time it is taken (undefined when there is none).
 */
export function own(self: Toolkit, table: string, key: string): PydModel | undefined {
  const rec = (self.db.get(table) as TDict).get(key);
  if (!(rec instanceof PydModel)) return undefined;
  const baseRec = self.base ? (self.base.get(table) as TDict).get(key) : undefined;
  if (baseRec !== rec) return rec;
  const copy = deepCopyValue(rec);
  ownTable(self, table).set(key, copy);
  return copy;
}

/** A τ² domain: its toolkits, DB files and how an environment of it is put together. */
export interface Tau2Domain {
  readonly name: string;
  readonly agent: ToolkitDef;
  readonly user: ToolkitDef | null;
  /** DB files under `data/tau2/domains/<name>/`. */
  readonly dbFiles: { readonly agent: string; readonly user: string | null };
  /** Parses a DB file's text into Python values (JSON or TOML as τ²'s `load_file` reads it). */
  readonly parseDbFile: (text: string, file: string) => TValue;
  /** `sync_tools` (telecom moves device state into the agent's DB); none elsewhere. */
  readonly syncTools?: (agent: Toolkit | null, user: Toolkit | null) => void;
  /** The agent's tools take every record they change with `own`: environments may share the base's records. */
  readonly copyOnWrite?: boolean;
  /**
   * A copy of a base DB an environment may write (its tools take each record they change with their own `own`),
   * sharing the base's records meanwhile; used instead of a deep copy, and for the DB after initialization data.
   */
  readonly copyDb?: (base: PydModel) => PydModel;
  /** The DB after initialization data, sharing what the data does not touch (see `copyDb`); null: dump, merge and validate instead. */
  readonly initializeDb?: (base: PydModel, agentData: TDict) => PydModel | null;
  /**
   * Retrieval tools of any of the domain's retrieval variants (banking_knowledge: `KB_search_bm25`, `KB_search_dense`,
   * `shell` of the default one; `KB_search`, `grep` of others): never replayed, whether the evaluation's toolkit has them or not.
   */
  readonly retrievalTools?: ReadonlySet<string>;
  /** Agent and user tools work on one DB (banking_knowledge): the user's DB is the agent's, and so is its hash. */
  readonly sharedDb?: boolean;
  /** The env kwarg `read_log_allowlist` `evaluate-trajs` passes for a task, from its gold actions (banking_knowledge). */
  readonly readLogAllowlist?: (goldActions: readonly { readonly name: string; readonly arguments: TDict }[]) => ReadonlySet<string>;
}

/**
 * Reads an argument as a Python `str` key for `in` / `[]` on a dict (a non-str is never a key there).
 * Python parity: dict lookup hashes the key first — a list or dict argument raises `TypeError: unhashable type`.
 */
export const key = (v: TValue): string | null => {
  if (Array.isArray(v) || v instanceof Map) throw new PyException('TypeError', `unhashable type: '${Array.isArray(v) ? 'list' : 'dict'}'`);
  return typeof v === 'string' ? v : null;
};
