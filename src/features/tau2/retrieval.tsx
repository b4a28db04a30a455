import { callName } from '../../core/contract';
import type { Tau2SimView } from '../../core/contract';
import { FoldedText } from '../../ui/folded-text';
import { safeLabel } from '../../ui/fold';

type Doc = NonNullable<Tau2SimView['retrieval']>['calls'][number]['documents'][number];

function Document({ d }: { d: Doc }) {
  return (
    <li className="rounded border border-slate-200 bg-white p-2" data-doc={d.id}>
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="font-medium text-slate-900">{d.doc ? safeLabel(d.doc.title, 200) : '(not in the data)'}</span>
        {d.required && <span className="rounded border border-emerald-300 bg-emerald-50 px-1 text-[11px] text-emerald-800">required by the task</span>}
      </div>
      <div className="font-mono text-[11px] break-all text-slate-600">{safeLabel(d.id, 200)}</div>
      {d.doc && (
        <div className="mt-1 text-xs break-words whitespace-pre-wrap text-slate-800">
          <FoldedText text={d.doc.content} limit={1200} />
        </div>
      )}
    </li>
  );
}

/**
 * banking_knowledge's retrieval: each retrieval call (never replayed: τ² does not re-run them) with the documents its
 * recorded output names, opened from the data's `documents/`, and the task's required documents the agent never retrieved.
 */
export function Tau2Retrieval({ view, onCall }: { view: Tau2SimView; onCall: (index: number) => void }) {
  const r = view.retrieval;
  if (!r) return <p className="px-3 py-2 text-xs text-slate-600">No knowledge base in this domain: only banking_knowledge has retrieval tools.</p>;
  const missing = r.required.filter((d) => d.retrievedIn === null);
  return (
    <div className="flex flex-col gap-3 px-3 py-2 text-sm" data-testid="tau2-retrieval">
      <p className="text-xs text-slate-600">
        Retrieval calls are never replayed (they change nothing, and τ² needs its search index to run them): the documents below are those their recorded
        outputs name, opened from the data.
      </p>
      {r.required.length > 0 && (
        <p className={missing.length > 0 ? 'text-amber-900' : 'text-emerald-900'}>
          {missing.length === 0
            ? `The agent retrieved all ${r.required.length} document${r.required.length === 1 ? '' : 's'} the task requires.`
            : `Never retrieved ${missing.length} of the ${r.required.length} document${r.required.length === 1 ? '' : 's'} the task requires: ${missing.map((d) => safeLabel(d.doc?.title ?? d.id, 120)).join('; ')}.`}
        </p>
      )}
      {r.calls.length === 0 && <p className="text-slate-600">The agent made no retrieval call.</p>}
      {r.calls.map((c) => (
        <section key={c.call} className="flex flex-col gap-1">
          <button type="button" className="self-start text-left font-mono text-xs text-sky-800 underline" onClick={() => onCall(c.call)}>
            {callName(c.call)} {safeLabel(c.name, 80)} — {c.documents.length} document{c.documents.length === 1 ? '' : 's'}
          </button>
          <ol className="flex flex-col gap-1">
            {c.documents.map((d) => (
              <Document key={d.id} d={d} />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
