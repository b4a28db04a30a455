import type { ReactNode } from 'react';

const SHAPE = {
  /** Square-cornered bordered tag (message role, step kind). */
  tag: 'inline-flex items-center rounded border px-1.5 py-px text-[11px] font-medium leading-4',
  /** Round bordered pill (failure reasons in the verdict panel). */
  pill: 'rounded-full border px-2 py-px text-[11px] font-medium',
  /** Ringed label that truncates in tight table cells (reasons in the episode table). */
  inset: 'min-w-0 shrink truncate rounded px-1.5 py-px text-[11px] font-medium whitespace-nowrap ring-1 ring-inset',
} as const;

export type ChipShape = keyof typeof SHAPE;

/**
 * A small rounded label. `tone` is its colour classes (border or ring, background, text),
 * e.g. `border-rose-300 bg-rose-50 text-rose-800`; the shape decides which of them apply.
 */
export function Chip(props: { tone: string; shape?: ChipShape; as?: 'span' | 'li'; title?: string | undefined; children: ReactNode }) {
  const { tone, shape = 'tag', as: Tag = 'span', title, children } = props;
  return (
    <Tag className={`${SHAPE[shape]} ${tone}`} title={title}>
      {children}
    </Tag>
  );
}
