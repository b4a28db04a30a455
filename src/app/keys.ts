import type { AppState, AppStore } from '../store/app-store';
import type { StepMove } from '../store/episode-slice';
import { SCROLL_REGION } from '../ui/scroll-box';
import type { BenchmarkKind } from '../core/contract';
import { TAU2_PANEL_KEYS, TAU2_PANELS } from './tau2/panels';

/**
 * The keyboard model, one table for the handler and for the `?` list (and the README).
 * Step keys work wherever focus is, except in text fields; the episode list keeps its own arrow
 * keys only while it has focus (it shows a ring and says so), and Escape leaves it; a scrolling box
 * (a long tool output, reached with Tab) keeps the arrows and Home/End to scroll while it has focus.
 */
export const KEYS: readonly { readonly keys: readonly string[]; readonly what: string; readonly only?: BenchmarkKind }[] = [
  { keys: ['j', '↓'], what: 'next step' },
  { keys: ['k', '↑'], what: 'previous step' },
  { keys: ['Home', 'End'], what: 'first / last step' },
  { keys: ['n', 'p'], what: 'next / previous episode (in list order, with the filters)' },
  { keys: ['f', 'F'], what: 'next / previous failed episode' },
  { keys: ['Enter'], what: 'open the episode (in the list, or the first one)' },
  { keys: ['Esc'], what: 'leave the list; close this list, then the episode' },
  { keys: ['l'], what: 'show / hide the episode list beside an episode' },
  { keys: ['v'], what: 'verdict details', only: 'tau-bench' },
  { keys: ['s'], what: 'show / hide the side column (task and the panels below)' },
  {
    keys: ['1', '…', '8'],
    what: 'side panel: DB at step, DB diff, outputs, agent vs reference, what if, notes, not counted, how τ-bench judged',
    only: 'tau-bench',
  },
  { keys: ['1', '…', String(TAU2_PANELS.length)], what: `τ² simulation: ${TAU2_PANELS.map((p) => p.name).join(', ')}`, only: 'tau2' },
  {
    keys: ['←', '→'],
    what: 'τ² voice simulation: previous / next tick, whichever panel is open (the step cursor and the turn of speech follow; the audio too, in the Voice panel)',
    only: 'tau2',
  },
  { keys: ['[', ']'], what: 'τ² voice simulation: previous / next utterance (either speaker’s), whichever panel is open', only: 'tau2' },
  { keys: ['/'], what: 'search messages' },
  { keys: [',', '.'], what: 'previous / next search hit in the episode' },
  { keys: ['Shift+Enter', 'Enter'], what: 'in the search box: previous / next search hit in the episode' },
  { keys: ['?'], what: 'this list' },
];

/** The keys that work on a run of `kind` (all of them before a run is open): what the `?` list shows. */
export const keysFor = (kind: BenchmarkKind | null): typeof KEYS => KEYS.filter((k) => kind === null || k.only === undefined || k.only === kind);

/** The episode screen's side panels in the order of their digit keys (`1` is the first). */
export const PANEL_KEYS: readonly string[] = ['db', 'diff', 'outputs', 'alignment', 'whatif', 'notes', 'findings', 'walkthrough'];

/** Each benchmark's side panels in digit-key order (its screen's tabs). */
const panelKeysOf = (kind: BenchmarkKind): readonly string[] => ({ 'tau-bench': PANEL_KEYS, tau2: TAU2_PANEL_KEYS })[kind];

/** Whether `v` opens a verdict drawer on the benchmark's screen (τ-bench's; a τ² simulation's verdict heads its "How τ² judged" panel, its digit key). */
const VERDICT_DRAWER: Readonly<Record<BenchmarkKind, boolean>> = { 'tau-bench': true, tau2: false };

/** The open run's benchmark (τ-bench's screen while none is open). */
const openKind = (s: AppState): BenchmarkKind => s.runs.a.benchmark?.kind ?? 'tau-bench';

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

const isElement = (t: EventTarget | null): t is HTMLElement => typeof HTMLElement !== 'undefined' && t instanceof HTMLElement;

