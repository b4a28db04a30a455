import { tau2Of } from '../../store/tau2/opened';
import { useMemo, useState, type ReactNode } from 'react';
import {
  formatReward,
  tau2ToolCatalog,
  type StepEdit,
  type Tau2CallView,
  type Tau2CheckChange,
  type Tau2MessageView,
  type Tau2SimView,
  type Tau2ToolChoice,
  type Tau2WhatIfView,
  tau2WhatIfOf,
  callName,
} from '../../core/contract';
import { Button } from '../../ui/button';
import { Chip } from '../../ui/chip';
import { EditList } from '../../ui/edit-list';
import { safeLabel } from '../../ui/fold';
import { useApp } from '../../ui/store-context';

/**
 * What-if for a τ² simulation (issue #18 item 4): drop a call, edit its arguments, insert a call
 * (the agent's, or in telecom one on the user's device) before it, edit an assistant message's text;
 * the worker judges the edited simulation again as τ² would and the screen shows it. The edits
 * address the recorded messages; NL assertions stay as recorded (an LLM judged them).
 */

const AREA = 'block w-full rounded border border-violet-300 bg-white p-1.5 font-mono text-[11px] text-slate-900';

const WHO: Record<string, string> = { assistant: 'agent', user: 'user’s device' };

/** The what-if of the simulation on screen (null: none), its answer narrowed to τ²'s. */
export function useTau2WhatIf() {
  const w = useApp((s) => (s.whatIf !== null && s.whatIf.run === s.runs.a.id && s.whatIf.index === s.selected ? s.whatIf : null));
  return w === null ? null : { ...w, view: tau2WhatIfOf(w.view) };
}

/**
 * What the simulation screen shows: the edited simulation once a what-if is judged (else the recorded
 * one), and the what-if controls for each row of its dialogue.
 */
export function useTau2Shown(recorded: Tau2SimView | null) {
  const w = useTau2WhatIf();
  const edited = w?.view ?? null;
  const origin = edited?.origin ?? null;
  const tools = useMemo(() => (m: Tau2MessageView, c: Tau2CallView | null) => <Tau2EditTools m={m} c={c} origin={origin} />, [origin]);
  return { view: edited?.view ?? recorded, tools };
}

/** Where a shown message and call sit among the recorded ones (what an edit names); null: inserted by the what-if. */
function recordedPlace(
  origin: Tau2WhatIfView['origin'] | null,
  m: Tau2MessageView,
  c: Tau2CallView | null,
): { messageIndex: number; callIndex?: number } | null {
  const k = c === null ? -1 : m.calls.indexOf(c);
  if (origin === null) return { messageIndex: m.index, ...(c !== null && { callIndex: k }) };
  const o = origin[m.index];
  if (!o || o.original === null) return null;
  if (c === null) return { messageIndex: o.original };
  const call = o.calls[k];
  return call === null || call === undefined ? null : { messageIndex: o.original, callIndex: call };
}

/** A JSON object with the tool's parameters, the required ones first. */
const template = (t: Tau2ToolChoice | undefined): string =>
  t === undefined || t.params.length === 0 ? '{}' : `{\n${t.params.map((p) => `  ${JSON.stringify(p.name)}: ${p.required ? '""' : 'null'}`).join(',\n')}\n}`;

/** The edits without any of the same kind on the same recorded message and call (an edit replaces the one before it). */
const replacing = (edits: readonly StepEdit[], e: StepEdit): StepEdit[] => [
  ...edits.filter(
    (x) => x.insert || x.messageIndex !== e.messageIndex || x.callIndex !== e.callIndex || (x.content !== undefined) !== (e.content !== undefined),
  ),
  e,
];

