/**
 * banking_knowledge tools under generated calls (fast-check, seeded: a failure prints its seed and path and replays),
 * on ../shared's banking DB and tasks. Two kinds of calls: any tool of either toolkit with arbitrary arguments, and a
 * task's gold actions (on the task's initial state) with one argument replaced — the second reaches the tools' deep
 * paths, past their checks. Properties, each read off τ²'s tools.py and environment.py:
 * - every answer is τ²'s kind of answer: a result or `Error: <str(exception)>`, never a flaw of this port;
 * - the same calls on two fresh environments answer alike and leave the same DB (τ²'s tools are deterministic: ids are
 *   hashes of their arguments, the clock is fixed), and the shared base DB is never written (copy-on-write holds);
 * - a READ tool called by name leaves the DB as it was (only writes and the call_discoverable_* wrappers log rows);
 * - an amount written in Arabic-Indic digits is answered as the ASCII amount (CPython's float() reads both).
 * The same generators were run through τ²'s own environment (about 5,000 call sequences): every answer and every DB
 * hash agreed once float() was fixed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { Tau2Environment } from '../../../../src/core/env/tau2/environment';
import { TAU2_PINNED_COMMIT, tau2DataPath } from '../../../../src/core/model/data/tau2/data';
import { BANKING } from '../../../../src/core/model/domains/tau2/banking';
import { TransactionalDb } from '../../../../src/core/model/domains/tau2/banking/models';
import { readTask } from '../../../../src/core/model/episode/tau2/read-task';
import type { Tau2Task, Tau2ToolCall } from '../../../../src/core/model/episode/tau2/types';
import { sha256Hex } from '../../../../src/core/py/hash';
import { parseJson } from '../../../../src/core/py/json-parse';
import { modelDump, pyJsonDumps, validate, type TDict, type TValue } from '../../../../src/core/py/pydantic';
import { describeTau2, TAU2_DIR } from '../../../support/shared';

const SEED = 0x7a0b4e;
const RUNS = 30;
let cases = 0;
afterAll(() => console.log(`banking-fuzz: ${cases} generated call sequences (seed ${SEED})`));

const domainFile = (f: string) => join(TAU2_DIR, 'data', tau2DataPath('banking_knowledge', f, TAU2_PINNED_COMMIT));
type Db = ReturnType<typeof validate>;
let base: Db | null = null;
const baseDb = (): Db => (base ??= validate(TransactionalDb, parseJson(readFileSync(domainFile('db.json'), 'utf8')) as TValue));
let tasks: { task: Tau2Task; gold: { name: string; requestor: 'assistant' | 'user'; arguments: Record<string, unknown> }[] }[] | null = null;
const goldTasks = () =>
  (tasks ??= readdirSync(domainFile('tasks'))
    .filter((f) => /^task_.*\.json$/.test(f))
    .sort()
    .map((f) => {
      const text = readFileSync(join(domainFile('tasks'), f), 'utf8');
      const raw = JSON.parse(text) as { evaluation_criteria?: { actions?: { name: string; requestor?: string; arguments: Record<string, unknown> }[] } };
      return {
        task: readTask(parseJson(text) as TValue, f),
        gold: (raw.evaluation_criteria?.actions ?? []).map((a) => ({
          name: a.name,
          requestor: a.requestor === 'user' ? ('user' as const) : ('assistant' as const),
          arguments: a.arguments,
        })),
      };
    })
    .filter((t) => t.gold.length > 0));

const hash = (e: Tau2Environment): string => sha256Hex(pyJsonDumps(modelDump(e.agent!.db), { sortKeys: true }));
const fresh = (task: Tau2Task | null): Tau2Environment => {
  const e = new Tau2Environment(BANKING, { agent: baseDb() as never, user: null }, false);
  if (task) e.setState(task, []);
  return e;
};
interface Call {
  readonly name: string;
  readonly requestor: 'assistant' | 'user';
  readonly args: string;
}
const toCall = (c: Call, i: number): Tau2ToolCall => ({ id: `c${i}`, name: c.name, arguments: parseJson(c.args) as TDict, requestor: c.requestor });
/** Every call's answer, and the DB after them. */
function replay(task: Tau2Task | null, calls: readonly Call[]) {
  const e = fresh(task);
  const answers = calls.map((c, i) => e.getResponse(toCall(c, i)));
  return { answers, hash: hash(e), env: e };
}

// ---------------------------------------------------------------- values

const WORDS = ['', ' ', 'OPEN', 'ACTIVE', 'PENDING', 'lost', 'stolen', 'keep_active', 'full_refund', 'STANDARD', 'checking', 'savings', '1234', '0000'];
const TRICKY = [
  '١٢٣٤',
  '²³',
  ' 5 ',
  '5_0',
  '1e3',
  'nan',
  'inf',
  '$1,000.00',
  '01/15/2026',
  '02/30/2025',
  '1/ 5/2026',
  'ß',
  'İ',
  'ǆ',
  'a"b',
  'a\\b',
  '", "limit": 1, "x": "',
];
const scalar = fc.oneof(
  fc.constantFrom(...WORDS, ...TRICKY),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 100_000 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.constantFrom(0, 1, 0.5, 2.675, 99.995, 1e22, true, false, null),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'id'), scalar, { maxKeys: 2 }),
);
/** Python's json.dumps text of a value (floats that are integral keep `.0`, so a float stays a float). */
const dumps = (v: unknown): string => pyJsonDumps(parseJson(JSON.stringify(v)) as TValue);

