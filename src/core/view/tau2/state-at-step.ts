/**
 * The DBs of a τ² simulation at any message: the agent's DB and (telecom) the user's device DB
 * after the calls made up to that message, as the records changed so far against the DB after the
 * task's initialization, each with the calls that wrote it, and any record on request. Built once
 * per simulation by one replay of its calls (as `fullReplay` replays them); a question about a
 * message is then answered from what the replay kept, with no replay.
 */
import { PyException } from '../../py/errors';
import { modelDump, PydModel, pyJsonDumps, type TValue } from '../../py/pydantic';
import { Tau2Environment } from '../../env/tau2/environment';
import type { Tau2Context } from '../../judge/tau2/evaluate';
import type { Tau2Simulation, Tau2Task } from '../../model/episode/tau2/types';
import { tableRecords, tau2FieldDiffs, type Tau2FieldDiff } from './db-diff';

export type Tau2DbSide = 'agent' | 'user';

/** A record of a DB: a table (dict field) and its key, or a field that is not a table (`key` null). */
export interface Tau2Place {
  readonly db: Tau2DbSide;
  readonly table: string;
  readonly key: string | null;
}

/** A record changed by the message asked about, against the DB after the task's initialization. */
export interface Tau2StateChange extends Tau2Place {
  /** The record after initialization and at the message (JSON as τ² dumps it), null where it does not exist. */
  readonly before: string | null;
  readonly after: string | null;
  /** The calls (replay order) that changed it up to the message, and the messages that made them. */
  readonly calls: readonly { readonly call: number; readonly message: number }[];
  /** Changed and then put back as it was. */
  readonly same: boolean;
  readonly fields: readonly Tau2FieldDiff[];
}

/** The state of one DB after a message: what changed, the tables, and the record asked for. */
export interface Tau2StateView {
  readonly message: number;
  readonly db: Tau2DbSide;
  /** Which DBs the simulation has (`user`: telecom's device). */
  readonly dbs: readonly Tau2DbSide[];
  readonly changes: readonly Tau2StateChange[];
  /** The DB's fields: each table with its number of records at the message (null: not a table). */
  readonly tables: readonly { readonly name: string; readonly count: number | null }[];
  readonly record: {
    readonly table: string;
    readonly key: string | null;
    /** The record at the message (null: none with that key). */
    readonly text: string | null;
    /** Keys of the table at the message that start with the key asked for (the first `MAX_KEYS`). */
    readonly keys: readonly string[];
    readonly moreKeys: boolean;
  } | null;
  /** Why the replay stopped early (the state shown is as far as it got). */
  readonly error: string | null;
}

/** Keys listed for a record asked for by prefix. */
export const MAX_KEYS = 40;

interface Change {
  readonly call: number;
  readonly message: number;
  readonly value: TValue | undefined;
  readonly text: string | null;
}

interface History {
  readonly place: Tau2Place;
  readonly initial: TValue | undefined;
  readonly initialText: string | null;
  readonly changes: Change[];
}

const dumped = (v: TValue | undefined): TValue | undefined => (v === undefined ? undefined : modelDump(v));
const textOf = (v: TValue | undefined): string | null => (v === undefined ? null : pyJsonDumps(v));
const placeKey = (p: Tau2Place): string => `${p.db}\u0000${p.table}\u0000${p.key ?? '\u0001'}`;

function dbOf(env: Tau2Environment, side: Tau2DbSide): PydModel | null {
  return (side === 'agent' ? env.agent?.db : env.user?.db) ?? null;
}

function valueIn(db: PydModel | null, table: string, key: string | null): TValue | undefined {
  if (!db || !db.fields.has(table)) return undefined;
  const t = db.get(table);
  if (key === null) return t;
  return tableRecords(t)?.get(key);
}

/** One simulation's replay, kept: every record that changed, after which call, to what. */
export class Tau2Timeline {
  private readonly histories = new Map<string, History>();
  /** The environment right after initialization (the records nobody changed are read from it). */
  private readonly init: Tau2Environment | null;
  readonly error: string | null = null;
  readonly dbs: readonly Tau2DbSide[];
  /** The places each call changed (by call index). */
  readonly writes = new Map<number, Tau2Place[]>();

  constructor(ctx: Tau2Context, task: Tau2Task | null, sim: Tau2Simulation) {
    let init: Tau2Environment | null = null;
    let env: Tau2Environment | null = null;
    try {
      // As fullReplay: initialization without the task's message history, then every call of the simulation in order.
      init = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
      env = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
      if (task) {
        init.setState({ ...task, messageHistory: [] }, []);
        env.setState({ ...task, messageHistory: [] }, []);
      }
    } catch (e) {
      this.error = `initialization failed: ${e instanceof PyException ? `${e.pyType}: ${e.text}` : String(e)}`;
    }
    this.init = init;
    this.dbs = init?.user ? ['agent', 'user'] : ['agent'];
    if (!env || !init || this.error) return;
    let call = 0;
    sim.messages.forEach((m, message) => {
      if ((m.role !== 'assistant' && m.role !== 'user') || m.toolCalls === null) return;
      for (const c of m.toolCalls) {
        const known = env.hasTool(c.name);
        if (known) env.getResponse(c);
        if (known && env.isMutating(c.name)) this.look(env, init, call, message);
        call++;
      }
    });
  }

