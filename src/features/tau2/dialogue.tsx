import { callName } from '../../core/contract';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { Span, Tau2CallView, Tau2MessageView, Tau2Place, Tau2SimView, VoiceDialogueEntry, VoiceSpeechTurn } from '../../core/contract';
import { Chip } from '../../ui/chip';
import { FoldedText } from '../../ui/folded-text';
import { MarkedText } from '../../ui/marked-text';
import { ReasonedText } from '../../ui/reasoned-text';
import { useApp } from '../../ui/store-context';
import { queryHits } from '../../ui/text';
import { safeLabel } from '../../ui/fold';
import { DrawingRest, rowCost, useProgressiveRows, whenDrawn } from '../../ui/progressive';

/** Who speaks, and how it looks. */
const ROLE: Record<string, { label: string; tone: string }> = {
  system: { label: 'system', tone: 'border-slate-200 bg-slate-50' },
  user: { label: 'user', tone: 'border-sky-200 bg-sky-50/60' },
  assistant: { label: 'agent', tone: 'border-indigo-200 bg-white' },
  tool: { label: 'tool', tone: 'border-amber-200 bg-amber-50/50' },
};

/** Who made a call: the agent, or (telecom) the user on their own device. */
const requestorLabel = (r: string | null): string => (r === 'user' ? 'user’s device' : r === 'assistant' ? 'agent' : (r ?? '—'));

export const callAnchor = (index: number): string => `tau2-call-${index}`;

/** Scrolls the dialogue to a call (blame, an action's match) and marks it for a moment. */
export function showCall(index: number): void {
  whenDrawn(callAnchor(index), (el) => {
    el.scrollIntoView({ block: 'center', behavior: 'smooth' });
    if (el instanceof HTMLElement) el.focus({ preventScroll: true });
  });
}

const placeName = (p: Tau2Place): string => `${p.db === 'user' ? 'device · ' : ''}${p.table}${p.key === null ? '' : `/${p.key}`}`;

/** Extra controls under a message (`c` null) or a call of it (the what-if's). */
export type Tau2RowTools = (m: Tau2MessageView, c: Tau2CallView | null) => ReactNode;

/** What a call is told by: the tool message that answers it (index), and the records it changed. */
interface CallExtras {
  readonly matchedBy: readonly string[];
  readonly answer: Tau2MessageView | null;
  readonly wrote: readonly Tau2Place[];
  /** The what-if's controls for the call. */
  readonly tools?: ReactNode;
  /** Show the recorded answer, nothing replayed (τ²'s data not here yet, or a dialogue shown without the judge's marks). */
  readonly recordedOnly?: boolean;
}

