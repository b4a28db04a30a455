/**
 * Keyboard focus rings, one per look. Every interactive element in the app shows one of these
 * (never `outline-none` without a replacement), so keyboard users always see where they are.
 */

/** Indigo outline, offset from the element: buttons on the page chrome (open, share, what-if). */
export const FOCUS_RING = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/** Sky outline, offset: the episode screen's buttons, tabs and step chips. */
export const FOCUS_RING_SKY = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600';

/** Indigo outline hugging the element: quiet text buttons inside summaries. */
export const FOCUS_RING_TIGHT = 'focus-visible:outline-2 focus-visible:outline-indigo-500';

/** Text fields and selects: border and soft ring instead of an outline. */
export const FOCUS_FIELD = 'focus-visible:border-indigo-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-200';