describeTau2('banking_knowledge tools under generated calls (../shared banking DB and tasks)', () => {
  const names = (requestor: 'assistant' | 'user') => {
    const kit = requestor === 'user' ? fresh(null).user! : fresh(null).agent!;
    return kit.toolNames().filter((n) => !kit.tool(n)!.retrieval);
  };
  const anyCall: fc.Arbitrary<Call> = fc.constantFrom<'assistant' | 'user'>('assistant', 'assistant', 'user').chain((requestor) =>
    fc.record({
      name: fc.constantFrom(...names(requestor)),
      requestor: fc.constant(requestor),
      args: fc
        .dictionary(fc.constantFrom('user_id', 'account_id', 'card_id', 'amount', 'reason', 'arguments', 'agent_tool_name', 'pin', 'x'), value, { maxKeys: 4 })
        .map(dumps),
    }),
  );
  /** A task's gold actions, one argument (or one key inside a JSON-string `arguments`) replaced by a generated value. */
  const goldCalls: fc.Arbitrary<{ task: Tau2Task; calls: Call[] }> = fc
    .record({ t: fc.nat(), at: fc.nat(), key: fc.nat(), v: value })
    .map(({ t, at, key, v }) => {
      const { task, gold } = goldTasks()[t % goldTasks().length]!;
      const calls = gold.map((g) => ({ name: g.name, requestor: g.requestor, args: g.arguments }));
      const target = calls[at % calls.length]!;
      const inner = typeof target.args.arguments === 'string' ? (JSON.parse(target.args.arguments) as unknown) : null;
      if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && Object.keys(inner).length > 0) {
        const k = Object.keys(inner)[key % Object.keys(inner).length]!;
        target.args = { ...target.args, arguments: dumps({ ...(inner as object), [k]: v }) };
      } else if (Object.keys(target.args).length > 0) {
        const k = Object.keys(target.args)[key % Object.keys(target.args).length]!;
        target.args = { ...target.args, [k]: v };
      }
      return { task, calls: calls.map((c) => ({ ...c, args: dumps(c.args) })) };
    });

  const property = <T>(arb: fc.Arbitrary<T>, check: (v: T) => void) =>
    fc.assert(
      fc.property(arb, (v) => {
        cases++;
        check(v);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

  it('every answer is a result or τ²’s `Error: …`; two fresh environments agree; the base DB is never written', () => {
    const before = hash(fresh(null));
    const check = (task: Tau2Task | null, calls: readonly Call[]) => {
      const a = replay(task, calls);
      for (const r of a.answers) expect(r.content).not.toMatch(/^Error: \(tau-inspect could not replay/);
      const b = replay(task, calls);
      expect(b.answers).toEqual(a.answers);
      expect(b.hash).toBe(a.hash);
    };
    property(fc.array(anyCall, { minLength: 1, maxLength: 5 }), (calls) => check(null, calls));
    property(goldCalls, ({ task, calls }) => check(task, calls));
    expect(hash(fresh(null))).toBe(before);
  });

  it('a READ tool called by name leaves the DB as it was', () => {
    const reads = (requestor: 'assistant' | 'user') => {
      const kit = requestor === 'user' ? fresh(null).user! : fresh(null).agent!;
      return names(requestor).filter((n) => kit.tool(n)!.toolType === 'read');
    };
    const read: fc.Arbitrary<Call> = fc.constantFrom<'assistant' | 'user'>('assistant', 'user').chain((requestor) =>
      fc.record({
        name: fc.constantFrom(...reads(requestor)),
        requestor: fc.constant(requestor),
        args: fc
          .dictionary(fc.constantFrom('user_id', 'account_id', 'card_id', 'credit_card_account_id', 'transaction_id', 'months'), value, { maxKeys: 3 })
          .map(dumps),
      }),
    );
    property(fc.tuple(goldCalls, read), ([{ task, calls }, r]) => {
      const e = replay(task, calls).env;
      const h = hash(e);
      e.getResponse(toCall(r, 99));
      expect(hash(e)).toBe(h);
    });
  });

  it('an amount in Arabic-Indic digits is answered as the same amount in ASCII digits', () => {
    const arabic = (s: string) => s.replace(/[0-9]/g, (d) => String.fromCharCode(0x660 + Number(d)));
    const amounts = goldTasks().flatMap(({ task, gold }) =>
      gold.flatMap((g, i) => {
        const inner = typeof g.arguments.arguments === 'string' ? (JSON.parse(g.arguments.arguments) as Record<string, unknown>) : null;
        return inner && typeof inner.amount === 'number' ? [{ task, gold, i, inner }] : [];
      }),
    );
    expect(amounts.length).toBeGreaterThan(0);
    property(fc.tuple(fc.constantFrom(...amounts), fc.integer({ min: 1, max: 5000 })), ([{ task, gold, i, inner }, n]) => {
      const with_ = (amount: string) =>
        gold.map((g, j) => ({
          name: g.name,
          requestor: g.requestor,
          args: dumps(j === i ? { ...g.arguments, arguments: dumps({ ...inner, amount }) } : g.arguments),
        }));
      const ascii = replay(task, with_(String(n)));
      const other = replay(task, with_(arabic(String(n))));
      expect(other.answers).toEqual(ascii.answers);
      expect(other.hash).toBe(ascii.hash);
    });
  });
});
