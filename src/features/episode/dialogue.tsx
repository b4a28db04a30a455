import { memo, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { EpisodeView, MessageView, Span, StepView, ToolCallView } from '../../core/contract';
import { MarkedText, PlainText } from '../../ui/marked-text';
import { ReasonedText } from '../../ui/reasoned-text';
import { scrollIntoBox } from './scroll';
import { clip } from '../../ui/fold';
import { differingSpans, plural } from '../../ui/text';
import { Button } from '../../ui/button';
import { Chip } from '../../ui/chip';
import { FOCUS_RING_SKY } from '../../ui/focus';
import { ScrollBox } from '../../ui/scroll-box';
import { DrawingRest, rowCost, useProgressiveRows } from '../../ui/progressive';
import { PRE, stepLabel } from './ui';

/** A span to highlight in the dialogue: in a respond step's text, or in a message's content. */
export interface Mark {
  readonly messageIndex: number;
  readonly target: 'respond' | 'content';
  readonly span: Span;
  readonly label: string;
}

/** Asks the dialogue to bring a message into view (a new nonce each time); `hit`: its current search hit rather than the message. */
export interface Reveal {
  readonly messageIndex: number;
  readonly nonce: number;
  readonly hit?: boolean;
}

/** The search hits of one message, by where they are shown. */
interface MessageHits {
  readonly content: readonly Span[];
  readonly respond: readonly Span[];
}

/** Where the current search hit is in its message: which text, which hit of it. */
interface CurrentHit {
  readonly target: Mark['target'];
  readonly at: number;
}

const NO_SPANS: readonly Span[] = [];
const NO_MARKS: readonly Mark[] = [];
const NO_HITS: MessageHits = { content: NO_SPANS, respond: NO_SPANS };

function groupHits(hits: readonly Mark[]): Map<number, MessageHits> {
  const out = new Map<number, { content: Span[]; respond: Span[] }>();
  for (const h of hits) {
    let g = out.get(h.messageIndex);
    if (!g) out.set(h.messageIndex, (g = { content: [], respond: [] }));
    g[h.target].push(h.span);
  }
  return out;
}

interface Row {
  readonly message: MessageView;
  readonly agentStep: StepView | null;
  readonly observed: StepView | null;
  /** The step this row belongs to (as the agent turn or its observation). */
  readonly stepOf: number | null;
}

/** Long text comes folded, with break opportunities in long runs (never `overflow-wrap: anywhere` on huge text). */
const WRAP = PRE;
/** Long text scrolls in its box (a ScrollBox: a named tab stop while it overflows). */
const LONG = 'max-h-72 overflow-auto';
/** Agent and user text: Markdown in a readable size (plain text that is not Markdown keeps its line breaks). */
const PROSE = 'whitespace-pre-wrap break-words font-sans text-sm leading-relaxed [&_[data-markdown]]:whitespace-normal';

/** `view`: an evaluated episode, or only its recorded messages (no steps yet) while its data loads. */
export function Dialogue(props: {
  view: Pick<EpisodeView, 'messages' | 'steps' | 'strategy'>;
  step: number;
  mark: Mark | null;
  reveal: Reveal | null;
  onSelect: (step: number) => void;
  /** Every search hit (all marked) and which one is current (-1: none). */
  hits?: readonly Mark[];
  hitAt?: number;
}) {
  const { view, step, mark, reveal, onSelect, hits = NO_MARKS, hitAt = -1 } = props;
  const byMessage = useMemo(() => groupHits(hits), [hits]);
  const currentHit = hits[hitAt] ?? null;
  const currentAt = useMemo<CurrentHit | null>(() => {
    if (!currentHit) return null;
    const g = byMessage.get(currentHit.messageIndex);
    return g ? { target: currentHit.target, at: g[currentHit.target].indexOf(currentHit.span) } : null;
  }, [byMessage, currentHit]);
  const listRef = useRef<HTMLOListElement>(null);
  const rows = useMemo<Row[]>(
    () =>
      view.messages.map((message) => {
        const agentStep = message.stepIndex === null ? null : (view.steps[message.stepIndex] ?? null);
        const observed = message.observationOf === null ? null : (view.steps[message.observationOf] ?? null);
        return { message, agentStep, observed, stepOf: message.stepIndex ?? message.observationOf };
      }),
    [view],
  );
  const current = view.steps[step];
  // Drawn a slice at a time (src/ui/progressive.tsx), the rows a step, a mark, a reveal or the current hit needs at once.
  const costs = useMemo(() => rows.map((r) => rowCost(rowChars(r))), [rows]);
  const positions = useMemo(() => new Map(rows.map((r, i) => [r.message.index, i])), [rows]);
  const need = Math.max(
    ...[current?.messageIndex, current?.observationIndex, mark?.messageIndex, reveal?.messageIndex, currentHit?.messageIndex].map((i) =>
      i === undefined || i === null ? -1 : (positions.get(i) ?? -1),
    ),
  );
  const shown = useProgressiveRows(costs, need, view.messages);

  useEffect(() => {
    const list = listRef.current;
    if (!list || !current) return;
    const at = (i: number | null): Element | null => (i === null ? null : list.querySelector(`[data-message-index="${i}"]`));
    scrollIntoBox(at(current.messageIndex), at(current.observationIndex));
  }, [current]);

  useEffect(() => {
    if (!reveal) return;
    const el = listRef.current?.querySelector(`[data-message-index="${reveal.messageIndex}"]`);
    const hit = reveal.hit ? el?.querySelector('[data-testid="search-hit"][data-current="true"]') : null;
    (hit ?? el)?.scrollIntoView({ block: 'center', behavior: 'auto' });
  }, [reveal]);

  return (
    <ol ref={listRef} data-scroll aria-label="Dialogue" className="h-full space-y-2 overflow-y-auto overscroll-contain p-2" data-testid="dialogue">
      {rows.slice(0, shown).map((r) => (
        <MessageRow
          key={r.message.index}
          row={r}
          strategy={view.strategy}
          selected={r.stepOf !== null && r.stepOf === step}
          mark={mark !== null && mark.messageIndex === r.message.index ? mark : null}
          hits={byMessage.get(r.message.index) ?? NO_HITS}
          current={currentHit !== null && currentHit.messageIndex === r.message.index ? currentAt : null}
          onSelect={onSelect}
        />
      ))}
      {shown < rows.length && <DrawingRest left={rows.length - shown} />}
    </ol>
  );
}

/** The characters a row shows (its cost to draw): its text, its calls' arguments, a respond's text. */
const rowChars = (r: Row): number =>
  (r.message.content?.length ?? 0) +
  r.message.toolCalls.reduce((n, c) => n + (c.argumentsPretty ?? c.arguments).length, 0) +
  (r.agentStep?.respondText?.length ?? 0) +
  (r.agentStep && r.agentStep.observationIndex === null ? r.agentStep.observation.length : 0);

const ROLE_STYLE: Readonly<Record<string, { label: string; box: string; tag: string }>> = {
  system: { label: 'System', box: 'border-slate-200 bg-slate-50', tag: 'bg-slate-200 text-slate-700' },
  user: { label: 'User', box: 'border-emerald-200 bg-white', tag: 'bg-emerald-100 text-emerald-800' },
  assistant: { label: 'Agent', box: 'border-indigo-200 bg-white', tag: 'bg-indigo-100 text-indigo-800' },
  tool: { label: 'Tool', box: 'border-amber-200 bg-amber-50/40', tag: 'bg-amber-100 text-amber-900' },
};
const OTHER_STYLE = { label: 'Other', box: 'border-slate-200 bg-white', tag: 'bg-slate-100 text-slate-700' };

const MessageRow = memo(function MessageRow(props: {
  row: Row;
  strategy: string;
  selected: boolean;
  mark: Mark | null;
  hits: MessageHits;
  current: CurrentHit | null;
  onSelect: (step: number) => void;
}) {
  const { row, strategy, selected, mark, hits, current, onSelect } = props;
  const { message, agentStep, observed, stepOf } = row;
  const isToolResult = message.role === 'tool' || (message.role === 'user' && observed !== null && !observed.isRespond);
  const style = isToolResult ? ROLE_STYLE.tool! : (ROLE_STYLE[message.role] ?? OTHER_STYLE);
  const select = (e: MouseEvent<HTMLLIElement>): void => {
    if (stepOf === null || selected) return;
    if ((e.target as HTMLElement).closest('button, a, summary')) return;
    if (typeof window !== 'undefined' && (window.getSelection()?.toString() ?? '') !== '') return;
    onSelect(stepOf);
  };
  return (
    <li
      data-message-index={message.index}
      data-step={stepOf ?? undefined}
      data-role={message.role}
      aria-current={selected ? 'step' : undefined}
      onClick={select}
      className={`rounded-md border px-3 py-2 ${style.box} ${
        selected ? 'ring-2 ring-sky-500 ring-offset-1' : stepOf !== null ? 'cursor-pointer hover:border-sky-300' : ''
      }`}
    >
      <div className="mb-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
        <span className={`rounded px-1.5 py-px text-[11px] font-semibold uppercase tracking-wide ${style.tag}`}>
          {isToolResult && message.role === 'user' ? 'Tool result' : style.label}
        </span>
        <span className="font-mono text-[11px]" title="message index in traj">
          #{message.index}
        </span>
        {agentStep && (
          <button
            type="button"
            onClick={() => onSelect(agentStep.index)}
            aria-pressed={selected}
            aria-label={`Select ${stepLabel(agentStep.index)}: ${clip(agentStep.action)}`}
            className={`rounded px-1.5 py-px font-mono text-[11px] font-semibold ${FOCUS_RING_SKY} ${
              selected ? 'bg-sky-700 text-white' : 'bg-sky-50 text-sky-800 ring-1 ring-sky-200 hover:bg-sky-100'
            }`}
          >
            {stepLabel(agentStep.index)} · {clip(agentStep.action)}
          </button>
        )}
        {observed && !agentStep && <span className="text-[11px]">observation of {stepLabel(observed.index)}</span>}
        {message.role === 'assistant' && message.stepIndex === null && (
          <Chip tone="border-slate-300 bg-slate-100 text-slate-600" title="τ-bench did not execute this message">
            not executed
          </Chip>
        )}
        {message.whatIf && (
          <Chip
            tone={message.whatIf === 'recorded' ? 'border-slate-300 bg-slate-50 text-slate-600' : 'border-violet-400 bg-violet-100 text-violet-900'}
            title={message.whatIf === 'recorded' ? 'as recorded in the file: the user simulator is not re-run in a what-if' : 'changed by the what-if replay'}
          >
            {message.whatIf === 'recorded' ? 'recorded (not re-simulated)' : `${message.whatIf} (what-if)`}
          </Chip>
        )}
        {agentStep?.unknownTool && <Chip tone="border-red-300 bg-red-50 text-red-800">unknown tool</Chip>}
        {agentStep?.exception && <Chip tone="border-red-300 bg-red-50 text-red-800">raised</Chip>}
        {agentStep && agentStep.changes.length > 0 && (
          <Chip tone="border-amber-300 bg-amber-50 text-amber-900">writes {plural(agentStep.changes.length, 'record')}</Chip>
        )}
        {agentStep?.done && <Chip tone="border-slate-400 bg-slate-800 text-white">ends episode</Chip>}
        {observed?.observationDiffers && (
          <Chip tone="border-orange-400 bg-orange-50 text-orange-900" title="the observation replayed by tau-inspect differs from the one recorded in the file">
            replay differs
          </Chip>
        )}
      </div>
      <MessageBody row={row} strategy={strategy} isToolResult={isToolResult} mark={mark} hits={hits} current={current} />
    </li>
  );
});

/** The search hits of one of a message's texts, and which of them is current (-1: none). */
interface TextHits {
  readonly hits: readonly Span[];
  readonly current: number;
}

function MessageBody(props: { row: Row; strategy: string; isToolResult: boolean; mark: Mark | null; hits: MessageHits; current: CurrentHit | null }) {
  const { row, strategy, isToolResult, mark, hits, current } = props;
  const { message, agentStep, observed } = row;
  const content = message.content ?? '';
  const contentMark = mark?.target === 'content' ? mark : null;
  const contentHits: TextHits = { hits: hits.content, current: current?.target === 'content' ? current.at : -1 };
  const respondHits: TextHits = { hits: hits.respond, current: current?.target === 'respond' ? current.at : -1 };
  const at = `message #${message.index}`;
  if (message.role === 'system') return <SystemPrompt text={content} />;
  if (isToolResult && observed) return <Observation content={content} step={observed} mark={contentMark} hits={contentHits} at={at} />;
  if (message.role !== 'assistant')
    return (
      <ScrollBox label={`${message.role === 'user' ? 'User' : 'Text of'} ${at}`} className={`${PROSE} ${LONG}`}>
        <MarkedText
          text={content}
          span={contentMark?.span ?? null}
          label={contentMark?.label ?? 'match'}
          hits={contentHits.hits}
          current={contentHits.current}
          markdown={message.role === 'user'}
        />
      </ScrollBox>
    );
  const respond = agentStep?.isRespond ? agentStep : null;
  const textBased = strategy !== 'tool-calling';
  return (
    <div className="space-y-1.5">
      {respond && (
        <RespondText text={respond.respondText ?? ''} mark={mark?.target === 'respond' ? mark : null} prominent={textBased} hits={respondHits} at={at} />
      )}
      {(!respond || textBased) && content !== '' && (
        <RawContent text={content} mark={contentMark} collapsed={respond !== null} beside={message.toolCalls.length > 0} hits={contentHits} at={at} />
      )}
      {message.toolCalls.map((c, i) => (
        <ToolCall key={i} call={c} skipped={i > 0 && message.stepIndex !== null} label={`Tool call ${i + 1} arguments, ${at}`} />
      ))}
      {agentStep && textBased && !respond && <ExecutedAction step={agentStep} at={at} />}
      {agentStep && agentStep.observationIndex === null && (
        <div className="rounded border border-dashed border-slate-300 p-2">
          <div className="mb-0.5 text-[11px] font-semibold text-slate-600">Replayed observation (the file has no message for it)</div>
          <ScrollBox as="pre" label={`Replayed observation, ${at}`} className={`${WRAP} ${LONG}`}>
            <PlainText text={agentStep.observation} />
          </ScrollBox>
        </div>
      )}
      {agentStep?.exception && (
        <div className="rounded border border-red-300 bg-red-50 px-2 py-1 text-xs text-red-900">
          <span className="font-semibold">Tool raised: </span>
          <span className="font-mono">
            <PlainText text={agentStep.exception} />
          </span>
        </div>
      )}
    </div>
  );
}

function SystemPrompt(props: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <Button aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide system prompt' : `Show system prompt (${props.text.length.toLocaleString('en-US')} characters)`}
      </Button>
      {open && (
        <ScrollBox as="pre" label="System prompt" className={`${WRAP} mt-1.5 max-h-96 overflow-auto text-slate-700`}>
          <PlainText text={props.text} />
        </ScrollBox>
      )}
    </div>
  );
}

