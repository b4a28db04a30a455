import { memo, useMemo, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import type { Span } from '../core/contract';
import { rehypeSourceMarks, type MarkClasses, type SourceMark } from './markdown-marks';
import { ScrollBox } from './scroll-box';

const CLASSES: MarkClasses = {
  mark: 'rounded-sm bg-yellow-200 px-px text-slate-950 ring-1 ring-yellow-500',
  hit: 'rounded-sm bg-yellow-100 text-inherit ring-1 ring-yellow-400',
  current: 'rounded-sm bg-orange-300 text-slate-950 ring-2 ring-orange-600',
  invisible: 'mx-px rounded-sm bg-slate-200 px-0.5 font-sans text-[10px] text-slate-600',
};

/** Links are shown as text (their address in a tooltip), never followed or loaded; images are not rendered. */
const COMPONENTS: Components = {
  a: ({ children, href }) => (
    <span className="text-sky-800 underline decoration-dotted" title={href ? `link (not followed): ${href}` : undefined}>
      {children}
    </span>
  ),
  p: ({ children }) => <p className="my-1 whitespace-pre-line first:mt-0 last:mb-0">{children}</p>,
  ul: ({ children }) => <ul className="my-1 list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="my-1 list-decimal pl-5">{children}</ol>,
  h1: ({ children }) => <p className="my-1 font-semibold">{children}</p>,
  h2: ({ children }) => <p className="my-1 font-semibold">{children}</p>,
  h3: ({ children }) => <p className="my-1 font-semibold">{children}</p>,
  h4: ({ children }) => <p className="my-1 font-semibold">{children}</p>,
  h5: ({ children }) => <p className="my-1 font-semibold">{children}</p>,
  h6: ({ children }) => <p className="my-1 font-semibold">{children}</p>,
  pre: ({ children }) => (
    <ScrollBox as="pre" label="Code block" className="my-1 overflow-x-auto rounded bg-slate-100 p-1.5 font-mono text-[13px] leading-snug whitespace-pre-wrap">
      {children}
    </ScrollBox>
  ),
  code: ({ children }) => <code className="rounded bg-slate-100 px-0.5 font-mono text-[13px]">{children}</code>,
  blockquote: ({ children }) => <blockquote className="my-1 border-l-2 border-slate-300 pl-2 text-slate-700">{children}</blockquote>,
  table: ({ children }) => (
    <ScrollBox label="Table" className="my-1 overflow-x-auto">
      <table className="border-collapse text-[13px]">{children}</table>
    </ScrollBox>
  ),
  th: ({ children }) => <th className="border border-slate-300 px-1.5 py-0.5 text-left font-semibold">{children}</th>,
  td: ({ children }) => <td className="border border-slate-300 px-1.5 py-0.5">{children}</td>,
};

/**
 * Agent or user text rendered as Markdown, safely: raw HTML shown as text, no images, links as
 * plain text (nothing is loaded or followed), invisible characters shown. The highlighted span and
 * the search hits (offsets into the text) are marked where they land in the rendered text.
 */
export const MarkdownText = memo(MarkdownTextOf, sameMarks);

interface MarkdownProps {
  text: string;
  span?: Span | null;
  label?: string | undefined;
  hits?: readonly Span[] | undefined;
  current?: number;
}

const sameSpan = (a: Span | null | undefined, b: Span | null | undefined): boolean =>
  a === b || (a != null && b != null && a.start === b.start && a.end === b.end);

/**
 * Whether two renders mark the same text alike (the spans compared by value): a new view of the same episode — its
 * verdict, a what-if judged again — gives new span objects for the same places, and parsing every message's Markdown
 * again for it was most of the dialogue's render.
 */
function sameMarks(a: MarkdownProps, b: MarkdownProps): boolean {
  if (a.text !== b.text || a.label !== b.label || (a.current ?? -1) !== (b.current ?? -1) || !sameSpan(a.span, b.span)) return false;
  const x = a.hits ?? [];
  const y = b.hits ?? [];
  return x === y || (x.length === y.length && x.every((h, i) => sameSpan(h, y[i])));
}

function MarkdownTextOf(props: MarkdownProps): ReactNode {
  const { text, span = null, label = 'match', hits, current = -1 } = props;
  const plugins = useMemo(() => {
    const marks: SourceMark[] = [...(span ? [{ ...span, hit: -1 }] : []), ...(hits ?? []).map((h, i) => ({ ...h, hit: i }))];
    return [rehypeSourceMarks({ source: text, marks, current, label, classes: CLASSES })];
  }, [text, span, hits, current, label]);
  return (
    <div className="[overflow-wrap:anywhere]" data-markdown>
      <Markdown rehypePlugins={plugins} disallowedElements={['img']} components={COMPONENTS}>
        {text}
      </Markdown>
    </div>
  );
}
