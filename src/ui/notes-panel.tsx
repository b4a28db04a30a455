import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { NOTE_LABELS, notesFor, type EpisodeNotes, type NoteLabel } from '../core/contract';
import { Button } from './button';
import { FOCUS_FIELD } from './focus';
import { useApp, useAppStore } from './store-context';

const fieldLook = `rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-800 ${FOCUS_FIELD}`;
const field = `w-full ${fieldLook}`;

/**
 * A text note saved shortly after typing stops and when the field is left; `onSave` resolves
 * once the note is stored, and only then does the status say "saved".
 */
function NoteField({
  id,
  label,
  value,
  onSave,
  testId,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onSave: (text: string) => void;
  testId: string;
  disabled: boolean;
}) {
  const [text, setText] = useState(value);
  const dirty = useRef(false);
  const latest = useRef({ text, onSave });
  useEffect(() => {
    latest.current = { text, onSave };
  });
  const flush = useCallback(() => {
    if (!dirty.current) return;
    dirty.current = false;
    latest.current.onSave(latest.current.text);
  }, []);
  useEffect(() => {
    if (!dirty.current) setText(value);
  }, [value]);
  useEffect(() => {
    if (!dirty.current) return;
    const t = setTimeout(flush, 400);
    return () => clearTimeout(t);
  }, [text, flush]);
  // Leaving the field's episode or step saves what was typed.
  useEffect(() => flush, [flush]);
  return (
    <div>
      <label htmlFor={id} className="text-[11px] font-medium text-slate-600">
        {label}
      </label>
      <textarea
        id={id}
        rows={2}
        value={text}
        disabled={disabled}
        data-testid={testId}
        className={field}
        onChange={(e) => {
          dirty.current = true;
          setText(e.currentTarget.value);
        }}
        onBlur={flush}
      />
    </div>
  );
}

/** What a notes panel shows besides the label and the note on the whole: which benchmark, what it calls its items and steps. */
export interface NotesPanelProps {
  /** `τ-bench`, `τ²-bench`: whose maintainers the issue text is for. */
  readonly benchmark: string;
  /** `episode`, `simulation`. */
  readonly noun: string;
  /** The steps a note can be on (0: no step notes). */
  readonly stepCount: number;
  readonly step: number;
  /** The issue text of a task-bug label, or null while what it needs is not there. */
  readonly bugText: (notes: EpisodeNotes) => string | null;
}

/**
 * Label, note and the note on the current step of the selected episode or τ² simulation (kept in this
 * browser, by its fingerprint): one panel for both benchmarks, the benchmark a parameter.
 */
export function NotesPanel({ benchmark, noun, stepCount, step, bugText }: NotesPanelProps) {
  const store = useAppStore();
  const index = useApp((s) => s.selected);
  const header = useApp((s) => (s.selected === null ? undefined : s.runs.a.headers[s.selected]));
  const notes = useApp((s) => notesFor(s.notes, header) ?? null);
  const save = useApp((s) => (header && s.noteSave?.fingerprint === header.fingerprint ? s.noteSave : null));
  const ready = useApp((s) => s.notesReady);
  const storageError = useApp((s) => s.notesError);
  const [showBug, setShowBug] = useState(false);
  const ids = { label: useId(), note: useId(), step: useId() };
  if (index === null || !header) return null;
  const edit = store.getState().editNotes;
  // A τ² simulation whose fingerprint (the key its notes are kept under) is not in yet: its notes are not known, and
  // the fields wait (disabled) rather than take text that could not be kept.
  const keying = header.fingerprint === null;
  const bug = showBug && notes?.label === 'task or annotation bug' ? bugText(notes) : null;
  return (
    <section aria-label="Notes" className="border-b border-slate-200 bg-amber-50/40 px-3 py-2" data-testid="episode-notes">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={ids.label} className="text-[11px] font-medium text-slate-600">
          Label
        </label>
        <select
          id={ids.label}
          data-testid="note-label"
          value={notes?.label ?? ''}
          disabled={keying}
          onChange={(e) => void edit(index, { label: e.currentTarget.value === '' ? null : (e.currentTarget.value as NoteLabel) })}
          className={`w-auto ${fieldLook}`}
        >
          <option value="">no label</option>
          {NOTE_LABELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
        <span className="text-[11px] text-slate-600" role="status" data-testid="note-status">
          {!ready || keying
            ? 'loading notes…'
            : save?.state === 'saving'
              ? 'saving…'
              : save?.state === 'saved'
                ? 'saved in this browser'
                : save?.state === 'error'
                  ? `not saved: ${save.error ?? ''}`
                  : ''}
        </span>
        {storageError && <span className="text-[11px] text-red-700">{storageError}</span>}
        {notes?.label === 'task or annotation bug' && (
          <Button className="ml-auto" onClick={() => setShowBug((b) => !b)} data-testid="task-bug-toggle">
            {showBug ? 'Hide issue text' : `Issue text for ${benchmark}`}
          </Button>
        )}
      </div>
      <div className={`mt-1.5 grid gap-2 ${stepCount > 0 ? 'md:grid-cols-2' : ''}`}>
        <NoteField
          key={`${header.fingerprint}:episode`}
          id={ids.note}
          label={`Note on the ${noun}`}
          value={notes?.note ?? ''}
          testId="episode-note"
          disabled={keying}
          onSave={(note) => void edit(index, { note })}
        />
        {stepCount > 0 && (
          <NoteField
            key={`${header.fingerprint}:step:${step}`}
            id={ids.step}
            label={`Note on step ${step + 1}`}
            value={notes?.steps[String(step)] ?? ''}
            testId="step-note"
            disabled={keying}
            onSave={(text) => void edit(index, { step: { index: step, text } })}
          />
        )}
      </div>
      {bug !== null && (
        <div className="mt-2">
          <textarea
            readOnly
            value={bug}
            rows={12}
            className={`${field} font-mono`}
            data-testid="task-bug-text"
            aria-label={`Issue text for ${benchmark}'s maintainers`}
          />
          <Button onClick={() => void navigator.clipboard?.writeText(bug)}>Copy issue text</Button>
        </div>
      )}
    </section>
  );
}
