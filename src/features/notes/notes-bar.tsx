import { benchmarkOf } from '../../core/contract';
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { NOTE_LABELS, notesFor } from '../../core/contract';
import { fingerprintsPending, labelCounts, type LabelFilter } from '../../store/notes-slice';
import { Button } from '../../ui/button';
import { FOCUS_FIELD } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';
import { JsonFileInput } from '../../ui/json-file-input';
import { ConflictList } from './conflict-list';

/** Label counts and filter of the run, and its notes exported to one file or imported from one (merged). */
export function NotesBar({ actions }: { actions?: ReactNode }) {
  const store = useAppStore();
  const headers = useApp((s) => s.runs.a.headers);
  const notes = useApp((s) => s.notes);
  const filter = useApp((s) => s.labelFilter);
  const result = useApp((s) => s.notesImport);
  const importing = useApp((s) => s.notesImporting);
  const source = useApp((s) => s.runs.a.source?.label ?? 'run');
  const counts = useMemo(() => labelCounts(headers, notes), [headers, notes]);
  const noted = useMemo(() => headers.filter((h) => notesFor(notes, h)).length, [headers, notes]);
  // A run's rows come before their fingerprints: until every one is in, the run's notes are not all known.
  const keying = useMemo(() => fingerprintsPending(headers), [headers]);
  const bench = useApp((s) => benchmarkOf(s.runs.a.benchmark?.kind));
  const [confirmClear, setConfirmClear] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const exportFile = () => {
    const blob = new Blob([store.getState().exportRunNotes()], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${source.replace(/\.json$/i, '')}.notes.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <div className="border-b border-slate-200 bg-white px-3 py-1.5 text-xs" data-testid="notes-bar">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="text-slate-600">
          Label
        </label>
        <select
          id={id}
          data-testid="label-filter"
          value={filter ?? ''}
          onChange={(e) => store.getState().setLabelFilter(e.currentTarget.value === '' ? null : (e.currentTarget.value as LabelFilter))}
          className={`rounded-md border border-slate-300 bg-white px-2 py-1 text-xs ${FOCUS_FIELD}`}
        >
          <option value="">any label</option>
          <option value="labelled">labelled</option>
          <option value="unlabelled">unlabelled</option>
          {NOTE_LABELS.map((l) => (
            <option key={l} value={l}>
              {l} ({counts.get(l) ?? 0})
            </option>
          ))}
        </select>
        <span className="text-slate-600" data-testid="label-counts">
          {counts.size === 0 ? 'no labels' : [...counts].map(([l, c]) => `${l}: ${c}`).join(' · ')}
        </span>
        {actions}
        {keying > 0 && (
          <span role="status" className="text-slate-600" data-testid="notes-keying">
            finding the notes of {keying} {keying === 1 ? bench.noun : bench.nouns}…
          </span>
        )}
        <span className="ml-auto flex gap-1 whitespace-nowrap">
          <Button onClick={exportFile} disabled={noted === 0 || keying > 0} data-testid="notes-export">
            Export notes
          </Button>
          <Button onClick={() => input.current?.click()} data-testid="notes-import">
            Import notes
          </Button>
          <Button
            data-testid="notes-clear"
            disabled={noted === 0 || keying > 0}
            onClick={() => {
              if (!confirmClear) return setConfirmClear(true);
              setConfirmClear(false);
              void store.getState().clearRunNotes();
            }}
            onBlur={() => setConfirmClear(false)}
          >
            {confirmClear ? `Delete notes of ${noted} episodes?` : 'Clear notes'}
          </Button>
          <JsonFileInput ref={input} testId="notes-import-file" onFile={(f) => void store.getState().importNotesFile(f)} />
        </span>
      </div>
      {importing !== null && (
        <p role="status" className="mt-1 text-slate-600" data-testid="notes-importing">
          Importing {importing}…
        </p>
      )}
      {result && (
        <div
          role="status"
          data-testid="notes-import-result"
          className={`mt-1 rounded border p-1.5 ${result.ok && result.conflicts.length === 0 ? 'border-emerald-300 bg-emerald-50' : 'border-amber-300 bg-amber-50'}`}
        >
          {result.ok ? (
            <>
              <p>
                Imported {result.file}: {result.added} new, {result.updated} completed, {result.unchanged} unchanged
                {result.conflicts.length > 0 &&
                  `, ${result.conflicts.length} conflict${result.conflicts.length === 1 ? '' : 's'} (your notes kept until you choose)`}
                .
              </p>
              {result.conflicts.length > 0 && (
                <ConflictList
                  conflicts={result.conflicts}
                  resolved={result.resolved}
                  onResolve={(i, choice) => void store.getState().resolveImportConflict(i, choice)}
                />
              )}
            </>
          ) : (
            <p>
              Nothing imported from {result.file}: {result.error}.
            </p>
          )}
          <Button className="mt-1" onClick={() => store.getState().dismissImport()}>
            Dismiss
          </Button>
        </div>
      )}
    </div>
  );
}
