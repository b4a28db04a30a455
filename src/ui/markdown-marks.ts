import type { Element, ElementContent, Parent, Root, Text } from 'hast';
import type { Span } from '../core/contract';
import { splitInvisible } from './fold';

/** A span of the Markdown source to mark in the rendered text: the highlighted span, or search hit `hit`. */
export interface SourceMark extends Span {
  /** -1: the highlighted span (an output matched here…); else the index of the search hit. */
  readonly hit: number;
}

export interface MarkClasses {
  readonly mark: string;
  readonly hit: string;
  readonly current: string;
  readonly invisible: string;
}

/**
 * Where each character of a rendered text node came from in the Markdown source: the source is
 * walked once, each character of the value taken at its next occurrence (escapes, entities and
 * markup skipped). Null when the value is not a subsequence of its source range.
 */
export function alignToSource(source: string, start: number, end: number, value: string): number[] | null {
  const map: number[] = [];
  let j = start;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    while (j < end && source[j] !== c) j++;
    if (j >= end) return null;
    map.push(j++);
  }
  return map;
}

/** The mark a source offset falls in: the current hit first, then the highlighted span, then any hit. */
function markAt(marks: readonly SourceMark[], at: number, current: number): SourceMark | null {
  let best: SourceMark | null = null;
  for (const m of marks) {
    if (at < m.start || at >= m.end) continue;
    if (m.hit === current && m.hit >= 0) return m;
    if (best === null || (m.hit === -1 && best.hit !== -1)) best = m;
  }
  return best;
}

const text = (value: string): Text => ({ type: 'text', value });

/** Text with invisible and direction-changing characters as visible labels (never applied). */
function visible(value: string, cls: MarkClasses): ElementContent[] {
  return splitInvisible(value).map((p) =>
    typeof p === 'string'
      ? text(p)
      : {
          type: 'element',
          tagName: 'span',
          properties: { dataInvisible: p.invisible, title: 'an invisible or direction-changing character in the text', className: [cls.invisible] },
          children: [text(p.invisible)],
        },
  );
}

/**
 * A rehype plugin for react-markdown: raw HTML kept as text, invisible characters shown, and the
 * highlighted span and search hits (offsets into the Markdown source) marked in the rendered text.
 * A hit cut by markup into several pieces is counted once (`data-testid="search-hit"` on its first).
 */
export function rehypeSourceMarks(options: { source: string; marks: readonly SourceMark[]; current: number; label: string; classes: MarkClasses }) {
  const { source, marks, current, label, classes } = options;
  // Which hits have their counted element, per run (a plugin instance is run again on every render).
  let seen = new Set<number>();
  const wrap = (m: SourceMark, children: ElementContent[]): Element => {
    if (m.hit < 0) return { type: 'element', tagName: 'mark', properties: { className: [classes.mark], ariaLabel: label }, children };
    const first = !seen.has(m.hit);
    seen.add(m.hit);
    return {
      type: 'element',
      tagName: 'mark',
      properties: {
        dataTestid: first ? 'search-hit' : 'search-hit-part',
        dataHit: String(m.hit),
        dataCurrent: m.hit === current ? 'true' : undefined,
        className: [m.hit === current ? classes.current : classes.hit],
      },
      children,
    };
  };
  const pieces = (node: Text): ElementContent[] => {
    const pos = node.position;
    const value = node.value;
    if (marks.length === 0 || !pos || pos.start.offset === undefined || pos.end.offset === undefined) return visible(value, classes);
    const map = alignToSource(source, pos.start.offset, pos.end.offset, value);
    if (map === null) {
      const m = marks.find((x) => x.start < pos.end.offset! && x.end > pos.start.offset!);
      return m ? [wrap(m, visible(value, classes))] : visible(value, classes);
    }
    const out: ElementContent[] = [];
    let from = 0;
    let at = value.length === 0 ? null : markAt(marks, map[0]!, current);
    for (let i = 1; i <= value.length; i++) {
      const next = i < value.length ? markAt(marks, map[i]!, current) : undefined;
      if (next === at) continue;
      const part = visible(value.slice(from, i), classes);
      if (at) out.push(wrap(at, part));
      else out.push(...part);
      from = i;
      at = next ?? null;
    }
    return out;
  };
  const walk = (parent: Parent): void => {
    const kids: ElementContent[] = [];
    for (const child of parent.children as ElementContent[]) {
      // Raw HTML in the Markdown is text, never markup.
      const c = (child as { type: string }).type === 'raw' ? { ...text((child as unknown as Text).value), position: child.position } : child;
      if (c.type === 'text') kids.push(...pieces(c as Text));
      else {
        if (c.type === 'element') walk(c);
        kids.push(c);
      }
    }
    parent.children = kids;
  };
  return () => (tree: Root) => {
    seen = new Set<number>();
    walk(tree);
  };
}
