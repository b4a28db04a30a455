import { startTransition, useEffect, useEffectEvent, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * How much of a long list a slice may draw, in the rows' own cost units (`rowCost`: a row's characters of text and a
 * fixed part for its frame). Measured on the what-if link at the caps (bench `whatif-link`: 100 inserted calls of
 * ~2,000 characters, each with its tool message): a slice of this size is React's work, the new rows' style and layout
 * and the scroll boxes' measure in well under 50 ms on a loaded 2-core machine.
 */
export const SLICE_COST = 24_000;
/**
 * The first slice, drawn with the screen: about a screenful (the rest follows in the next tasks). It is drawn in the
 * same task as everything else the screen shows (the verdict, the side panels, the run's table): kept small, so that
 * task's layout is not the whole dialogue's.
 */
export const FIRST_COST = 8_000;
/** What one row costs whatever its text (its frame, header and chips). */
export const ROW_COST = 400;

/** A row's cost: `ROW_COST` and the characters it shows. */
export const rowCost = (chars: number): number => ROW_COST + chars;

/** Where drawing stopped: `shown` rows of the list named `key`. */
interface Drawn {
  readonly key: unknown;
  readonly shown: number;
}

/** The rows from `from` on that fit in `budget` (at least one while any is left), and through `need` whatever they cost. */
export function sliceEnd(costs: readonly number[], from: number, budget: number, need: number): number {
  let i = from;
  let spent = 0;
  while (i < costs.length && (i === from || spent + costs[i]! <= budget || i <= need)) spent += costs[i++]!;
  return i;
}

/** The next task, after the browser has painted and handled input (a message to ourselves: no 4 ms timer clamp). */
function nextTask(run: () => void): () => void {
  if (typeof MessageChannel === 'undefined') {
    const t = setTimeout(run, 0);
    return () => clearTimeout(t);
  }
  const channel = new MessageChannel();
  let live = true;
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (live) run();
  };
  channel.port2.postMessage(null);
  return () => {
    live = false;
    channel.port1.close();
  };
}

/**
 * How many rows of a long list to draw now (issue #35: no main-thread task over 200 ms). A dialogue of hundreds of
 * messages — a what-if link at the caps — drawn at once held the page's thread for a quarter of a second: React's work,
 * then the style and layout of every row at once. Drawn here a slice at a time: the first `FIRST_COST` of rows (what a
 * screen shows), then `SLICE_COST` a task — each in a transition, so React yields to input within it — until every row is
 * in the page. Every row is there in the end, in order, so the page's search, a step's scroll and printing find it.
 *
 * `costs`: each row's cost (`rowCost`). `need`: the index of a row that must be drawn now (the selected step's, the
 * current search hit's; -1 for none) — the rows up to it are drawn at once. `key`: the list's identity (the view's
 * messages): a new view of the same episode (its verdict, a what-if judged again) keeps the rows drawn — re-rendered,
 * not drawn anew, ~20 ms of CPU for a link's 220 rows — so the list never shrinks under the reader, and draws the rest
 * a slice at a time; another episode mounts the list anew (both screens are keyed by the episode) and starts from its
 * first slice. Server-side rendering (and any place without a window) draws every row. Before printing, every row is
 * drawn at once.
 */
export function useProgressiveRows(costs: readonly number[], need: number, key: unknown): number {
  const total = costs.length;
  const eager = typeof window === 'undefined';
  const needed = Math.min(need, total - 1);
  const first = (): number => (eager ? total : sliceEnd(costs, 0, FIRST_COST, needed));
  const [drawn, setDrawn] = useState<Drawn>(() => ({ key, shown: first() }));
  let shown = drawn.shown;
  if (drawn.key !== key || shown <= needed) {
    // A new view of the list (the rows drawn stay), or a row asked for that is not drawn yet: set while rendering (React
    // renders again at once).
    shown = drawn.key !== key ? Math.max(first(), Math.min(shown, total)) : sliceEnd(costs, shown, 0, needed);
    setDrawn({ key, shown });
  }
  const done = eager || shown >= total;
  // The costs as they are when the slice is drawn (a caller's new array of the same list does not put it off).
  const grow = useEffectEvent(() => startTransition(() => setDrawn((d) => (d.key === key ? { key, shown: sliceEnd(costs, d.shown, SLICE_COST, -1) } : d))));
  useEffect(() => {
    if (done) return;
    return nextTask(grow);
  }, [done, shown, key]);
  useEffect(() => {
    if (done) return;
    const all = (): void => flushSync(() => setDrawn({ key, shown: total }));
    window.addEventListener('beforeprint', all);
    return () => window.removeEventListener('beforeprint', all);
  }, [done, key, total]);
  return Math.min(shown, total);
}

/** The end of a list still being drawn (`useProgressiveRows`): how many rows are still to come. */
export function DrawingRest(props: { left: number }) {
  return (
    <li className="px-2 py-1 text-xs text-slate-600" data-testid="dialogue-drawing">
      Drawing the rest of the dialogue ({props.left.toLocaleString('en-US')} more)…
    </li>
  );
}

/** How many frames `whenDrawn` waits for an element a list has not drawn yet (its slices take well under a second). */
const DRAWN_WAIT_FRAMES = 120;

/**
 * Runs `f` with an element (`find`: its id, or how to find it) once it is in the page: at once when it is, else at the
 * next frames while a list drawn a slice at a time (`useProgressiveRows`) gets to it — a link to a call or a message far
 * down a long dialogue, followed in the first second after the dialogue opened. Gives up quietly after `DRAWN_WAIT_FRAMES`.
 */
export function whenDrawn(find: string | (() => Element | null), f: (el: Element) => void, frames = DRAWN_WAIT_FRAMES): void {
  const el = typeof find === 'string' ? document.getElementById(find) : find();
  if (el) f(el);
  else if (frames > 0) requestAnimationFrame(() => whenDrawn(find, f, frames - 1));
}
