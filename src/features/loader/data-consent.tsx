import { useId, useState, type FormEvent } from 'react';
import { benchmarkOf, type BenchmarkKind } from '../../core/contract';
import { safeLabel as clip } from '../../ui/fold';
import { Button } from '../../ui/button';
import { FOCUS_FIELD } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';
import { dataInputId } from './open-menu';

/** τ²'s DB files per domain, roughly. */
const SIZES: Readonly<Record<BenchmarkKind, Readonly<Record<string, string>>>> = {
  'tau-bench': { airline: 'about 10 MB', retail: 'about 4.6 MB' },
  tau2: { airline: 'about 7 MB', retail: 'about 3 MB', telecom: 'a few kB', mock: 'a few kB' },
};

/** Asks before fetching τ-bench data from the network; offers a local folder instead. */
export function DataConsent() {
  const store = useAppStore();
  const request = useApp((s) => s.runs.a.dataRequest);
  const error = useApp((s) => s.runs.a.dataError);
  const detection = useApp((s) => s.runs.a.detection);
  const linkBase = useApp((s) => s.linkDataBase);
  const remembered = useApp((s) => s.rememberedHosts);
  const [base, setBase] = useState<string | null>(null);
  const [remember, setRemember] = useState(false);
  const baseId = useId();
  if (detection || (!request && !error)) return null;
  const value = base ?? linkBase ?? request?.suggestedBase ?? '';
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    store.getState().agreeToFetch(value, remember);
  };
  let host: string | null = null;
  try {
    host = new URL(value).origin;
  } catch {
    host = null;
  }
  const bench = benchmarkOf(request?.benchmark);
  const pickFolder = (): void => document.querySelector<HTMLInputElement>(`[data-testid="${dataInputId(bench.kind)}"]`)?.click();
  return (
    <section aria-labelledby={`${baseId}-h`} className="border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <h2 id={`${baseId}-h`} className="font-semibold">
        {request ? `${bench.name} ${clip(request.domain, 60)} data needed` : 'Data problem'}
      </h2>
      {error && (
        <p role="alert" className="mt-1 text-rose-800">
          {clip(error, 1000)}
        </p>
      )}
      {request && (
        <>
          <p className="mt-1 max-w-3xl">
            {request.reason} Recorded rewards are shown meanwhile. Fetch it ({SIZES[bench.kind][request.domain] ?? 'a few MB'}:{' '}
            {clip(bench.fetches(request.domain), 200)}) and keep it in this browser’s cache, or pick a local {bench.repo} folder. Nothing is fetched until you
            agree.
          </p>
          {linkBase !== null && (
            <p className="mt-1 max-w-3xl break-words font-medium" data-testid="link-data-host">
              The link you opened proposes the data URL below ({clip(linkBase, 300)}); it has not been contacted.
            </p>
          )}
          <form onSubmit={submit} className="mt-2 flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1 basis-72">
              <label htmlFor={baseId} className="block text-xs font-medium text-amber-900">
                {`Data URL base (laid out as ${clip(bench.layout(request.domain), 200)})`}
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
            <button
              type="button"
              onClick={pickFolder}
              className="rounded-md border border-amber-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-amber-100"
            >
              {`Pick a ${bench.repo} folder…`}
            </button>
            {host && (
              <label className="flex basis-full items-center gap-1.5 text-xs">
                <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
                Remember {clip(host, 120)} as agreed in this browser (links naming it will then fetch without asking)
              </label>
            )}
            {remembered.length > 0 && (
              <p className="basis-full text-xs text-amber-900">
                Agreed in this browser: {clip(remembered.join(', '), 400)}.{' '}
                <button type="button" className="underline underline-offset-2" onClick={() => store.getState().forgetHosts()}>
                  Forget them
                </button>
              </p>
            )}
          </form>
        </>
      )}
    </section>
  );
}
