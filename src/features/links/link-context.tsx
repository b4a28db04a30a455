import { benchmarkOf } from '../../core/contract';
import { useRef } from 'react';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { JsonFileInput } from '../../ui/json-file-input';

const NOTES_SAID = {
  none: null,
  saving: 'Keeping the note it carries in this browser…',
  added: 'The note and label it carries are now kept in this browser with your notes.',
  same: 'This browser already has the same note for it.',
  conflict: 'This browser has a different note for it: yours was kept; the link’s is shown below.',
  error: null,
} as const;

/** Where an episode opened from a shared link comes from, what happened to its notes; or the file a link asks for. */
export function LinkContext() {
  const shared = useApp((s) => (s.runs.a.source?.embedded !== undefined ? s.sharedFrom : null));
  const request = useApp((s) => s.fileRequest);
  const noun = useApp((s) => benchmarkOf(s.runs.a.benchmark?.kind).noun);
  if (request) return <FileRequest name={request.name} episode={request.place?.episode ?? null} step={request.place?.step ?? null} />;
  if (!shared) return null;
  const said = shared.error ?? NOTES_SAID[shared.notes];
  return (
    <div className="border-b border-sky-200 bg-sky-50 px-3 py-1.5 text-xs text-sky-950" role="note" data-testid="shared-from">
      {shared.file !== null && (
        <p className="break-words">
          Shared from <strong data-testid="shared-file">{safeLabel(shared.file, 300)}</strong>
          {shared.index !== null && (
            <>
              , {noun} <strong data-testid="shared-index">#{shared.index}</strong>
            </>
          )}
          <span className="hidden text-sky-800 sm:inline">: the {noun} travels inside the link; nothing was fetched.</span>
        </p>
      )}
      {shared.note && (
        <p className="mt-0.5 break-words whitespace-pre-wrap" data-testid="shared-note">
          <span className="font-semibold">Note{shared.note.label !== null ? ` (${safeLabel(shared.note.label, 60)})` : ''}:</span>{' '}
          {shared.note.text.trim() === '' ? '—' : safeLabel(shared.note.text, 2000)}
        </p>
      )}
      {said && (
        <p className={shared.notes === 'conflict' || shared.notes === 'error' ? 'font-medium text-amber-900' : ''} data-testid="shared-notes">
          {said}
        </p>
      )}
      {shared.conflicts.length > 0 && (
        <ul className="mt-1 space-y-1" data-testid="shared-conflicts">
          {shared.conflicts.map((c) => (
            <li key={c.field} className="rounded border border-amber-200 bg-white px-2 py-1 text-slate-800">
              <span className="font-medium">{c.field}</span> — yours: <q className="whitespace-pre-wrap break-words">{safeLabel(c.kept, 2000)}</q>; in the link:{' '}
              <q className="whitespace-pre-wrap break-words" data-testid="shared-conflict-imported">
                {safeLabel(c.imported, 2000)}
              </q>
            </li>
          ))}
        </ul>
      )}
      {shared.problems.map((p) => (
        <p key={p} className="text-amber-900">
          Part of the link could not be used: {p}.
        </p>
      ))}
    </div>
  );
}

/** A link to a local file this browser does not keep: the recipient opens it, then the app goes to the place. */
function FileRequest({ name, episode, step }: { name: string; episode: number | null; step: number | null }) {
  const store = useAppStore();
  const input = useRef<HTMLInputElement>(null);
  const where = episode === null ? '' : `episode #${episode}${step === null ? '' : `, step ${step + 1}`}`;
  return (
    <div
      className="flex flex-wrap items-center gap-2 border-b border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950"
      role="alert"
      data-testid="file-request"
    >
      <p className="min-w-[min(100%,18rem)] flex-1 break-words">
        This link points into the local file <strong data-testid="file-request-name">{safeLabel(name, 300)}</strong>
        {where && ` at ${where}`}. A link cannot carry a local file: open it yourself and the app goes there.
      </p>
      <Button variant="primary" className="max-w-full truncate" onClick={() => input.current?.click()}>
        Open {safeLabel(name, 40)}…
      </Button>
      <JsonFileInput ref={input} testId="file-request-input" onFile={(f) => store.getState().openFile(f)} />
    </div>
  );
}
