import type { ButtonHTMLAttributes, Ref } from 'react';
import { FOCUS_RING, FOCUS_RING_SKY, FOCUS_RING_TIGHT } from './focus';

const VARIANT = {
  /** Small bordered button (episode screen: previous/next, show more, copy). */
  small: `rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 shadow-xs hover:bg-slate-50 active:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40 ${FOCUS_RING_SKY}`,
  /** Looks like a link, acts in place (go to a step, show the diff). */
  link: `rounded px-1 font-medium text-sky-700 underline decoration-sky-300 underline-offset-2 hover:bg-sky-50 hover:decoration-sky-600 ${FOCUS_RING_SKY}`,
  /** Bordered toolbar button, extra-small text (what-if bar). */
  toolbar: `rounded border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50 ${FOCUS_RING} disabled:opacity-50`,
  /** Bordered header button, normal text (copy link, share episode). */
  outline: `whitespace-nowrap rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 ${FOCUS_RING} disabled:cursor-not-allowed disabled:opacity-50`,
  /** The one filled call to action of a place (open, fetch). */
  primary: `rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 ${FOCUS_RING}`,
  /** Borderless text toggle (show charts, why?). */
  quiet: `rounded px-1.5 py-0.5 font-medium text-indigo-700 hover:bg-indigo-50 ${FOCUS_RING_TIGHT}`,
} as const;

export type ButtonVariant = keyof typeof VARIANT;

/** The class string of a button variant, for elements that must stay something else (a summary, a label). */
export const buttonClass = (variant: ButtonVariant, extra?: string | undefined): string => (extra ? `${VARIANT[variant]} ${extra}` : VARIANT[variant]);

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; ref?: Ref<HTMLButtonElement> };

/** A `<button>` (type "button" unless told) in one of the shared looks; `className` adds layout. */
export function Button({ variant = 'small', className, type = 'button', ref, ...rest }: ButtonProps) {
  return <button ref={ref} type={type} className={buttonClass(variant, className)} {...rest} />;
}