function RespondText(props: { text: string; mark: Mark | null; prominent: boolean; hits: TextHits; at: string }) {
  const { text, mark, prominent, hits } = props;
  return (
    <div className={prominent ? 'rounded border-l-4 border-indigo-400 bg-indigo-50 px-2 py-1.5' : ''}>
      {prominent && <div className="mb-0.5 text-[11px] font-semibold uppercase tracking-wide text-indigo-700">Sent to the user (respond)</div>}
      <ScrollBox label={`Agent ${props.at}`} className={`${PROSE} text-slate-900 ${LONG}`}>
        <ReasonedText text={text} span={mark?.span ?? null} label={mark?.label ?? 'match'} hits={hits.hits} current={hits.current} markdown />
      </ScrollBox>
    </div>
  );
}

function RawContent(props: { text: string; mark: Mark | null; collapsed: boolean; beside: boolean; hits: TextHits; at: string }) {
  const [open, setOpen] = useState(!props.collapsed || props.mark !== null);
  const show = open || props.mark !== null || props.hits.current >= 0;
  const title = props.beside ? 'Text beside the tool call (not sent to the user)' : props.collapsed ? 'Model output (Thought / Action)' : null;
  return (
    <div>
      {props.collapsed ? (
        <Button aria-expanded={show} onClick={() => setOpen(!show)}>
          {show ? 'Hide model output' : 'Show model output (Thought / Action)'}
          {!show && props.hits.hits.length > 0 && ` · ${plural(props.hits.hits.length, 'search hit')}`}
        </Button>
      ) : (
        title && <div className="mb-0.5 text-[11px] font-semibold text-slate-600">{title}</div>
      )}
      {show && (
        <ScrollBox as="pre" label={`Model output, ${props.at}`} className={`${WRAP} ${LONG} ${props.collapsed ? 'mt-1 text-slate-600' : 'text-slate-800'}`}>
          <ReasonedText
            text={props.text}
            span={props.mark?.span ?? null}
            label={props.mark?.label ?? 'match'}
            hits={props.hits.hits}
            current={props.hits.current}
          />
        </ScrollBox>
      )}
    </div>
  );
}

