import { useEffect, useRef } from 'react';
import { Button } from '../ui/button';
import { useApp, useAppStore } from '../ui/store-context';
import { keysFor } from './keys';

/** The key list (`?`), a modal dialog; Escape or the button closes it. */
export function KeyHelp() {
  const store = useAppStore();
  const open = useApp((s) => s.helpOpen);
  const kind = useApp((s) => s.runs.a.benchmark?.kind ?? null);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={() => store.getState().setHelpOpen(false)}
      onCancel={(e) => {
        e.preventDefault();
        store.getState().setHelpOpen(false);
      }}
      aria-labelledby="key-help-title"
      className="m-auto w-[min(32rem,calc(100vw-1.5rem))] rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800 shadow-xl backdrop:bg-slate-900/40"
      data-testid="key-help"
    >
      <h2 id="key-help-title" className="text-base font-semibold text-slate-900">
        Keys
      </h2>
      <p className="mt-1 text-xs text-slate-600">
        Step keys work wherever the focus is, except in text fields. The episode list keeps the arrow keys only while it has the focus (it shows a ring); Esc
        leaves it.
      </p>
      <table className="mt-2 w-full text-left text-xs">
        <tbody>
          {keysFor(kind).map((k) => (
            <tr key={k.what} className="border-t border-slate-100">
              <th scope="row" className="py-1 pr-3 font-normal whitespace-nowrap">
                {k.keys.map((x, i) => (
                  <span key={x}>
                    {i > 0 && ' '}
                    <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono text-[11px]">{x}</kbd>
                  </span>
                ))}
              </th>
              <td className="py-1">{k.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-3 text-right">
        <Button onClick={() => store.getState().setHelpOpen(false)}>Close (Esc)</Button>
      </div>
    </dialog>
  );
}
