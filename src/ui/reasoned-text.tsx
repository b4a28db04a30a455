import { useMemo, useState } from 'react';
import type { Span } from '../core/contract';
import { FOCUS_RING_SKY } from './focus';
import { MarkedText } from './marked-text';
import { hasReasoning, spanIn, splitReasoning, type Segment } from './reasoning';
import { plural } from './text';

interface Marks {
  readonly span: Span | null;
  readonly label: string;
  readonly hits: readonly Span[];
  /** Index into `hits` of the current search hit, or -1. */
  readonly current: number;
}

/** The marks of a whole text that fall in `[start, end)`, relative to it. */
function marksIn(m: Marks, start: number, end: number): Marks {
  const hits: Span[] = [];
  let current = -1;
  m.hits.forEach((h, i) => {
    const s = spanIn(h, start, end);
    if (!s) return;
    if (i === m.current) current = hits.length;
    hits.push(s);
  });
  return { span: spanIn(m.span, start, end), label: m.label, hits, current };
}

/**
 * An agent's text with its reasoning (`<think>` blocks, a ReAct `Thought:`) folded to one line
 * each; the rest shown as is. A block opens by itself while it holds the highlighted span or the
 * current search hit, and says how many search hits it holds when closed.
 */
export function ReasonedText(props: { text: string; markdown?: boolean } & Marks) {
  const { text, markdown = false } = props;
  const segments = useMemo(() => (hasReasoning(text) ? splitReasoning(text) : null), [text]);
  if (!segments || !segments.some((s) => s.kind === 'reasoning'))
    return <MarkedText text={text} span={props.span} label={props.label} hits={props.hits} current={props.current} markdown={markdown} />;
  return segments.map((seg) => {
    const m = marksIn(props, seg.start, seg.end);
    const body = text.slice(seg.start, seg.end);
    return seg.kind === 'text' ? (
      <span key={seg.start} className="block">
        <MarkedText text={body} span={m.span} label={m.label} hits={m.hits} current={m.current} markdown={markdown} />
      </span>
    ) : (
      <ReasoningBlock key={seg.start} seg={seg} body={body} marks={m} />
    );
  });
}

function ReasoningBlock(props: { seg: Extract<Segment, { kind: 'reasoning' }>; body: string; marks: Marks }) {
  const { seg, body, marks } = props;
  const forced = marks.current >= 0 || marks.span !== null;
  const key = forced ? `${marks.current}:${marks.span?.start ?? ''}:${marks.span?.end ?? ''}` : '';
  const [user, setUser] = useState<{ open: boolean; at: string } | null>(null);
  const show = user !== null && (user.at === key || !forced) ? user.open : forced;
  return (
    <span className="my-1 block rounded border border-slate-200 bg-slate-100/60" data-testid="reasoning" data-open={show}>
      <button
        type="button"
        aria-expanded={show}
        onClick={() => setUser({ open: !show, at: key })}
        className={`flex w-full flex-wrap items-center gap-1.5 rounded px-1.5 py-0.5 text-left font-sans text-[11px] text-slate-600 hover:bg-slate-100 ${FOCUS_RING_SKY}`}
      >
        <span aria-hidden="true" className="w-2.5 text-slate-600">
          {show ? '▾' : '▸'}
        </span>
        <span>
          <span className="font-semibold text-slate-700">{seg.form === 'thought' ? 'Thought' : 'Reasoning'}</span> ·{' '}
          {seg.end - seg.start === 1 ? '1 char' : `${(seg.end - seg.start).toLocaleString('en-US')} chars`}
        </span>
        {!seg.closed && <span className="italic">(not closed)</span>}
        {marks.hits.length > 0 && (
          <span className="rounded bg-yellow-100 px-1 text-yellow-900 ring-1 ring-yellow-400" data-testid="reasoning-hits">
            {plural(marks.hits.length, 'search hit')}
          </span>
        )}
      </button>
      {show && (
        <span className="block border-t border-slate-200 px-1.5 py-1 text-slate-600">
          <MarkedText text={body} span={marks.span} label={marks.label} hits={marks.hits} current={marks.current} />
        </span>
      )}
    </span>
  );
}