  /** After a writing call: the records not shared with the initial DB (copy-on-write keeps the rest shared), compared with what they were. */
  private look(env: Tau2Environment, init: Tau2Environment, call: number, message: number): void {
    for (const side of this.dbs) {
      const now = dbOf(env, side);
      const was = dbOf(init, side);
      if (!now || !was) continue;
      for (const table of new Set([...now.fields.keys(), ...was.fields.keys()])) {
        const x = tableRecords(now.fields.get(table));
        const y = tableRecords(was.fields.get(table));
        if (x && y) {
          // A table no call wrote is still the initial DB's own map (environments share tables until written).
          if (x === y) continue;
          for (const [key, rec] of x) if (typeof key === 'string' && y.get(key) !== rec) this.note({ db: side, table, key }, rec, y.get(key), call, message);
          for (const key of y.keys()) if (typeof key === 'string' && !x.has(key)) this.note({ db: side, table, key }, undefined, y.get(key), call, message);
        } else {
          const [u, v] = [now.fields.get(table), was.fields.get(table)];
          if (u !== v) this.note({ db: side, table, key: null }, u, v, call, message);
        }
      }
    }
  }

  private note(place: Tau2Place, value: TValue | undefined, initialValue: TValue | undefined, call: number, message: number): void {
    const id = placeKey(place);
    let h = this.histories.get(id);
    const dump = dumped(value);
    const text = textOf(dump);
    if (h === undefined) {
      const initial = dumped(initialValue);
      const initialText = textOf(initial);
      if (text === initialText) return;
      this.histories.set(id, (h = { place, initial, initialText, changes: [] }));
    } else if ((h.changes.at(-1)?.text ?? h.initialText) === text) return;
    h.changes.push({ call, message, value: dump, text });
    const list = this.writes.get(call) ?? [];
    list.push(place);
    this.writes.set(call, list);
  }

  private textAt(side: Tau2DbSide, table: string, key: string | null, message: number): string | null {
    const h = this.histories.get(placeKey({ db: side, table, key }));
    const last = h?.changes.filter((c) => c.message <= message).at(-1);
    if (h && last) return last.text;
    return this.init ? textOf(dumped(valueIn(dbOf(this.init, side), table, key))) : null;
  }

  /** The state of `side` after message `message`, and the record `record` (by table and key or key prefix) if asked for. */
  at(message: number, side: Tau2DbSide, record: { readonly table: string; readonly key: string | null } | null): Tau2StateView {
    const changes: Tau2StateChange[] = [];
    const created = new Map<string, Set<string>>();
    const removed = new Map<string, Set<string>>();
    for (const h of this.histories.values()) {
      if (h.place.db !== side) continue;
      const upTo = h.changes.filter((c) => c.message <= message);
      const last = upTo.at(-1);
      if (!last) continue;
      if (h.place.key !== null) {
        const into = last.text === null ? removed : h.initialText === null ? created : null;
        if (into) into.set(h.place.table, (into.get(h.place.table) ?? new Set()).add(h.place.key));
      }
      // Python parity: the texts are τ²'s dumps; `predicted` is the initial side here, `gold` the current one.
      const fields: Tau2FieldDiff[] = last.text !== h.initialText ? tau2FieldDiffs(h.initialText, last.text) : [];
      changes.push({
        ...h.place,
        before: h.initialText,
        after: last.text,
        calls: upTo.map((c) => ({ call: c.call, message: c.message })),
        same: last.text === h.initialText,
        fields,
      });
    }
    const db = this.init ? dbOf(this.init, side) : null;
    const keysAt = (table: string): string[] => {
      const t = tableRecords(db?.fields.get(table));
      const keys = t ? [...t.keys()].filter((k): k is string => typeof k === 'string') : [];
      const gone = removed.get(table);
      return [...keys.filter((k) => !gone?.has(k)), ...(created.get(table) ?? [])];
    };
    const tables = db ? [...db.fields].map(([name, v]) => ({ name, count: tableRecords(v) ? keysAt(name).length : null })) : [];
    let shown: Tau2StateView['record'] = null;
    if (record && db?.fields.has(record.table)) {
      const isTable = tableRecords(db.fields.get(record.table)) !== null;
      const key = isTable ? (record.key ?? '') : null;
      const matching = key === null ? [] : keysAt(record.table).filter((k) => k.startsWith(key));
      shown = {
        table: record.table,
        key,
        text: this.textAt(side, record.table, key, message),
        keys: matching.slice(0, MAX_KEYS),
        moreKeys: matching.length > MAX_KEYS,
      };
    }
    return { message, db: side, dbs: this.dbs, changes, tables, record: shown, error: this.error };
  }
}