/** One edit in words, naming the recorded message and call. */
export function describeTau2Edit(e: StepEdit, recorded: Tau2SimView): string {
  const m = recorded.messages[e.messageIndex];
  const call = e.callIndex === undefined ? null : m?.calls[e.callIndex];
  const at = call ? `${callName(call.index)} (${safeLabel(call.name, 60)}, message #${e.messageIndex})` : `message #${e.messageIndex}`;
  const where = call ? `before ${callName(call.index)}` : m ? `before ${at}` : 'at the end';
  if (e.insert) return `insert ${safeLabel(e.name ?? '?', 60)}${e.requestor === 'user' ? ' on the user’s device' : ''} ${where}`;
  if (e.remove) return `drop ${at}`;
  if (e.content !== undefined) return `new text for ${at}`;
  return `new arguments for ${at}`;
}

/** A check that changed, in words: "DB now matches", "action 2_3 (send_certificate) now met". */
function changeText(c: Tau2CheckChange): string {
  if (c.component === 'DB') return c.after ? 'DB now matches' : c.before ? 'DB no longer matches' : 'DB differs';
  const kind = { ENV_ASSERTION: 'env assertion', ACTION: 'action', COMMUNICATE: 'communicate', NL_ASSERTION: 'NL assertion', DB: 'DB' }[c.component];
  const state = (v: boolean | null): string => (v === null ? 'not run' : v ? 'met' : 'not met');
  return `${kind} ${safeLabel(c.what, 80)}: ${state(c.before)} → ${state(c.after)}${c.counts ? '' : ' (not in the reward basis)'}`;
}

/**
 * Above the simulation while a what-if is shown: its edits (each undoable), the reward before → after,
 * the checks that changed, what is kept as recorded, and a reset.
 */
export function Tau2WhatIfBanner({ recorded }: { recorded: Tau2SimView }) {
  const w = useTau2WhatIf();
  const run = useApp((s) => s.runWhatIf);
  const clear = useApp((s) => s.clearWhatIf);
  const solo = useApp((s) => tau2Of(s.runs.a)?.solo ?? false);
  const shown = w?.view?.view ?? recorded;
  // The reference actions no call matches (in the simulation shown): each one click away, inserted at the end.
  const missing = (shown.actions ?? []).filter((a) => !a.match);
  const insertMissing = missing.length > 0 && !shown.premature && (
    <p className="flex flex-wrap items-center gap-1 text-[11px]" data-testid="tau2-insert-missing">
      <span>What if the simulation ended with a missing reference action:</span>
      {missing.map((a, i) => (
        <Button
          key={i}
          variant="toolbar"
          onClick={() =>
            run([
              ...(w?.edits ?? []),
              {
                messageIndex: recorded.messages.length,
                insert: true,
                name: a.name,
                kwargsJson: a.arguments,
                ...(!solo && { requestor: a.requestor === 'user' ? 'user' : 'assistant' }),
              },
            ])
          }
        >
          insert {safeLabel(a.actionId || a.name, 40)} ({safeLabel(a.name, 60)})
        </Button>
      ))}
    </p>
  );
  if (w === null) return insertMissing ? <div className="border-b border-violet-200 bg-violet-50/60 px-3 py-1 text-violet-950">{insertMissing}</div> : null;
  const v = w.view;
  const changes = v ? v.checks.filter((c) => c.before !== c.after) : [];
  const db = v?.checks.find((c) => c.component === 'DB');
  return (
    <div role="status" className="space-y-1 border-b border-violet-200 bg-violet-50 px-3 py-1.5 text-xs text-violet-950" data-testid="tau2-what-if-banner">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <strong>
          what-if: {w.edits.length} edit{w.edits.length === 1 ? '' : 's'}
        </strong>
        {w.error !== null ? (
          <span className="text-red-800" data-testid="tau2-what-if-error">
            {safeLabel(w.error, 500)}
          </span>
        ) : v === null ? (
          <span>judging again…</span>
        ) : (
          <span data-testid="tau2-what-if-summary">
            — reward <span className="font-mono">{formatReward(v.rewardBefore)}</span> →{' '}
            <strong className="font-mono" data-testid="tau2-what-if-reward">
              {formatReward(v.rewardAfter)}
            </strong>
            {db &&
              `; ${db.before === db.after ? (db.after ? 'DB matches' : 'DB still differs') : changeText(db)}${db.counts ? '' : ' (not in the reward basis)'}`}
            {v.nlKept > 0 && `; NL assertions kept as recorded (judged by an LLM when the run was made)`}
          </span>
        )}
        <Button variant="toolbar" className="ml-auto" onClick={() => clear()} data-testid="tau2-what-if-reset">
          Reset: back to the recorded simulation
        </Button>
      </p>
      <EditList
        label="What-if edits"
        texts={w.edits.map((e) => describeTau2Edit(e, recorded))}
        onUndo={(i) => run(w.edits.filter((_, k) => k !== i))}
        itemTestId="tau2-what-if-edit"
      />
      {changes.length > 0 && (
        <ul className="list-inside list-disc" aria-label="Checks the edits changed" data-testid="tau2-what-if-changes">
          {changes.map((c, i) => (
            <li key={i}>{changeText(c)}</li>
          ))}
        </ul>
      )}
      {v && v.removed.length > 0 && <p className="text-[11px]">Dropped: {v.removed.map((r) => safeLabel(r.text, 60)).join(', ')}.</p>}
      {v && <p className="text-[11px] text-violet-900">{v.note}</p>}
      {insertMissing}
    </div>
  );
}

