import { typeError } from '../../py/errors';
import type { PyDict, PyValue } from '../../py/value';

export type ToolArgs<P extends readonly string[]> = { readonly [K in P[number]]: PyValue };

/** One τ-bench tool: `Tool.invoke(data, **kwargs)` and what Python needs to word its errors. */
export interface ToolDef<P extends readonly string[] = readonly string[]> {
  /** The function name the agent calls (`get_info()["function"]["name"]`). */
  readonly name: string;
  /** The Python class, e.g. `GetOrderDetails` (appears in argument errors). */
  readonly className: string;
  /** The Python module, e.g. `tau_bench.envs.retail.tools.get_order_details`. */
  readonly module: string;
  /** Parameters of `invoke` after `data`, in signature order; all are required. */
  readonly params: P;
  /** Whether the tool can change the DB (read-only tools get the state itself, undrafted). */
  readonly writes: boolean;
  /** Whether the episode ends after this tool (τ-bench's `terminate_tools`). */
  readonly terminates?: boolean;
  /**
   * The tool body. Mutates `data` in place like the Python code (the caller gives it a
   * draft, `writeDb`), returns the observation (`null` stands for Python's `None`), and throws
   * `PyException` where Python raises.
   */
  readonly invoke: (data: PyDict, args: ToolArgs<P>) => string | null;
}

/**
 * A tool that only reads never returns `None` (its body's type says so): the replay may then leave its call until
 * its observation is read (`replayEpisode`), since its only effect on a verdict would be a `None`.
 */
export function defineTool<const P extends readonly string[]>(
  def: ToolDef<P> & { readonly writes: false; readonly invoke: (data: PyDict, args: ToolArgs<P>) => string },
): ToolDef;
export function defineTool<const P extends readonly string[]>(def: ToolDef<P> & { readonly writes: true }): ToolDef;
export function defineTool<const P extends readonly string[]>(def: ToolDef<P>): ToolDef {
  return def as unknown as ToolDef;
}

function quotedList(names: readonly string[]): string {
  const q = names.map((n) => `'${n}'`);
  if (q.length === 1) return q[0]!;
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}`;
}

/**
 * Binds `**kwargs` to the tool's parameters as CPython 3.11 does, raising its TypeErrors.
 */
// Python parity: ceval.c positional/keyword binding errors (CPython 3.11 wording).
export function bindArgs(tool: ToolDef, kwargs: PyDict): Record<string, PyValue> {
  if (kwargs.has('data')) throw typeError(`${tool.module}.${tool.className}.invoke() got multiple values for keyword argument 'data'`);
  const args: Record<string, PyValue> = Object.create(null) as Record<string, PyValue>;
  for (const [k, v] of kwargs) {
    if (!tool.params.includes(k)) throw typeError(`${tool.className}.invoke() got an unexpected keyword argument '${k}'`);
    args[k] = v;
  }
  const missing = tool.params.filter((p) => !(p in args));
  if (missing.length > 0)
    throw typeError(
      `${tool.className}.invoke() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${quotedList(missing)}`,
    );
  return args;
}

/** Binds and invokes; Python exceptions propagate as `PyException`. */
export function callTool(tool: ToolDef, data: PyDict, kwargs: PyDict): string | null {
  return tool.invoke(data, bindArgs(tool, kwargs) as ToolArgs<readonly string[]>);
}
