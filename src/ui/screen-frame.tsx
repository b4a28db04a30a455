import type { ReactNode } from 'react';
import { PhoneTabs, type PhoneView, type TabItem } from './panel-tabs';

/**
 * An episode's or a simulation's screen (`@container/screen`): the phone's tab bar (the dialogue,
 * the verdict, each side panel), then the screen's parts. `data` names what is shown for tests
 * (`data-episode`, `data-step`…); `data-phone` is added.
 */
export function ScreenFrame(props: {
  testId: string;
  data: Readonly<Record<`data-${string}`, string | number>>;
  noun?: string;
  tabs: readonly TabItem[];
  current: string;
  phone: PhoneView;
  onPick: (id: string) => void;
  onPhone: (view: PhoneView) => void;
  children: ReactNode;
}) {
  const { testId, data, noun = 'Episode', tabs, current, phone, onPick, onPhone } = props;
  return (
    <div className="@container/screen flex min-h-0 min-w-0 flex-1 flex-col gap-2 p-2 text-slate-900" data-testid={testId} {...data} data-phone={phone}>
      <PhoneTabs noun={noun} tabs={tabs} current={current} phone={phone} onPick={onPick} onPhone={onPhone} />
      {props.children}
    </div>
  );
}

/**
 * The dialogue column and the side column side by side on a wide screen (the side one 40%, at
 * least 20rem, unless hidden); on a phone one of them, and neither while the verdict shows.
 */
export function ScreenColumns(props: { phone: PhoneView; sideHidden: boolean; children: ReactNode }) {
  const { phone, sideHidden } = props;
  return (
    <div
      className={`min-h-0 flex-1 gap-2 @3xl/screen:grid @3xl/screen:grid-rows-[minmax(0,1fr)] ${sideHidden ? '' : '@3xl/screen:grid-cols-[minmax(0,1fr)_minmax(20rem,40%)]'} ${phone === 'verdict' ? 'hidden @3xl/screen:grid' : 'flex flex-col'}`}
    >
      {props.children}
    </div>
  );
}

/** The dialogue column (its step bar and messages): always on a wide screen, on a phone while the dialogue is picked. */
export function DialogueColumn(props: { label: string; phone: PhoneView; children: ReactNode }) {
  return (
    <section
      aria-label={props.label}
      className={`@container min-h-0 flex-1 flex-col overflow-hidden rounded-md border border-slate-200 bg-slate-50 ${props.phone === 'dialogue' ? 'flex' : 'hidden @3xl/screen:flex'}`}
      data-testid="dialogue-column"
    >
      {props.children}
    </section>
  );
}

/** The side column's box (its tabs and the shown panel): on a wide screen unless hidden, on a phone while a panel is picked. */
export function SideColumnFrame(props: { label: string; phone: PhoneView; sideHidden: boolean; children: ReactNode }) {
  return (
    <aside
      aria-label={props.label}
      className={`@container min-h-0 flex-1 flex-col overflow-hidden rounded-md border border-slate-200 bg-white ${props.phone === 'panel' ? 'flex' : 'hidden'} ${props.sideHidden ? '@3xl/screen:hidden' : '@3xl/screen:flex'}`}
      data-testid="side-column"
    >
      {props.children}
    </aside>
  );
}
