import type { Span } from '../core/contract';

/** `text` cut around `span` into three plain strings (never markup). */
export interface SpanParts {
  readonly before: string;
  readonly match: string;
  readonly after: string;
}

export function splitSpan(text: string, span: Span): SpanParts {
  const start = Math.max(0, Math.min(span.start, text.length));
  const end = Math.max(start, Math.min(span.end, text.length));
  return { before: text.slice(0, start), match: text.slice(start, end), after: text.slice(end) };
}

/** Like splitSpan, with `before`/`after` shortened to about `context` characters each. */
export function snippet(text: string, span: Span, context = 60): SpanParts {
  const { before, match, after } = splitSpan(text, span);
  return {
    before: before.length > context ? `…${before.slice(before.length - context)}` : before,
    match,
    after: after.length > context ? `${after.slice(0, context)}…` : after,
  };
}

/** The part where two texts differ, as the span of each between their common prefix and suffix. */
export function differingSpans(a: string, b: string): { readonly a: Span; readonly b: Span } | null {
  if (a === b) return null;
  let p = 0;
  const max = Math.min(a.length, b.length);
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return { a: { start: p, end: a.length - s }, b: { start: p, end: b.length - s } };
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where a search query appears in a text (case-insensitive, as the run's search matches), as spans. */
export function queryHits(text: string, query: string): Span[] {
  const q = query.trim();
  if (q === '') return [];
  return [...text.matchAll(new RegExp(escapeRe(q), 'giu'))].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}
