import { messageName, TAU2_PROCEDURE_KINDS, TAU2_PROCEDURE_NOTE, type Tau2Finding, type Tau2ProcedureKind, type Tau2SimView } from '../../core/contract';
import { safeLabel } from '../../ui/fold';
import { CallLink } from './checks';

const procedure = (f: Tau2Finding): boolean => f.group === 'procedure';

/**
 * What τ² does not count, for this simulation: what the domain's policy asks and the reward ignores (procedure findings,
 * each with the call and message that show it), then what is worth knowing about how τ² judged it.
 */
export function Tau2Findings({ view, onCall, onMessage }: { view: Tau2SimView; onCall: (index: number) => void; onMessage: (index: number) => void }) {
  if (view.findings.length === 0) return <p className="px-3 py-2 text-xs text-slate-600">Nothing found that τ² does not count.</p>;
  const policy = view.findings.filter(procedure);
  const other = view.findings.filter((f) => !procedure(f));
  return (
    <>
      {policy.length > 0 && (
        <section className="border-b border-slate-200 px-3 py-2" data-testid="tau2-procedure">
          <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">What the reward ignores</h3>
          <p className="mt-0.5 text-[11px] text-slate-600">{TAU2_PROCEDURE_NOTE}</p>
          <ul className="mt-1 flex flex-col gap-1.5 text-xs text-slate-800">
            {policy.map((f, i) => (
              <li key={i} className="rounded border border-amber-200 bg-amber-50/40 p-1.5" data-testid="tau2-procedure-finding" data-kind={f.kind}>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="rounded bg-amber-100 px-1 text-[10px] font-semibold text-amber-900">
                    {TAU2_PROCEDURE_KINDS[f.kind as Tau2ProcedureKind]}
                  </span>
                  {f.call !== undefined && <CallLink index={f.call} onCall={onCall} />}
                  {f.message !== undefined && (
                    <button
                      type="button"
                      className="font-mono text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
                      onClick={() => onMessage(f.message!)}
                    >
                      {messageName(f.message)}
                    </button>
                  )}
                  <span className="text-[10px] text-slate-600">not part of τ²’s reward</span>
                </div>
                <p className="mt-0.5">{safeLabel(f.text, 1000)}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
      {other.length > 0 && (
        <section className="border-b border-slate-200 px-3 py-2" data-testid="tau2-findings">
          <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Not counted by τ²</h3>
          <ul className="mt-1 list-disc pl-4 text-xs text-slate-800">
            {other.map((f, i) => (
              <li key={i}>{safeLabel(f.text, 1000)}</li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
