import { callName } from '../../core/contract';
import { useEffect, useState } from 'react';
import type { Tau2DbSide, Tau2StateChange, Tau2StateView } from '../../core/contract';
import { FoldedText } from '../../ui/folded-text';
import { safeLabel } from '../../ui/fold';
import { FOCUS_RING_SKY } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';
import type { Tau2PanelContext } from './panel-types';
import { PathText } from '../../ui/path-text';

const DB_LABEL: Record<Tau2DbSide, string> = { agent: 'Agent DB', user: 'User’s device' };

function Change({ c, onCall }: { c: Tau2StateChange; onCall: (index: number) => void }) {
  return (
    <li className="rounded border border-slate-200 p-1.5" data-testid="tau2-state-change" data-table={c.table} data-key={c.key ?? ''}>
      <div className="flex flex-wrap items-center gap-1.5">
        <span className="font-mono font-semibold break-all">
          {safeLabel(c.table, 80)}
          {c.key !== null && ` / ${safeLabel(c.key, 120)}`}
        </span>
        <span className="text-slate-600" data-testid="tau2-state-writers">
          {c.before === null ? 'created' : c.after === null ? 'removed' : 'changed'} by{' '}
          {c.calls.map((k, i) => (
            <span key={k.call}>
              {i > 0 && ', '}
              <button
                type="button"
                className="font-mono text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
                onClick={() => onCall(k.call)}
                data-call={k.call}
              >
                {callName(k.call)}
              </button>{' '}
              (#{k.message})
            </span>
          ))}
        </span>
        {c.same && <span className="text-slate-600">— and put back as it was</span>}
      </div>
      {c.fields.length > 0 && (
        <table className="mt-1 w-full table-fixed border-collapse text-[11px]">
          <thead>
            <tr className="text-left text-[10px] text-slate-600">
              <th className="w-1/4 font-normal">field</th>
              <th className="font-normal">after initialization</th>
              <th className="font-normal">at this message</th>
            </tr>
          </thead>
          <tbody>
            {c.fields.map((f) => (
              <tr key={f.path} className="border-t border-slate-100 align-top">
                <td className="pr-1 font-mono break-words text-slate-700">
                  <PathText path={f.path} />
                </td>
                {/* fieldDiffs(initial, now): `predicted` is the initial side here, `gold` the current one. */}
                <td className="pr-1 font-mono break-all text-slate-600">
                  {f.predicted === null ? <i>absent</i> : <FoldedText text={f.predicted} limit={2000} />}
                </td>
                <td className="font-mono break-all text-amber-900">{f.gold === null ? <i>absent</i> : <FoldedText text={f.gold} limit={2000} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

function RecordBrowser({ state, message }: { state: Tau2StateView; message: number }) {
  const store = useAppStore();
  const asked = useApp((s) => s.stateRecord);
  const [table, setTable] = useState(asked?.table ?? '');
  const [key, setKey] = useState(asked?.key ?? '');
  const ask = (t: string, k: string): void => store.getState().setStateRecord(t === '' ? null : { table: t, key: k });
  const rec = state.record;
  const isTable = state.tables.find((t) => t.name === table)?.count !== null;
  return (
    <section className="mt-3 border-t border-slate-200 pt-2" aria-label="Browse a record" data-testid="tau2-record-browser">
      <h4 className="text-[11px] font-semibold tracking-wide text-slate-600 uppercase">Any record at message #{message}</h4>
      <form
        className="mt-1 flex flex-wrap items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          ask(table, key);
        }}
      >
        <label className="flex items-center gap-1">
          <span className="sr-only">Table</span>
          <select
            className={`rounded border border-slate-300 bg-white px-1 py-0.5 text-xs ${FOCUS_RING_SKY}`}
            value={table}
            onChange={(e) => {
              setTable(e.currentTarget.value);
              setKey('');
              ask(e.currentTarget.value, '');
            }}
            data-testid="tau2-record-table"
          >
            <option value="">a table…</option>
            {state.tables.map((t) => (
              <option key={t.name} value={t.name}>
                {safeLabel(t.name, 60)}
                {t.count !== null && ` (${t.count})`}
              </option>
            ))}
          </select>
        </label>
        {table !== '' && isTable && (
          <>
            <label className="min-w-0 flex-1">
              <span className="sr-only">Key (or its start)</span>
              <input
                className={`w-full min-w-24 rounded border border-slate-300 px-1 py-0.5 font-mono text-xs ${FOCUS_RING_SKY}`}
                placeholder="key or its start"
                value={key}
                onChange={(e) => setKey(e.currentTarget.value)}
                data-testid="tau2-record-key"
              />
            </label>
            <button type="submit" className={`rounded border border-slate-300 bg-white px-2 py-0.5 text-xs ${FOCUS_RING_SKY}`}>
              Show
            </button>
          </>
        )}
      </form>
      {rec && rec.table === table && (
        <div className="mt-1">
          {rec.key !== null && rec.text === null && rec.keys.length > 0 && (
            <ul className="flex flex-wrap gap-1" aria-label="Matching keys" data-testid="tau2-record-keys">
              {rec.keys.map((k) => (
                <li key={k}>
                  <button
                    type="button"
                    className={`rounded bg-slate-100 px-1 font-mono text-[11px] text-slate-800 hover:bg-slate-200 ${FOCUS_RING_SKY}`}
                    onClick={() => {
                      setKey(k);
                      ask(table, k);
                    }}
                  >
                    {safeLabel(k, 60)}
                  </button>
                </li>
              ))}
              {rec.moreKeys && <li className="text-[11px] text-slate-600">… more: type more of the key</li>}
            </ul>
          )}
          {rec.text !== null ? (
            <div className="mt-1 rounded bg-slate-50 p-1 font-mono text-[11px] break-all text-slate-800" data-testid="tau2-record-text">
              <FoldedText text={rec.text} limit={6000} />
            </div>
          ) : (
            rec.key !== null &&
            rec.key !== '' &&
            rec.keys.length === 0 && <p className="mt-1 text-slate-600">No record with a key starting “{safeLabel(rec.key, 80)}” at this message.</p>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The state at the selected message: the agent's DB or (telecom) the user's device, as the records
 * changed so far against the DB after initialization, each with the calls that wrote it, and any
 * record on request. The worker replays the simulation once and answers for each message.
 */
export function Tau2StatePanel(ctx: Tau2PanelContext) {
  if (ctx.edited)
    return (
      <p className="px-3 py-2 text-xs text-slate-600" data-testid="tau2-state-edited">
        The state at a step is shown for the recorded simulation: undo the what-if’s edits (or reset them) to see it.
      </p>
    );
  return <StateOfRecorded {...ctx} />;
}

function StateOfRecorded({ view, message, onCall }: Tau2PanelContext) {
  const store = useAppStore();
  const db = useApp((s) => s.stateDb);
  const record = useApp((s) => s.stateRecord);
  const asked = useApp((s) => s.stateAsk);
  useEffect(() => {
    store.getState().askState();
  }, [store, view, message, db, record]);
  const state = asked?.run !== undefined && asked.episode === view.index ? asked.state : null;
  const dbs = state?.dbs ?? ['agent'];
  const changed = state?.changes.filter((c) => !c.same).length ?? 0;
  return (
    <div className="px-3 py-2 text-xs text-slate-800" data-testid="tau2-state" data-message={state?.message ?? ''} data-db={state?.db ?? db}>
      <div className="flex flex-wrap items-center gap-2">
        {dbs.length > 1 && (
          <div role="radiogroup" aria-label="Which DB" className="flex gap-1">
            {dbs.map((d) => (
              <button
                key={d}
                type="button"
                role="radio"
                aria-checked={db === d}
                onClick={() => store.getState().setStateDb(d)}
                data-testid={`tau2-state-db-${d}`}
                className={`rounded-full border px-2 py-0.5 text-xs font-medium ${FOCUS_RING_SKY} ${db === d ? 'border-sky-700 bg-sky-700 text-white' : 'border-slate-300 bg-white text-slate-800'}`}
              >
                {DB_LABEL[d]}
              </button>
            ))}
          </div>
        )}
        <span className="flex gap-1">
          <button
            type="button"
            className={`rounded border border-slate-300 bg-white px-1.5 text-xs ${FOCUS_RING_SKY}`}
            onClick={() => store.getState().moveStep('prev')}
            aria-label="Previous message (k)"
            title="Previous message (k)"
          >
            ‹
          </button>
          <button
            type="button"
            className={`rounded border border-slate-300 bg-white px-1.5 text-xs ${FOCUS_RING_SKY}`}
            onClick={() => store.getState().moveStep('next')}
            aria-label="Next message (j)"
            title="Next message (j)"
            data-testid="tau2-state-next"
          >
            ›
          </button>
        </span>
        <p className="text-slate-600" aria-live="polite">
          {state === null
            ? asked?.error
              ? `Not shown: ${safeLabel(asked.error, 300)}`
              : 'Replaying…'
            : `${DB_LABEL[state.db]} after message #${state.message}: ${changed === 0 ? 'as after initialization' : `${changed} record${changed === 1 ? '' : 's'} changed since initialization`}`}
        </p>
      </div>
      {state?.error && <p className="mt-1 text-amber-900">{safeLabel(state.error, 500)}</p>}
      {state && state.changes.length === 0 && (
        <p className="mt-1 text-slate-600">
          Pick a later message (the step bar, a message’s <span className="font-mono">#</span>, or <kbd className="font-mono">j</kbd> /{' '}
          <kbd className="font-mono">k</kbd>) to see what the calls up to it changed; amber steps change the DB.
        </p>
      )}
      {state && state.changes.length > 0 && (
        <ul className="mt-1 flex flex-col gap-1.5" aria-label="Records changed so far" data-testid="tau2-state-changes">
          {state.changes.map((c) => (
            <Change key={`${c.table}/${c.key ?? ''}`} c={c} onCall={onCall} />
          ))}
        </ul>
      )}
      {state && <RecordBrowser state={state} message={state.message} />}
    </div>
  );
}
