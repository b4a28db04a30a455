import type { Span } from '../core/contract';
import { FOLD_LIMIT } from './fold';
import { FoldedText } from './folded-text';
import { MarkdownText } from './markdown-text';
import { snippet } from './text';
/** How a highlighted span or search hit looks. */
export const MARK = 'rounded-sm bg-yellow-200 px-px text-slate-950 ring-1 ring-yellow-500';

/**
 * Text with one span highlighted; the text is rendered as React text only (or as safe Markdown). Without `context` the
 * whole text is shown, folded when long (a window around the span), with any search `hits` marked
 * (`current` strongly); with `context` only a snippet.
 */
export function MarkedText(props: {
  text: string;
  span: Span | null;
  label?: string;
  context?: number;
  hits?: readonly Span[];
  current?: number;
  /** Render as Markdown (agent and user text up to the fold limit; longer text stays plain and folded). */
  markdown?: boolean;
}) {
  const { text, span } = props;
  if (props.markdown && props.context === undefined && text.length <= FOLD_LIMIT)
    return <MarkdownText text={text} span={span} label={props.label} hits={props.hits} current={props.current ?? -1} />;
  if (props.context === undefined || !span)
    return props.hits && props.hits.length > 0 ? (
      <FoldedText text={text} span={span} label={props.label} markClass={MARK} hits={props.hits} current={props.current ?? -1} />
    ) : (
      <FoldedText text={text} span={span} label={props.label} markClass={MARK} />
    );
  const parts = snippet(text, span, props.context);
  return (
    <>
      {parts.before}
      <mark className={MARK} aria-label={props.label}>
        <FoldedText text={parts.match} label={props.label} />
      </mark>
      {parts.after}
    </>
  );
}

/** Plain untrusted text, folded when long. */
export function PlainText(props: { text: string }) {
  return <FoldedText text={props.text} />;
}