function ToolCall(props: { call: ToolCallView; skipped: boolean; label: string }) {
  const { name, arguments: args, argumentsPretty: pretty } = props.call;
  return (
    <div className={`rounded border px-2 py-1 ${props.skipped ? 'border-dashed border-slate-300 opacity-70' : 'border-indigo-200 bg-indigo-50/50'}`}>
      <div className="flex flex-wrap items-baseline gap-2 text-xs">
        <span className="text-[11px] font-semibold uppercase tracking-wide text-indigo-700">Tool call</span>
        <code className="font-mono text-[13px] font-semibold text-slate-900">{clip(name)}</code>
        {props.skipped && <span className="text-[11px] text-slate-600">not executed: τ-bench runs only the first tool call of a message</span>}
        {pretty === null && <span className="text-[11px] text-red-700">arguments are not valid JSON</span>}
      </div>
      <ScrollBox as="pre" label={props.label} className={`${WRAP} ${LONG} text-slate-800`}>
        <PlainText text={pretty ?? args} />
      </ScrollBox>
    </div>
  );
}

function ExecutedAction(props: { step: StepView; at: string }) {
  return (
    <div className="rounded border border-indigo-200 bg-indigo-50/50 px-2 py-1">
      <div className="flex flex-wrap items-baseline gap-2 text-xs">
        <span className="text-[11px] font-semibold uppercase tracking-wide text-indigo-700">Action</span>
        <code className="font-mono text-[13px] font-semibold text-slate-900">{clip(props.step.action)}</code>
      </div>
      <ScrollBox as="pre" label={`Action arguments, ${props.at}`} className={`${WRAP} ${LONG} text-slate-800`}>
        <PlainText text={props.step.kwargs} />
      </ScrollBox>
    </div>
  );
}

