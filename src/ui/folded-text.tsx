import { Fragment, memo, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Span } from '../core/contract';
import { Button } from './button';
import { formatBytes } from './format';
import { blockCuts, breakRuns, FOLD_LIMIT, foldWindow, hitPieces, markPieces, nextCut, splitInvisible, utf8Length } from './fold';

const DEFAULT_MARK = 'rounded-sm bg-yellow-200 px-px text-slate-950 ring-1 ring-yellow-500';
/** Search hits: every one tinted, the current one strong. */
const HIT = 'rounded-sm bg-yellow-100 text-inherit ring-1 ring-yellow-400';
const HIT_CURRENT = 'rounded-sm bg-orange-300 text-slate-950 ring-2 ring-orange-600';
const NO_HITS: readonly Span[] = [];

/** Text with invisible and direction-changing characters shown as visible marks (never applied). */
function Visible(props: { text: string }): ReactNode {
  const parts = splitInvisible(props.text);
  if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  return parts.map((p, i) =>
    typeof p === 'string' ? (
      p
    ) : (
      <span
        key={i}
        data-invisible={p.invisible}
        title="an invisible or direction-changing character in the text"
        className="mx-px rounded-sm bg-slate-200 px-0.5 font-sans text-[10px] text-slate-600"
      >
        {p.invisible}
      </span>
    ),
  );
}

/** Plain text with a line-break opportunity (`<wbr>`) inside every long unbroken run. */
function Breakable(props: { text: string }): ReactNode {
  const parts = breakRuns(props.text);
  if (parts.length === 1) return <Visible text={props.text} />;
  return parts.map((p, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      <Visible text={p} />
    </Fragment>
  ));
}

const Block = memo(function Block(props: {
  text: string;
  start: number;
  end: number;
  span: Span | null;
  label: string;
  markClass: string;
  hits: readonly Span[];
  current: number;
}) {
  const range = { start: props.start, end: props.end };
  if (props.hits.length === 0)
    return markPieces(props.text, range, props.span).map((p, i) =>
      p.marked ? (
        <mark key={i} className={props.markClass} aria-label={props.label}>
          <Breakable text={p.text} />
        </mark>
      ) : (
        <Breakable key={i} text={p.text} />
      ),
    );
  return hitPieces(props.text, range, props.span, props.hits).map((p, i) => {
    let node: ReactNode = <Breakable text={p.text} />;
    if (p.hit >= 0)
      node = (
        <mark
          data-testid="search-hit"
          data-hit={p.hit}
          data-current={p.hit === props.current ? 'true' : undefined}
          className={p.hit === props.current ? HIT_CURRENT : HIT}
        >
          {node}
        </mark>
      );
    if (p.marked)
      node = (
        <mark className={props.markClass} aria-label={props.label}>
          {node}
        </mark>
      );
    return <Fragment key={i}>{node}</Fragment>;
  });
});

interface Fold {
  readonly of: string;
  readonly spanKey: string;
  readonly cuts: readonly number[];
  readonly all: boolean;
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Untrusted text rendered as React text only, with one optional highlighted span, folded to
 * `limit` characters (a window around the span when it lies further on). "Show more" and
 * "Show all" reveal the rest in blocks, one block per frame, so no layout ever takes megabytes at once.
 */
export function FoldedText(props: {
  text: string;
  span?: Span | null;
  label?: string | undefined;
  markClass?: string;
  limit?: number;
  /** Search hits in the text (sorted, not overlapping), each marked; `current` (an index into them) marked strongly. */
  hits?: readonly Span[];
  current?: number;
}) {
  const { text, span = null, label = 'match', markClass = DEFAULT_MARK, limit = FOLD_LIMIT, hits = NO_HITS, current: currentHit = -1 } = props;
  // The fold opens around the highlighted span, else around the current hit.
  const focus = span ?? hits[currentHit] ?? null;
  const spanKey = focus ? `${focus.start}:${focus.end}` : '';
  const spanStart = focus?.start ?? -1;
  const spanEnd = focus?.end ?? -1;
  const initial = useMemo(() => foldWindow(text, spanStart < 0 ? null : { start: spanStart, end: spanEnd }, limit), [text, spanStart, spanEnd, limit]);
  const [fold, setFold] = useState<Fold | null>(null);
  const current = fold !== null && fold.of === text && fold.spanKey === spanKey ? fold : null;
  const cuts = current?.cuts ?? [initial.start, initial.end];
  const first = cuts[0]!;
  const last = cuts[cuts.length - 1]!;
  const complete = first === 0 && last >= text.length;
  const folded = text.length > limit;
  const bytes = useMemo(() => (folded ? utf8Length(text) : 0), [text, folded]);

  useEffect(() => {
    if (!current?.all || complete) return;
    const id = requestAnimationFrame(() =>
      setFold((f) => {
        if (!f || f.of !== text) return f;
        const at = f.cuts[0]! > 0 ? [0] : f.cuts;
        return { ...f, cuts: [...at, nextCut(text, at[at.length - 1]!)] };
      }),
    );
    return () => cancelAnimationFrame(id);
  }, [current, complete, text]);

  const more = (): void => setFold({ of: text, spanKey, all: false, cuts: [...cuts, nextCut(text, last)] });
  const all = (): void => setFold({ of: text, spanKey, all: true, cuts: first > 0 ? blockCuts(text, 0, 0) : [...cuts] });

  const blocks = cuts.length > 2;
  return (
    <>
      {first > 0 && (
        <span className="mb-1 block select-none font-sans text-[11px] italic text-slate-600" data-testid="fold-before">
          … {count(first)} characters before (not shown)
        </span>
      )}
      {cuts.slice(1).map((end, i) =>
        blocks ? (
          <span key={cuts[i]} className="block">
            <Block text={text} start={cuts[i]!} end={end} span={span} label={label} markClass={markClass} hits={hits} current={currentHit} />
          </span>
        ) : (
          <Block key={cuts[i]} text={text} start={cuts[i]!} end={end} span={span} label={label} markClass={markClass} hits={hits} current={currentHit} />
        ),
      )}
      {!complete && (
        <span className="mt-1 flex select-none flex-wrap items-center gap-1.5 font-sans text-[11px] text-slate-600" data-testid="fold-controls">
          <span>
            {last < text.length ? '… ' : ''}shown {count(last - first)} of {count(text.length)} characters
            {current?.all ? ' (revealing…)' : ''}
          </span>
          {last < text.length && (
            <Button onClick={more} disabled={current?.all}>
              Show more
            </Button>
          )}
          <Button onClick={all} disabled={current?.all} data-testid="fold-show-all">
            Show all ({formatBytes(bytes)})
          </Button>
        </span>
      )}
    </>
  );
}