type Form = { kind: 'args' | 'text' | 'insert'; text: string; tool: string };

/** The open form of a row (arguments, text or an insert), its Apply and Cancel. */
function EditForm(props: { label: string; form: Form; setForm: (f: Form | null) => void; apply: () => void; applyLabel: string; children?: ReactNode }) {
  const { label, form, setForm, apply, applyLabel, children } = props;
  return (
    <div className="mt-1 space-y-1 rounded border border-violet-200 bg-violet-50/60 p-1.5 text-[11px] text-violet-950" data-testid="tau2-what-if-form">
      {children}
      <label className="block">
        <span className="font-medium">{label}</span>
        <textarea className={`${AREA} h-24`} spellCheck={false} value={form.text} onChange={(e) => setForm({ ...form, text: e.target.value })} />
      </label>
      <div className="flex gap-1.5">
        <Button variant="toolbar" onClick={apply} data-testid="tau2-what-if-apply">
          {applyLabel}
        </Button>
        <Button variant="toolbar" onClick={() => setForm(null)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

const LINK = 'rounded px-1 text-[11px] font-medium text-violet-800 underline decoration-violet-300 underline-offset-2 hover:bg-violet-100';

/**
 * The what-if controls of one message of the dialogue (its `call`, or the message itself when null):
 * drop / edit arguments / insert a call before on a call; edit text on an assistant message, insert a
 * call before any other message. What the what-if did to it is marked.
 */
export function Tau2EditTools({ m, c, origin }: { m: Tau2MessageView; c: Tau2CallView | null; origin: Tau2WhatIfView['origin'] | null }) {
  const w = useTau2WhatIf();
  const run = useApp((s) => s.runWhatIf);
  const tau2 = useApp((s) => tau2Of(s.runs.a));
  const tools = useMemo(() => (tau2 ? tau2ToolCatalog(tau2.domain, tau2.solo) : []), [tau2]);
  const [form, setForm] = useState<Form | null>(null);
  const place = recordedPlace(origin, m, c);
  const o = origin?.[m.index];
  const mark = c === null ? (o?.mark ?? null) : (o?.callMarks[m.calls.indexOf(c)] ?? null);
  const markChip = mark && (
    <Chip
      tone={mark === 'recorded' ? 'border-slate-300 bg-slate-50 text-slate-600' : 'border-violet-400 bg-violet-100 text-violet-900'}
      title={mark === 'recorded' ? 'as recorded in the file: τ²’s user simulator is not re-run in a what-if' : 'changed by the what-if'}
    >
      {mark === 'recorded' ? 'recorded (not re-simulated)' : `${mark} (what-if)`}
    </Chip>
  );
  if (place === null || m.role === 'tool' || m.role === 'system') return markChip ? <div className="mt-1">{markChip}</div> : null;
  // Edits name the recorded messages: a message moved by an insert or a drop says where it was.
  const moved = c === null && place.messageIndex !== m.index && <span className="text-[10px] text-slate-600">recorded as #{place.messageIndex}</span>;
  const edits = w?.edits ?? [];
  // A call inserted into this message is made by whoever speaks in it; before a message, by whoever has the tool.
  const choices = c === null ? tools : tools.filter((t) => t.requestor === m.role);
  const apply = (e: StepEdit | null, all?: StepEdit[]): void => {
    run(all ?? replacing(edits, e!));
    setForm(null);
  };
  const chooseTool = (name: string): void => setForm({ kind: 'insert', tool: name, text: template(tools.find((t) => t.name === name)) });
  const insert = (): void => {
    const t = choices.find((x) => x.name === form!.tool);
    if (!t) return;
    apply(null, [...edits, { ...place, insert: true, name: t.name, kwargsJson: form!.text, ...(c === null && { requestor: t.requestor }) }]);
  };
  return (
    <div className="mt-1" data-testid={c === null ? 'tau2-message-tools' : 'tau2-call-tools'}>
      <div className="flex flex-wrap items-center gap-x-1 text-violet-800">
        {markChip}
        {moved}
        <span className="text-[10px] text-slate-600">what if:</span>
        {c !== null && (
          <>
            <button type="button" className={LINK} onClick={() => apply({ ...place, remove: true })} data-testid="tau2-drop-call">
              drop
            </button>
            <button type="button" className={LINK} onClick={() => setForm({ kind: 'args', tool: '', text: c.arguments })} data-testid="tau2-edit-args">
              edit arguments
            </button>
          </>
        )}
        {c === null && m.role === 'assistant' && (
          <button type="button" className={LINK} onClick={() => setForm({ kind: 'text', tool: '', text: m.content ?? '' })} data-testid="tau2-edit-text">
            edit text
          </button>
        )}
        <button type="button" className={LINK} onClick={() => setForm({ kind: 'insert', tool: '', text: '{}' })} data-testid="tau2-insert-call">
          insert a call before
        </button>
      </div>
      {form?.kind === 'args' && (
        <EditForm
          label={`Arguments of ${safeLabel(c?.name ?? '', 60)} (JSON)`}
          form={form}
          setForm={setForm}
          apply={() => apply({ ...place, kwargsJson: form.text })}
          applyLabel="Judge with these arguments"
        />
      )}
      {form?.kind === 'text' && (
        <EditForm
          label="Text of this agent message (communicate checks search it)"
          form={form}
          setForm={setForm}
          apply={() => apply({ ...place, content: form.text })}
          applyLabel="Judge with this text"
        />
      )}
      {form?.kind === 'insert' && (
        <EditForm label="Arguments (JSON)" form={form} setForm={setForm} apply={insert} applyLabel="Insert and judge">
          <label className="block">
            <span className="font-medium">Tool </span>
            <select
              className="rounded border border-violet-300 bg-white px-1 py-0.5"
              value={form.tool}
              onChange={(e) => chooseTool(e.target.value)}
              data-testid="tau2-insert-tool"
            >
              <option value="">choose a tool…</option>
              {choices.map((t) => (
                <option key={`${t.requestor}:${t.name}`} value={t.name}>
                  {t.name} ({WHO[t.requestor] ?? t.requestor}
                  {t.writes ? ', writes' : ''})
                </option>
              ))}
            </select>
          </label>
        </EditForm>
      )}
    </div>
  );
}