function Observation(props: { content: string; step: StepView; mark: Mark | null; hits: TextHits; at: string }) {
  const { content, step, mark, hits, at } = props;
  const recorded = step.recordedObservation;
  const diff = useMemo(() => (step.observationDiffers && recorded !== null ? differingSpans(recorded, step.observation) : null), [step, recorded]);
  if (!diff || recorded === null)
    return (
      <ScrollBox as="pre" label={`Tool output, ${at}`} className={`${WRAP} ${LONG} text-slate-800`}>
        <MarkedText text={content} span={mark?.span ?? null} label={mark?.label ?? 'match'} hits={hits.hits} current={hits.current} />
      </ScrollBox>
    );
  const shift = content.endsWith(recorded) ? content.length - recorded.length : 0;
  return (
    <div className="grid gap-2 md:grid-cols-2">
      <div className="min-w-0 rounded border border-orange-300 bg-white p-1.5">
        <div className="mb-0.5 text-[11px] font-semibold text-orange-800">Recorded in the file</div>
        <ScrollBox as="pre" label={`Tool output recorded in the file, ${at}`} className={`${WRAP} ${LONG} text-slate-800`}>
          {mark ? (
            <MarkedText text={content} span={mark.span} label={mark.label} hits={hits.hits} current={hits.current} />
          ) : (
            <MarkedText
              text={content}
              span={{ start: diff.a.start + shift, end: diff.a.end + shift }}
              label="differs from the replay"
              hits={hits.hits}
              current={hits.current}
            />
          )}
        </ScrollBox>
      </div>
      <div className="min-w-0 rounded border border-orange-300 bg-white p-1.5">
        <div className="mb-0.5 text-[11px] font-semibold text-orange-800">Replayed by tau-inspect (what τ-bench's environment returns)</div>
        <ScrollBox as="pre" label={`Tool output replayed by tau-inspect, ${at}`} className={`${WRAP} ${LONG} text-slate-800`}>
          <MarkedText text={step.observation} span={diff.b} label="differs from the recording" />
        </ScrollBox>
      </div>
    </div>
  );
}
