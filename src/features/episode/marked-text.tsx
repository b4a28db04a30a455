import type { Span } from '../../core/contract';
import { snippet, splitSpan } from './text';
import { MARK } from './ui';

/** Text with one span highlighted; the text is rendered as React text only. */
export function MarkedText(props: { text: string; span: Span | null; label?: string; context?: number }) {
  const { text, span } = props;
  if (!span) return <>{text}</>;
  const parts = props.context === undefined ? splitSpan(text, span) : snippet(text, span, props.context);
  return (
    <>
      {parts.before}
      <mark className={MARK} aria-label={props.label}>
        {parts.match}
      </mark>
      {parts.after}
    </>
  );
}
