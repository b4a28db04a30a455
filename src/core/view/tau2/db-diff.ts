/**
 * The DB check of a τ² simulation made visible: the records where the DB after the agent's calls
 * (predicted) and the DB after the reference actions (gold) differ, for the agent's DB and (telecom)
 * the user's, each with the calls that changed it in the predicted run (blame).
 */
import { parseJson } from '../../py/json-parse';
import { modelDump, PydModel, pyJsonDumps, type TValue } from '../../py/pydantic';
import type { PyValue } from '../../py/value';
import { pathText, pyJsonInline } from '../display';
import { fieldDiff, type FieldChange } from '../field-diff';
import { Tau2Environment } from '../../env/tau2/environment';
import type { Tau2Context } from '../../judge/tau2/evaluate';
import type { Tau2Simulation, Tau2Task } from '../../model/episode/tau2/types';

export interface Tau2RecordDiff {
  readonly db: 'agent' | 'user';
  /** A table (a dict field of the DB model) and a record key; `key` null for a field that is not a table. */
  readonly table: string;
  readonly key: string | null;
  /** The record as τ² dumps it (`json.dumps(model_dump(), sort_keys=True, default=str)`), null where it does not exist. */
  readonly predicted: string | null;
  readonly gold: string | null;
  /** Calls (indices in replay order, as `toolCalls`) after which the predicted record changed. */
  readonly blame: readonly number[];
  /** The fields that differ inside the record (a path like `payment_history[2].amount`), each side dumped; at most `MAX_FIELDS`. */
  readonly fields: readonly Tau2FieldDiff[];
}

export interface Tau2FieldDiff {
  readonly path: string;
  /** `added`: only the predicted record has it; `removed`: only the gold one; `changed`: both, differently. */
  readonly kind: FieldChange['kind'];
  /** The value's JSON on each side; null where the field is absent. */
  readonly predicted: string | null;
  readonly gold: string | null;
  /** Equal numbers that differ only as int vs float (`250` vs `250.0`): τ²'s hash tells them apart. */
  readonly intVsFloat: boolean;
}

/** Fields listed per record (a record that differs in more says so by the count). */
export const MAX_FIELDS = 40;

const show = (v: PyValue | undefined): string | null => (v === undefined ? null : pyJsonInline(v));

/**
 * Where two records differ, field by field, from their dumped texts (`json.dumps(model_dump(), sort_keys=True,
 * default=str)`, read back with Python's JSON reader so ints stay ints): the one DB diff pipeline of both benchmarks,
 * jsondiffpatch's (`fieldDiff`, core/view/field-diff.ts). `predicted` is the left side (τ-bench's "agent"), `gold` the right.
 */
export function tau2FieldDiffs(predicted: string | null, gold: string | null): Tau2FieldDiff[] {
  const read = (t: string | null): PyValue | undefined => (t === null ? undefined : parseJson(t));
  return fieldDiff(read(predicted), read(gold))
    .slice(0, MAX_FIELDS)
    .map((c) => ({ path: pathText(c.path), kind: c.kind, predicted: show(c.agent), gold: show(c.reference), intVsFloat: c.intVsFloat }));
}

const text = (v: TValue | undefined): string | null => (v === undefined ? null : pyJsonDumps(modelDump(v)));

interface Place {
  readonly db: 'agent' | 'user';
  readonly table: string;
  readonly key: string | null;
}

function dbOf(env: Tau2Environment, which: 'agent' | 'user'): PydModel | null {
  return (which === 'agent' ? env.agent?.db : env.user?.db) ?? null;
}

/**
 * The records of a DB field that is a table: a dict of records, or a model `{data: {id: record}, notes}` (banking_knowledge's
 * `DatabaseTable`, whose records are told apart as a dict field's are); null for any other field.
 */
export function tableRecords(v: TValue | undefined): Map<string, TValue> | null {
  if (v instanceof Map) return v;
  if (v instanceof PydModel && v.fields.size === 2 && v.fields.has('notes') && v.fields.get('data') instanceof Map)
    return v.fields.get('data') as Map<string, TValue>;
  return null;
}

function valueAt(env: Tau2Environment, p: Place): TValue | undefined {
  const db = dbOf(env, p.db);
  if (!db || !db.fields.has(p.table)) return undefined;
  const t = db.get(p.table);
  if (p.key === null) return t;
  return tableRecords(t)?.get(p.key);
}

/** Places where two DBs differ: each record of a dict field (same object: equal, not dumped), each other field. */
function differing(which: 'agent' | 'user', a: PydModel | null, b: PydModel | null): Place[] {
  if (!a || !b) return [];
  const out: Place[] = [];
  for (const table of new Set([...a.fields.keys(), ...b.fields.keys()])) {
    const x = tableRecords(a.fields.get(table));
    const y = tableRecords(b.fields.get(table));
    if (x && y) {
      for (const key of new Set([...x.keys(), ...y.keys()])) {
        if (typeof key !== 'string') continue;
        const u = x.get(key);
        const v = y.get(key);
        if (u !== v && text(u) !== text(v)) out.push({ db: which, table, key });
      }
    } else {
      const [u, v] = [a.fields.get(table), b.fields.get(table)];
      if (u !== v && text(u) !== text(v)) out.push({ db: which, table, key: null });
    }
  }
  return out;
}

/** The predicted and gold DBs of a simulation compared record by record, with blame; empty when they match. */
export function tau2DbDiff(ctx: Tau2Context, task: Tau2Task, sim: Tau2Simulation): Tau2RecordDiff[] {
  const predicted = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
  predicted.setState(task, sim.messages);
  // Python parity: the gold environment is built without solo mode (as evaluate_simulation does).
  const gold = new Tau2Environment(ctx.domain, ctx.base, false);
  gold.setState(task, task.messageHistory);
  for (const a of task.criteria?.actions ?? []) {
    try {
      gold.makeToolCall(a.name, a.requestor, a.arguments);
    } catch {
      // A failing reference action leaves the gold DB as it was, as in τ².
    }
  }
  // Python parity: evaluate_simulation hashes the gold DBs right after the actions, without a sync.
  // One DB shared by agent and user (banking_knowledge): its records are listed once, as the agent's.
  const shared = predicted.domain.sharedDb === true;
  const places = [
    ...differing('agent', dbOf(predicted, 'agent'), dbOf(gold, 'agent')),
    ...(shared ? [] : differing('user', dbOf(predicted, 'user'), dbOf(gold, 'user'))),
  ];
  if (places.length === 0) return [];
  // Blame: the predicted run again, watching each differing record after every call.
  const blame = places.map(() => [] as number[]);
  const again = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
  const before = places.map(() => null as string | null);
  let call = -1;
  again.setState(task, [], undefined);
  places.forEach((p, i) => (before[i] = text(valueAt(again, p))));
  again.setState(null, sim.messages, () => {
    call++;
    places.forEach((p, i) => {
      const now = text(valueAt(again, p));
      if (now !== before[i]) {
        blame[i]!.push(call);
        before[i] = now;
      }
    });
  });
  return places.map((p, i) => {
    const x = valueAt(predicted, p);
    const y = valueAt(gold, p);
    const [predictedText, goldText] = [text(x), text(y)];
    return { ...p, predicted: predictedText, gold: goldText, blame: blame[i]!, fields: tau2FieldDiffs(predictedText, goldText) };
  });
}
