import { useEffect, useMemo, useState, type JSX, type ReactNode } from 'react';
import type { Detection, EpisodeView } from '../../core/contract';
import { Dialogue } from './dialogue';
import { DialogueColumn, ScreenColumns, ScreenFrame } from '../../ui/screen-frame';
import type { PanelState, PhoneView, ScreenLayout, SidePanel, TabItem } from './screen-types';
import { SearchStrip } from './search-strip';
import { searchMarks } from './search-hits';
import { SideColumn } from './side-column';
import { StepBar } from './step-bar';
import { useEpisodeNav } from './use-episode-nav';
import { VerdictPanel } from './verdict-panel';

export type { EpisodeNav, PanelState, PhoneView, ScreenLayout, SidePanel } from './screen-types';

export interface EpisodeScreenProps {
  readonly view: EpisodeView;
  /** Selected executed-step index, 0..view.steps.length-1. */
  readonly step: number;
  readonly onStep: (n: number) => void;
  readonly detection: Detection;
  /** Side panels after DB at step, DB diff and outputs. */
  readonly panels?: readonly SidePanel[];
  /** The digit key of each side panel, in the order `1`, `2`, … (the app's keys). */
  readonly panelKeys?: readonly string[];
  readonly layout?: ScreenLayout;
  readonly onToggle?: (flag: keyof ScreenLayout) => void;
  /** Which side panel shows, owned by the app's store; the screen keeps its own without it. */
  readonly panel?: PanelState;
  /** The overview's search text and which of its hits in this episode to show (modulo their number). */
  readonly search?: { readonly query: string; readonly index: number; readonly nonce: number; readonly onMove: (delta: 1 | -1) => void };
  /** The episode as recorded, when \`view\` is a what-if replay of it (the verdict shows both). */
  readonly unedited?: EpisodeView | undefined;
  /** Shown above the step bar (a what-if replay's line). */
  readonly toolbar?: ReactNode;
}

/**
 * The episode screen: the verdict, the dialogue with its step cursor, and a side column of tabs.
 * On a phone one of them at a time, under a tab bar.
 */
export function EpisodeScreen(props: EpisodeScreenProps): JSX.Element {
  return <Screen key={props.view.index} {...props} />;
}

function initialTab(view: EpisodeView): string {
  const codes = new Set(view.verdict.reasons.map((r) => r.code));
  if (codes.has('db-mismatch')) return 'diff';
  if (codes.has('missing-output')) return 'outputs';
  return 'db';
}

const STANDALONE: ScreenLayout = { verdictOpen: true, sideHidden: false, instructionOpen: true };

function tabsOf(view: EpisodeView, step: number, panels: readonly SidePanel[], keys: readonly string[]): TabItem[] {
  const found = view.outputs?.filter((o) => o.found).length ?? 0;
  const differ = view.verdict.agentHash !== view.verdict.gtHash;
  const text = (x: string | ((v: EpisodeView) => string)): string => (typeof x === 'string' ? x : x(view));
  const outputs = view.outputs === null ? 'none' : `${found}/${view.outputs.length}`;
  const all: Omit<TabItem, 'key'>[] = [
    { id: 'db', label: `DB at step ${view.steps.length === 0 ? '–' : step + 1}`, short: 'DB' },
    { id: 'diff', label: differ ? `DB diff (${view.diff.length})` : 'DB diff (none)', short: differ ? `Diff ${view.diff.length}` : 'Diff' },
    { id: 'outputs', label: `Outputs (${outputs})`, short: `Outputs ${outputs}` },
    ...panels.map((p) => ({ id: p.id, label: text(p.label), short: text(p.short ?? p.label) })),
  ];
  return all.map((t) => {
    const k = keys.indexOf(t.id);
    return k >= 0 && k < 9 ? { ...t, key: String(k + 1) } : t;
  });
}