function CallCard({ c, extras }: { c: Tau2CallView; extras: CallExtras }) {
  const { matchedBy, answer, wrote, tools, recordedOnly } = extras;
  const recorded = recordedOnly === true && !c.retrieval;
  return (
    <div
      id={callAnchor(c.index)}
      tabIndex={-1}
      data-testid="tau2-call"
      data-call-index={c.index}
      data-requestor={c.requestor}
      className="mt-1.5 rounded border border-slate-200 bg-slate-50 px-2 py-1 text-xs outline-none focus:ring-2 focus:ring-indigo-400"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <span className="font-mono text-[10px] text-slate-600">{callName(c.index)}</span>
        <span className="font-mono font-semibold text-slate-900">{safeLabel(c.name, 120)}</span>
        <Chip
          shape="inset"
          tone={c.requestor === 'user' ? 'bg-sky-100 text-sky-900 ring-sky-300' : 'bg-indigo-50 text-indigo-800 ring-indigo-200'}
          title="who made the call"
        >
          {requestorLabel(c.requestor)}
        </Chip>
        {c.mutating && (
          <Chip shape="inset" tone="bg-rose-50 text-rose-800 ring-rose-200" title="a tool that writes (τ²’s evaluator replays it for the DB check)">
            writes
          </Chip>
        )}
        {c.retrieval && (
          <Chip shape="inset" tone="bg-teal-50 text-teal-800 ring-teal-200" title="a knowledge-base search: never replayed, its recorded output stands">
            retrieval
          </Chip>
        )}
        {!c.known && (
          <Chip shape="inset" tone="bg-amber-100 text-amber-900 ring-amber-300" title="not a tool of this domain">
            unknown tool
          </Chip>
        )}
        {matchedBy.map((a) => (
          <Chip key={a} shape="inset" tone="bg-emerald-50 text-emerald-800 ring-emerald-200" title="this call matched a reference action">
            matches {safeLabel(a, 60)}
          </Chip>
        ))}
      </div>
      <div className="mt-0.5 font-mono text-[11px] break-all text-slate-700">
        <FoldedText text={c.arguments} limit={4000} />
      </div>
      {wrote.length > 0 && (
        <div className="mt-0.5 text-[10px] text-amber-900" data-testid="tau2-call-wrote">
          changed {wrote.map((p) => safeLabel(placeName(p), 120)).join(', ')}
        </div>
      )}
      <div className="mt-1 border-t border-slate-200 pt-1 text-[10px] text-slate-600" data-testid="tau2-call-answer">
        {answer === null
          ? 'no tool message answers it'
          : `answered by tool message #${answer.index}${answer.error ? ' (an error)' : ''}${
              c.output !== null || recorded
                ? ''
                : c.retrieval
                  ? ': a retrieval call, never replayed (the recorded answer stands; see Retrieved)'
                  : ': not replayed (not a tool of this domain)'
            }`}
      </div>
      {recorded && c.recordedOutput !== null && (
        <div data-testid="tau2-call-recorded">
          <span className="text-[10px] text-slate-600">recorded output</span>
          <div className={`font-mono text-[11px] break-all ${answer?.error ? 'text-rose-800' : 'text-slate-700'}`}>
            <FoldedText text={c.recordedOutput} limit={4000} />
          </div>
        </div>
      )}
      {c.output !== null && !recorded && (
        <div>
          <span className="text-[10px] text-slate-600">
            replayed output{c.error ? ' (error)' : ''}
            {c.matchesRecorded === true && ' · same as recorded'}
            {c.docstring === 'recorded' && ' · its tool descriptions are τ²’s docstrings, not carried here: the rest agrees, so the recorded answer stands'}
            {c.docstring === 'differs' && ' · its tool descriptions are τ²’s docstrings, not carried here'}
          </span>
          {c.whatIf === 'changed' && (
            <span className="ml-1 rounded bg-amber-100 px-1 text-[10px] font-semibold text-amber-900" data-testid="tau2-output-changed">
              changed by the what-if
            </span>
          )}
          {c.matchesRecorded === false && (
            <span className="ml-1 rounded bg-violet-100 px-1 text-[10px] font-semibold text-violet-800" data-testid="tau2-output-differs">
              differs from the recorded output
            </span>
          )}
          <div className={`font-mono text-[11px] break-all ${c.error ? 'text-rose-800' : 'text-slate-700'}`}>
            <FoldedText text={c.output} limit={4000} />
          </div>
          {c.matchesRecorded === false && c.recordedOutput !== null && (
            <div className="mt-1 font-mono text-[11px] break-all text-slate-600">
              <span className="font-sans text-[10px]">recorded: </span>
              <FoldedText text={c.recordedOutput} limit={4000} />
            </div>
          )}
        </div>
      )}
      {tools}
    </div>
  );
}

function Calls({ m, extras }: { m: Tau2MessageView; extras: (c: Tau2CallView) => CallExtras }) {
  if (m.calls.length === 0) return null;
  if (m.calls.length === 1) return <CallCard c={m.calls[0]!} extras={extras(m.calls[0]!)} />;
  const answers = m.calls.map((c) => extras(c).answer?.index).filter((x) => x !== undefined);
  return (
    <div
      role="group"
      aria-label={`${m.calls.length} parallel calls`}
      data-testid="tau2-call-group"
      data-calls={m.calls.length}
      className="mt-1.5 rounded border border-dashed border-indigo-300 bg-indigo-50/40 p-1.5"
    >
      <div className="text-[11px] font-medium text-indigo-900">
        {m.calls.length} parallel calls, replayed in order
        {answers.length > 0 && `; answered by tool messages #${answers[0]}–#${answers[answers.length - 1]}`}
      </div>
      {m.calls.map((c) => (
        <CallCard key={c.index} c={c} extras={extras(c)} />
      ))}
    </div>
  );
}

/**
 * A message's text as the episode screen shows one: Markdown (never raw HTML), reasoning folded, the communicated info
 * and the run's search hits marked.
 */
function Said({ text, span, markdown }: { text: string; span: Span | null; markdown: boolean }) {
  const query = useApp((s) => s.query);
  return <ReasonedText text={text} span={span} label="communicated info" hits={queryHits(text, query)} current={-1} markdown={markdown} />;
}

/** What a turn of speech is, for a reader and a screen reader. */
const SPEECH_NOTE = 'Speech taken from the ticks, merged as τ²’s communicate check merges chunks: not a message of the history τ² replays';

