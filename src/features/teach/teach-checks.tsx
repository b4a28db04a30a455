import type { TeachComponent, TeachMarks } from '../../core/contract';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';

/** Where a check's evidence is in the dialogue (a message, a call): the screen brings it into view. */
export type ShowEvidence = (at: { readonly message: number | null; readonly call: number | null }) => void;

const YES = 'met';
const NO = 'not met';

const said = (v: boolean | null): string => (v === null ? 'not marked' : v ? YES : NO);

/** Two radio buttons, met / not met (arrow keys move between them, as for any radio group). */
function MarkChoice(props: { name: string; label: string; value: boolean | undefined; disabled: boolean; onMark: (met: boolean) => void; small?: boolean }) {
  const { name, label, value, disabled, onMark, small = false } = props;
  const option = (met: boolean) => (
    <label
      className={`inline-flex cursor-pointer items-center gap-1 rounded border px-1.5 py-0.5 ${
        value === met
          ? met
            ? 'border-emerald-400 bg-emerald-50 text-emerald-900'
            : 'border-rose-400 bg-rose-50 text-rose-900'
          : 'border-slate-300 bg-white text-slate-800'
      } ${disabled ? 'cursor-default' : ''}`}
    >
      <input
        type="radio"
        name={name}
        checked={value === met}
        disabled={disabled}
        onChange={() => onMark(met)}
        data-testid={`teach-mark-${met ? 'met' : 'not-met'}`}
      />
      {met ? YES : NO}
    </label>
  );
  return (
    <div role="radiogroup" aria-label={label} className={`flex shrink-0 gap-1.5 ${small ? 'text-[11px]' : 'text-xs font-medium'}`} data-testid="teach-mark">
      {option(true)}
      {option(false)}
    </div>
  );
}

/** After the reveal: the benchmark's answer beside the student's, marked when they differ, with its evidence. */
function Answer(props: {
  yours: boolean | undefined;
  theirs: boolean | null;
  evidence: string;
  at?: { readonly message: number | null; readonly call: number | null };
  proof?: readonly string[];
  show: ShowEvidence;
  judge: string;
  optional?: boolean;
}) {
  const { yours, theirs, evidence, at, proof = [], show, judge, optional = false } = props;
  const differs = yours === undefined ? !optional : yours !== theirs;
  return (
    <p
      className={`mt-1 rounded px-1.5 py-1 text-xs ${differs ? 'bg-amber-50 text-amber-950 ring-1 ring-amber-300' : 'bg-slate-50 text-slate-800'}`}
      data-testid="teach-answer"
      data-differs={differs}
    >
      {differs && (
        <strong className="mr-1 rounded bg-amber-200 px-1 text-[10px] text-amber-950 uppercase" data-testid="teach-differs">
          {yours === undefined ? 'not marked' : 'you differ'}
        </strong>
      )}
      You: <strong>{said(yours ?? null)}</strong> · {judge}: <strong data-testid="teach-theirs">{said(theirs)}</strong> — {safeLabel(evidence, 1500)}
      {at && (at.message !== null || at.call !== null) && (
        <>
          {' '}
          <Button variant="link" onClick={() => show(at)} className="text-xs">
            show in the dialogue
          </Button>
        </>
      )}
      {proof.length > 0 && (
        <span className="mt-0.5 block font-mono text-[11px] break-all" data-testid="teach-proof">
          {proof.map((p, k) => (
            <span key={k} className="block">
              {safeLabel(p, 800)}
            </span>
          ))}
        </span>
      )}
    </p>
  );
}

/**
 * One component of the reward as a question: what the benchmark checks, the checks inside it (each may be marked too), and the
 * student's mark; after the reveal, the benchmark's answer under each with its evidence.
 */
export function TeachComponentBox(props: {
  c: TeachComponent;
  marks: TeachMarks;
  revealed: boolean;
  onMark: (key: string, met: boolean) => void;
  show: ShowEvidence;
  judge: string;
}) {
  const { c, marks, revealed, onMark, show, judge } = props;
  const theirs = c.value === null ? null : c.value === 1;
  return (
    <fieldset className="rounded-md border border-slate-300 bg-white px-3 py-2" data-testid="teach-component" data-key={c.key}>
      <legend className="px-1 text-sm font-semibold text-slate-900">{c.name}</legend>
      <div className="flex flex-wrap items-start gap-2">
        <p className="min-w-[min(100%,16rem)] flex-1 text-xs text-slate-700">{c.asks}</p>
        <MarkChoice name={`teach-${c.key}`} label={`${c.name}: met or not`} value={marks[c.key]} disabled={revealed} onMark={(m) => onMark(c.key, m)} />
      </div>
      {c.context.length > 0 && (
        <details className="mt-1 text-xs text-slate-700">
          <summary className="cursor-pointer font-medium">The reference actions it replays ({c.context.length})</summary>
          <ol className="mt-0.5 list-decimal pl-5 font-mono text-[11px] break-all">
            {c.context.map((x, i) => (
              <li key={i}>{safeLabel(x, 600)}</li>
            ))}
          </ol>
        </details>
      )}
      {revealed && <Answer yours={marks[c.key]} theirs={theirs} evidence={c.evidence} at={c} proof={c.proof} show={show} judge={judge} />}
      {c.items.length > 0 && (
        <ol className="mt-1.5 flex flex-col gap-1" aria-label={`${c.name}: each check`}>
          {c.items.map((i) => (
            <li key={i.key} className="rounded border border-slate-200 px-2 py-1" data-testid="teach-item" data-key={i.key}>
              <div className="flex flex-wrap items-start gap-2">
                <p className="min-w-[min(100%,14rem)] flex-1 font-mono text-[11px] break-all text-slate-900">
                  {safeLabel(i.asks, 600)}
                  {i.detail !== null && <span className="block font-sans text-slate-600">{safeLabel(i.detail, 300)}</span>}
                </p>
                <MarkChoice
                  small
                  name={`teach-${i.key}`}
                  label={`${safeLabel(i.asks, 80)}: met or not`}
                  value={marks[i.key]}
                  disabled={revealed}
                  onMark={(m) => onMark(i.key, m)}
                />
              </div>
              {revealed && <Answer yours={marks[i.key]} theirs={i.met} evidence={i.evidence} at={i} show={show} judge={judge} optional />}
            </li>
          ))}
        </ol>
      )}
    </fieldset>
  );
}