function typingInto(t: EventTarget | null): boolean {
  return isElement(t) && (TYPING.has(t.tagName) || t.isContentEditable);
}

/** The keys a focused scroll box (src/ui/scroll-box.tsx) scrolls with, left to the browser there. */
const SCROLL_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End']);

const scrollingIn = (t: EventTarget | null, key: string): boolean => SCROLL_KEYS.has(key) && isElement(t) && t.closest(`[${SCROLL_REGION}]`) !== null;

/** Elements whose own Enter/Space must win (a focused button, link, summary). */
function activatable(t: EventTarget | null): boolean {
  return isElement(t) && t.closest('button, a[href], summary, [role="button"], [role="tab"], [role="grid"]') !== null;
}

const TEACH_KEYS = new Set(['j', 'k', 'ArrowDown', 'ArrowUp', 'Home', 'End', '?']);

/** Handles one key press on the window; returns whether it was used. */
export function handleKey(e: KeyboardEvent, store: AppStore): boolean {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return false;
  const s = store.getState();
  if (e.key === 'Escape') {
    if (s.helpOpen) s.setHelpOpen(false);
    else if (s.selected !== null && !s.libraryShown && s.teach === null && !typingInto(e.target)) s.select(null);
    else return false;
    return true;
  }
  if (typingInto(e.target) || scrollingIn(e.target, e.key)) return false;
  // The comparison of two runs covers the run's screens: their keys would act out of sight.
  // So does the library of runs.
  if ((s.compareShown && s.runs.b.id !== null) || s.libraryShown) return e.key === '?' ? (s.setHelpOpen(true), true) : false;
  const episode = s.selected !== null;
  // Teaching mode hides the verdict: only the step cursor and this list; no key leaves the episode or finds failed ones.
  if (s.teach !== null && episode && !TEACH_KEYS.has(e.key)) return false;
  // The step cursor, whatever the benchmark (a τ² simulation's steps are its messages: core/view/steps.ts).
  const move = (m: StepMove): boolean => {
    if (!episode) return false;
    s.moveStep(m);
    return true;
  };
  switch (e.key) {
    case 'j':
    case 'ArrowDown':
      return move('next');
    case 'k':
    case 'ArrowUp':
      return move('prev');
    case 'Home':
      return move('first');
    case 'End':
      return move('last');
    case 'n':
      s.stepEpisode(1);
      return true;
    case 'p':
      s.stepEpisode(-1);
      return true;
    case 'f':
      s.stepEpisode(1, true);
      return true;
    case 'F':
      s.stepEpisode(-1, true);
      return true;
    case 'Enter':
      if (episode || activatable(e.target)) return false;
      s.stepEpisode(1);
      return true;
    case 'l':
      s.toggleLayout('listHidden');
      return true;
    case 'v':
      if (!episode || !VERDICT_DRAWER[openKind(s)]) return false;
      s.toggleLayout('verdictOpen');
      return true;
    case 's':
      if (!episode) return false;
      s.toggleLayout('sideHidden');
      return true;
    case '?':
      s.setHelpOpen(!s.helpOpen);
      return true;
    case '/': {
      const search = document.querySelector<HTMLInputElement>('[data-testid="search"]');
      if (!search) return false;
      if (s.layout.listHidden && s.selected !== null) s.setLayout({ listHidden: false });
      search.focus();
      search.select();
      return true;
    }
    case ',':
    case '.':
      if (!episode || s.query.trim() === '') return false;
      s.stepHit(e.key === '.' ? 1 : -1);
      return true;
    default: {
      const panel = /^[1-9]$/.test(e.key) ? panelKeysOf(openKind(s))[Number(e.key) - 1] : undefined;
      if (!episode || panel === undefined) return false;
      s.showPanel(panel);
      return true;
    }
  }
}

/** Installs the handler on the window. */
export function installKeys(store: AppStore): () => void {
  const onKey = (e: KeyboardEvent): void => {
    if (handleKey(e, store)) e.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