/** The panel state the app's store owns, or the screen's own. */
function usePanel(given: PanelState | undefined): PanelState {
  const [own, setOwn] = useState<{ id: string | null; phone: PhoneView }>({ id: null, phone: 'dialogue' });
  return given ?? { ...own, onPanel: (id) => setOwn({ id, phone: 'panel' }), onPhone: (phone) => setOwn((o) => ({ ...o, phone })) };
}

function Screen({
  view,
  step,
  onStep,
  detection,
  panels = [],
  panelKeys = [],
  layout: given,
  onToggle,
  panel: givenPanel,
  search,
  toolbar,
  unedited,
}: EpisodeScreenProps) {
  const count = view.steps.length;
  const cursor = count === 0 ? 0 : Math.min(Math.max(step, 0), count - 1);
  const [ownLayout, setOwnLayout] = useState<ScreenLayout>(STANDALONE);
  const layout = given ?? ownLayout;
  const toggle = (flag: keyof ScreenLayout): void => (onToggle ? onToggle(flag) : setOwnLayout((l) => ({ ...l, [flag]: !l[flag] })));
  const panel = usePanel(givenPanel);
  const tabs = tabsOf(view, cursor, panels, panelKeys);
  const current = panel.id !== null && tabs.some((t) => t.id === panel.id) ? panel.id : initialTab(view);
  const show = (to: string): void => (to === 'dialogue' || to === 'verdict' ? panel.onPhone(to) : panel.onPanel(to));
  const p = useEpisodeNav(view, onStep, show);

  // Search hits of the overview's query (found once per query and episode): all marked, the current one brought into view.
  const query = search?.query.trim() ?? '';
  const hits = useMemo(() => searchMarks(view.messages, view.steps, search?.query ?? '', view.strategy), [view, search?.query]);
  const hitAt = hits.length === 0 ? -1 : (((search?.index ?? 0) % hits.length) + hits.length) % hits.length;
  const hitNonce = search?.nonce ?? 0;
  const { revealHit } = p;
  useEffect(() => {
    const h = hits[hitAt];
    if (h) revealHit(h.messageIndex);
  }, [hits, hitAt, hitNonce, revealHit]);

  const phone = panel.phone;
  return (
    <ScreenFrame
      testId="episode-screen"
      data={{ 'data-episode': view.index, 'data-step': cursor }}
      tabs={tabs}
      current={current}
      phone={phone}
      onPick={panel.onPanel}
      onPhone={panel.onPhone}
    >
      <div className={phone === 'verdict' ? 'min-h-0 flex-1 overflow-y-auto @3xl/screen:flex-none @3xl/screen:overflow-visible' : 'hidden @3xl/screen:block'}>
        <VerdictPanel
          view={view}
          unedited={unedited}
          detection={detection}
          onShow={show}
          open={layout.verdictOpen}
          phoneOpen={phone === 'verdict'}
          onToggle={() => toggle('verdictOpen')}
        />
      </div>
      <ScreenColumns phone={phone} sideHidden={layout.sideHidden}>
        <DialogueColumn label="Dialogue and step cursor" phone={phone}>
          {toolbar}
          <StepBar steps={view.steps} step={cursor} onSelect={p.select} />
          {query !== '' && <SearchStrip query={query} count={hits.length} at={hitAt} messages={view.messages} onMove={search?.onMove} />}
          <div className="min-h-0 flex-1">
            <Dialogue view={view} step={cursor} mark={p.mark} reveal={p.reveal} onSelect={p.select} hits={hits} hitAt={hitAt} />
          </div>
        </DialogueColumn>
        <SideColumn
          view={view}
          step={cursor}
          tabs={tabs}
          current={current}
          onPick={panel.onPanel}
          panels={panels}
          pointers={p}
          instructionOpen={layout.instructionOpen}
          onToggleInstruction={() => toggle('instructionOpen')}
          phone={phone}
          sideHidden={layout.sideHidden}
        />
      </ScreenColumns>
    </ScreenFrame>
  );
}