/** A turn of a voice simulation's speech (from its ticks): who, when (ticks and seconds), the words with the search's hits marked. */
function Speech({ turn, current }: { turn: VoiceSpeechTurn; current: boolean }) {
  const query = useApp((s) => s.query);
  const who = turn.speaker === 'agent' ? 'agent' : 'user';
  return (
    <li
      className={`rounded-md border border-dashed px-2.5 py-1 text-sm ${who === 'agent' ? 'border-indigo-300 bg-indigo-50/30' : 'border-sky-300 bg-sky-50/40'} ${
        current ? 'ring-2 ring-amber-500' : ''
      }`}
      data-testid="tau2-speech"
      data-speaker={who}
      data-start={turn.start}
      data-end={turn.end}
      aria-current={current ? 'true' : undefined}
    >
      <div className="flex flex-wrap items-center gap-2 text-[11px] text-slate-600">
        <span className="font-semibold text-slate-700 uppercase">{who} · speech</span>
        <span className="tabular-nums">
          {turn.end - turn.start === 1 ? `tick ${turn.start}` : `ticks ${turn.start}–${turn.end - 1}`} · {turn.startSec.toFixed(1)}–{turn.endSec.toFixed(1)} s
        </span>
        <Chip shape="inset" tone="bg-white text-slate-700 ring-slate-300" title={SPEECH_NOTE}>
          from the ticks
        </Chip>
      </div>
      <div className="mt-0.5 break-words whitespace-pre-wrap text-slate-900">
        <MarkedText text={turn.text} span={null} hits={queryHits(turn.text, query)} current={-1} />
      </div>
    </li>
  );
}

function Message(props: {
  m: Tau2MessageView;
  span: Span | null;
  extras: (c: Tau2CallView) => CallExtras;
  selected: boolean;
  onSelect: (index: number) => void;
  tools?: Tau2RowTools | undefined;
}) {
  const { m, span, extras, selected, onSelect, tools } = props;
  const role = ROLE[m.role] ?? { label: m.role, tone: 'border-slate-200 bg-white' };
  // A tool message is shown with the call it answers; one that answers none stands alone.
  if (m.role === 'tool')
    return (
      <li className="pl-6 text-[11px] text-slate-600" data-testid="tau2-message" data-role="tool" data-index={m.index}>
        ↳ tool message {m.index}: answers no call of the dialogue ({requestorLabel(m.requestor)}){m.error ? ', an error' : ''}
      </li>
    );
  return (
    <li
      className={`rounded-md border px-2.5 py-1.5 text-sm ${role.tone} ${selected ? 'ring-2 ring-sky-600' : ''}`}
      data-testid="tau2-message"
      data-role={m.role}
      data-index={m.index}
      data-selected={selected}
      id={`tau2-message-${m.index}`}
    >
      <div className="flex items-center gap-2 text-[11px] text-slate-600">
        <span className="font-semibold text-slate-700 uppercase">{role.label}</span>
        <button
          type="button"
          className="rounded px-0.5 tabular-nums hover:bg-slate-200 focus:ring-2 focus:ring-sky-600 focus:outline-none"
          aria-pressed={selected}
          title="Select this message: the state panel shows the DBs after it"
          onClick={() => onSelect(m.index)}
        >
          #{m.index}
        </button>
        {m.calls.length > 1 && <span>{m.calls.length} parallel calls</span>}
      </div>
      {m.content !== null && m.content !== '' && (
        <div className="mt-0.5 break-words whitespace-pre-wrap text-slate-900">
          <Said text={m.content} span={span} markdown={m.role !== 'system'} />
        </div>
      )}
      {tools?.(m, null)}
      <Calls m={m} extras={(c) => ({ ...extras(c), tools: tools?.(m, c) })} />
    </li>
  );
}

/** The characters an entry of the dialogue shows (its cost to draw): a turn's words, a message's text and its calls. */
function entryChars(x: VoiceDialogueEntry, byIndex: ReadonlyMap<number, Tau2MessageView>): number {
  if (x.kind === 'speech') return x.turn.text.length;
  const m = byIndex.get(x.index);
  if (!m) return 0;
  return (m.content?.length ?? 0) + m.calls.reduce((n, c) => n + c.arguments.length + (c.output?.length ?? 0) + (c.recordedOutput?.length ?? 0), 0);
}

/**
 * The messages by role, each call with its requestor, arguments, replayed output, the tool message
 * that answers it and the records it changed; parallel calls as one group; communicated infos marked.
 * The selected message (the step) is ringed and kept in view when it moves.
 */
