import { useId, useState } from 'react';
import { Button } from '../../ui/button';
import { safeLabel as clip } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';

/** Asks before opening a results file that a link names on a host the user has not agreed to. */
export function RunConsent() {
  const store = useAppStore();
  const request = useApp((s) => s.runRequest);
  const [remember, setRemember] = useState(false);
  const id = useId();
  if (!request) return null;
  let host = request.url;
  try {
    host = new URL(request.url).origin;
  } catch {
    /* shown as given */
  }
  const answer = (agree: boolean): void => store.getState().answerRunRequest(agree, remember);
  return (
    <section aria-labelledby={`${id}-h`} data-testid="run-consent" className="border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <h2 id={`${id}-h`} className="font-semibold">
        Open a results file from {clip(host, 120)}?
      </h2>
      <p className="mt-1 max-w-3xl break-words">
        This link asks to fetch <code className="font-mono text-xs">{clip(request.url, 400)}</code>. Nothing has been fetched: your browser will contact{' '}
        {clip(host, 120)} only if you agree.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={() => answer(true)}>
          Fetch and open
        </Button>
        <button
          type="button"
          onClick={() => answer(false)}
          className="rounded-md border border-amber-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-amber-100"
        >
          Don’t open
        </button>
        <label className="flex items-center gap-1.5 text-xs">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
          Remember {clip(host, 120)} as agreed in this browser (links to it will then open without asking)
        </label>
      </div>
    </section>
  );
}
