import type { EpisodeView } from '../../core/contract';
import { DbAtStep } from './db-at-step';
import { DbDiff } from './db-diff';
import { OutputsPanel } from './outputs-panel';
import { SideTabs, TabPanel } from '../../ui/panel-tabs';
import { ReferenceActions } from './reference-actions';
import type { PhoneView, SidePanel, TabItem } from './screen-types';
import { SideColumnFrame } from '../../ui/screen-frame';
import { TaskInstruction } from './task-instruction';
import type { EpisodePointers } from './use-episode-nav';

/**
 * The side column: the user's goal, then one panel at a time under its tab (DB at the step, DB
 * diff, outputs, and the app's panels), in a box of its own that scrolls.
 */
export function SideColumn(props: {
  view: EpisodeView;
  step: number;
  tabs: readonly TabItem[];
  current: string;
  onPick: (id: string) => void;
  panels: readonly SidePanel[];
  pointers: EpisodePointers;
  instructionOpen: boolean;
  onToggleInstruction: () => void;
  phone: PhoneView;
  sideHidden: boolean;
}) {
  const { view, step, tabs, current, onPick, panels, pointers: p } = props;
  const extra = panels.find((x) => x.id === current);
  return (
    <SideColumnFrame label="Episode details" phone={props.phone} sideHidden={props.sideHidden}>
      <TaskInstruction instruction={view.instruction} strategy={view.strategy} open={props.instructionOpen} onToggle={props.onToggleInstruction} />
      <SideTabs tabs={tabs} current={current} onPick={onPick} />
      <TabPanel current={current} className="p-2">
        {current === 'db' && <DbAtStep steps={view.steps} step={step} onSelect={p.jump} />}
        {current === 'diff' && (
          <div className="space-y-3">
            <DbDiff view={view} onStep={p.jump} onReference={p.nav.reference} />
            <ReferenceActions reference={view.reference} selected={p.reference?.index ?? null} nonce={p.reference?.nonce ?? 0} />
          </div>
        )}
        {current === 'outputs' && <OutputsPanel view={view} active={p.activeOutput} onFound={p.onFound} onElsewhere={p.onElsewhere} onNear={p.onNear} />}
        {extra && <PanelSlot panel={extra} view={view} step={step} onStep={p.select} nav={p.nav} />}
      </TabPanel>
    </SideColumnFrame>
  );
}

function PanelSlot(props: { panel: SidePanel; view: EpisodeView; step: number; onStep: (n: number) => void; nav: EpisodePointers['nav'] }) {
  const { panel, ...ctx } = props;
  return panel.render(ctx);
}
