import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { FOCUS_FIELD } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';

const ABOUT: Record<string, string> = { airline: 'about 10 MB', retail: 'about 4.6 MB' };

/** Asks before fetching τ-bench data from the network; offers a local folder instead. */
export function DataConsent() {
  const store = useAppStore();
  const request = useApp((s) => s.dataRequest);
  const error = useApp((s) => s.dataError);
  const detection = useApp((s) => s.detection);
  const [base, setBase] = useState<string | null>(null);
  const baseId = useId();
  if (detection || (!request && !error)) return null;
  const value = base ?? request?.suggestedBase ?? '';
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    store.getState().agreeToFetch(value);
  };
  const pickFolder = (): void => document.querySelector<HTMLInputElement>('[data-testid="open-folder-input"]')?.click();
  return (
    <section aria-labelledby={`${baseId}-h`} className="border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <h2 id={`${baseId}-h`} className="font-semibold">
        {request ? `τ-bench ${request.domain} data needed` : 'Data problem'}
      </h2>
      {error && (
        <p role="alert" className="mt-1 text-rose-800">
          {error}
        </p>
      )}
      {request && (
        <>
          <p className="mt-1 max-w-3xl">
            {request.reason} Recorded rewards are shown meanwhile. Fetch it ({ABOUT[request.domain] ?? 'a few MB'}: the {request.domain} tables of the known τ-bench
            versions; the version is then chosen by detection) and keep it in this browser’s cache, or pick a local tau-bench folder. Nothing is fetched
            until you agree.
          </p>
          <form onSubmit={submit} className="mt-2 flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1 basis-72">
              <label htmlFor={baseId} className="block text-xs font-medium text-amber-900">
                Data URL base (laid out as &lt;commit&gt;/tau_bench/envs/{request.domain}/data/*.json)
              </label>
              <input
                id={baseId}
                type="url"
                value={value}
                onChange={(e) => setBase(e.currentTarget.value)}
                className={`mt-0.5 w-full rounded-md border border-amber-300 bg-white px-2 py-1 font-mono text-xs text-slate-800 ${FOCUS_FIELD}`}
              />
            </div>
            <Button type="submit" variant="primary">
              Fetch and cache
            </Button>
            <button type="button" onClick={pickFolder} className="rounded-md border border-amber-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-amber-100">
              Pick a tau-bench folder…
            </button>
          </form>
        </>
      )}
    </section>
  );
}