export function Tau2Dialogue(props: {
  view: Tau2SimView;
  message: number;
  onSelect: (index: number) => void;
  tools?: Tau2RowTools | undefined;
  /** A voice simulation's tick cursor: the turn of speech it falls in is ringed. */
  tick?: number | null;
  /**
   * The dialogue alone, as the agent and the user saw it — recorded answers, none of the judge's marks (no
   * communicated info, no matched action, no record changed): teaching mode's dialogue, shown before the verdict is.
   */
  blind?: boolean;
}) {
  const { view, message, onSelect, tools, tick = null, blind = false } = props;
  const spans = new Map<number, Span>();
  const matches = new Map<number, string[]>();
  const wrote = new Map<number, Tau2Place[]>();
  if (!blind) {
    for (const c of view.communicate ?? []) if (c.messageIndex !== null && c.span !== null && !spans.has(c.messageIndex)) spans.set(c.messageIndex, c.span);
    for (const a of view.actions ?? []) if (a.matchedCall !== null) matches.set(a.matchedCall, [...(matches.get(a.matchedCall) ?? []), a.actionId || a.name]);
    for (const w of view.writes) wrote.set(w.call, [...(wrote.get(w.call) ?? []), w]);
  }
  const answers = new Map<number, Tau2MessageView>();
  for (const m of view.messages) if (m.answers !== null) answers.set(m.answers, m);
  const calls = new Set(view.messages.flatMap((m) => m.calls.map((c) => c.index)));
  const byIndex = useMemo(() => new Map(view.messages.map((m) => [m.index, m])), [view.messages]);
  // A voice simulation: its speech between the history's messages, in tick order; else the messages alone.
  const entries = useMemo<readonly VoiceDialogueEntry[]>(
    () => view.voice?.dialogue ?? view.messages.map((m) => ({ kind: 'message', index: m.index })),
    [view.voice, view.messages],
  );
  // Drawn a slice at a time (src/ui/progressive.tsx), through the selected message and the tick cursor's turn at once.
  const costs = useMemo(() => entries.map((x) => rowCost(entryChars(x, byIndex))), [entries, byIndex]);
  const need = useMemo(
    () =>
      Math.max(
        entries.findIndex((x) => x.kind === 'message' && x.index === message),
        tick === null ? -1 : entries.findIndex((x) => x.kind === 'speech' && tick >= x.turn.start && tick < x.turn.end),
      ),
    [entries, message, tick],
  );
  const shown = useProgressiveRows(costs, need, view.messages);
  const extras = (c: Tau2CallView): CallExtras => ({
    matchedBy: matches.get(c.index) ?? [],
    answer: answers.get(c.index) ?? null,
    wrote: wrote.get(c.index) ?? [],
    recordedOnly: blind || view.recordedOnly === true,
  });
  // Keeps the selected message in view when the step moves (not when the simulation opens).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById(`tau2-message-${message}`)?.scrollIntoView({ block: 'nearest' });
  }, [message]);
  // A voice simulation: the turn of speech the tick cursor is in stays in view as the cursor moves (keys, playback).
  const list = useRef<HTMLOListElement | null>(null);
  const firstTick = useRef(true);
  useEffect(() => {
    if (firstTick.current) {
      firstTick.current = false;
      return;
    }
    list.current?.querySelector('[data-testid="tau2-speech"][aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [tick]);
  const row = (x: VoiceDialogueEntry, i: number): ReactNode => {
    if (x.kind === 'speech') return <Speech key={`s${i}`} turn={x.turn} current={tick !== null && tick >= x.turn.start && tick < x.turn.end} />;
    const m = byIndex.get(x.index);
    if (!m || (m.role === 'tool' && m.answers !== null && calls.has(m.answers))) return null;
    return <Message key={m.index} m={m} span={spans.get(m.index) ?? null} extras={extras} selected={m.index === message} onSelect={onSelect} tools={tools} />;
  };
  return (
    <>
      {view.voice && (
        <p className="px-3 pt-2 text-[11px] text-slate-600" data-testid="tau2-speech-note">
          Full duplex: the dashed turns are speech {SPEECH_NOTE.slice('Speech '.length)}; the numbered messages are that history (its tool calls and results).
        </p>
      )}
      <ol ref={list} className="flex flex-col gap-1.5 p-2" aria-label={view.voice ? 'Speech and messages' : 'Messages'} data-testid="tau2-dialogue">
        {entries.slice(0, shown).map(row)}
        {shown < entries.length && <DrawingRest left={entries.length - shown} />}
      </ol>
    </>
  );
}
