import { safeLabel } from '../../ui/fold';
import { FOCUS_RING } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';

/**
 * The way back to the library from a run opened from it: `Library <name> › <the run's file> › #<episode>`. The first
 * part shows the library again as it was left (a new history entry, as Back would show it), nothing read or judged again.
 */
export function LibraryCrumb() {
  const store = useAppStore();
  const from = useApp((s) => s.libraryRun);
  const origin = useApp((s) => s.library.origin);
  const current = useApp((s) => s.pending.a?.run ?? s.runs.a.id);
  const selected = useApp((s) => s.selected);
  if (from === null || origin === null || from.run !== current) return null;
  const name = origin.kind === 'url' ? (origin.url.split('/').filter(Boolean).at(-2) ?? origin.url) : origin.name;
  return (
    <nav aria-label="Breadcrumb" className="border-b border-slate-200 bg-white px-2 py-1 text-xs text-slate-600 sm:px-4" data-testid="library-crumb">
      <ol className="flex min-w-0 items-baseline gap-1">
        <li className="shrink-0">
          <button
            type="button"
            className={`rounded font-medium text-indigo-700 hover:underline ${FOCUS_RING}`}
            onClick={() => store.getState().showLibrary(true)}
            title={`Back to the library ${safeLabel(name, 200)} as you left it`}
            data-testid="library-crumb-back"
          >
            ‹ Library <span className="font-normal">{safeLabel(name, 60)}</span>
          </button>
        </li>
        <li aria-hidden="true">›</li>
        <li className="min-w-0 truncate font-mono" aria-current={selected === null ? 'page' : undefined} title={safeLabel(from.file, 400)}>
          {safeLabel(from.file, 200)}
        </li>
        {selected !== null && (
          <>
            <li aria-hidden="true">›</li>
            <li className="shrink-0" aria-current="page">
              #{selected}
            </li>
          </>
        )}
      </ol>
    </nav>
  );
}
