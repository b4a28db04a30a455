import type { KeyboardEvent, ReactNode } from 'react';
import { FOCUS_RING_SKY } from './focus';

/** A tab of a side column (and of the phone's tab bar). */
export interface TabItem {
  readonly id: string;
  readonly label: string;
  readonly short: string;
  /** The digit key that shows it (app keys: `1`…`9`), if any. */
  readonly key?: string;
}

/** On a phone: the dialogue, the verdict, or the side panel. */
export type PhoneView = 'dialogue' | 'verdict' | 'panel';

const ON = 'border-slate-200 border-b-white bg-white text-slate-900';
const OFF = 'border-transparent text-slate-600 hover:text-slate-900';

/**
 * The side column's tabs (of an episode, or of a τ² simulation: `noun`). In a side column narrower
 * than 56rem each shows its short label (its full name is its accessible name and its title), so
 * the tabs fit one row at 1920 px and two at 1440; past that, the full labels. They wrap onto more
 * rows rather than cut a label; arrows move between them, digits (app keys) show them from anywhere.
 */
export function SideTabs(props: { tabs: readonly TabItem[]; current: string; onPick: (id: string) => void; noun?: string }) {
  const { tabs, current, onPick, noun = 'Episode' } = props;
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const i = tabs.findIndex((t) => t.id === current);
    const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!.id;
    onPick(next);
    document.getElementById(`episode-tab-${next}`)?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label={`${noun} details`}
      className="hidden shrink-0 flex-wrap gap-x-0.5 gap-y-0.5 border-b border-slate-200 bg-slate-50 px-1.5 pt-1.5 @3xl/screen:flex @4xl:gap-x-1 @4xl:px-2"
      onKeyDown={onKey}
      data-testid="side-tabs"
    >
      {tabs.map((t) => (
        <button
          key={t.id}
          id={`episode-tab-${t.id}`}
          type="button"
          role="tab"
          aria-selected={current === t.id}
          aria-controls={`episode-panel-${t.id}`}
          aria-keyshortcuts={t.key}
          title={t.key ? `${t.label} (${t.key})` : t.label}
          tabIndex={current === t.id ? 0 : -1}
          onClick={() => onPick(t.id)}
          data-testid={`tab-${t.id}`}
          className={`-mb-px whitespace-nowrap rounded-t border px-1.5 py-1 text-xs font-medium @4xl:px-2 ${FOCUS_RING_SKY} ${current === t.id ? ON : OFF}`}
        >
          <span aria-hidden="true" className="@4xl:hidden">
            {t.short}
          </span>
          <span className="sr-only @4xl:not-sr-only">{t.label}</span>
        </button>
      ))}
    </div>
  );
}

const PHONE_ON = 'border-sky-700 bg-sky-700 text-white';
const PHONE_OFF = 'border-slate-300 bg-white text-slate-800';

/**
 * A phone's tab bar: the dialogue, the verdict, and every side panel, each one tap away (the
 * bar wraps rather than scrolls). Hidden on wider screens, where the side column has its own tabs.
 */
export function PhoneTabs(props: {
  tabs: readonly TabItem[];
  current: string;
  phone: PhoneView;
  onPick: (id: string) => void;
  onPhone: (view: PhoneView) => void;
  noun?: string;
}) {
  const { tabs, current, phone, onPick, onPhone, noun = 'Episode' } = props;
  const item = (id: string, label: string, on: boolean, go: () => void) => (
    <li key={id}>
      <button
        type="button"
        aria-pressed={on}
        onClick={go}
        data-testid={`phone-tab-${id}`}
        className={`rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap ${FOCUS_RING_SKY} ${on ? PHONE_ON : PHONE_OFF}`}
      >
        {label}
      </button>
    </li>
  );
  return (
    <nav aria-label={`${noun} parts`} className="shrink-0 @3xl/screen:hidden" data-testid="phone-tabs">
      <ul className="flex flex-wrap gap-1">
        {item('dialogue', 'Dialogue', phone === 'dialogue', () => onPhone('dialogue'))}
        {item('verdict', 'Verdict', phone === 'verdict', () => onPhone('verdict'))}
        {tabs.map((t) => item(t.id, t.short, phone === 'panel' && current === t.id, () => onPick(t.id)))}
      </ul>
    </nav>
  );
}

/**
 * The shown tab's panel under `SideTabs`: scrolls on its own, named by its tab, and mounted anew for
 * each tab (a panel's own state, such as its scroll, does not carry over to another).
 */
export function TabPanel(props: { current: string; className?: string; children: ReactNode }) {
  return (
    <div
      key={props.current}
      role="tabpanel"
      id={`episode-panel-${props.current}`}
      aria-labelledby={`episode-tab-${props.current}`}
      tabIndex={0}
      data-scroll
      data-panel={props.current}
      className={`min-h-0 flex-1 overflow-y-auto overscroll-contain ${props.className ?? ''}`}
      data-testid="side-panel"
    >
      {props.children}
    </div>
  );
}
