import type { ReactNode } from 'react';
import { formatRecorded, formatReward, taskLabel, type EpisodeHeader } from '../core/contract';
import { Button } from './button';
import { safeLabel } from './fold';
import { LongId } from './long-id';
import { ListToggle } from './list-toggle';
import { useApp, useAppStore } from './store-context';

/** What the open row is called: a τ-bench episode or a τ² simulation. */
export type PaneNoun = 'episode' | 'simulation';

/** Characters of a task id the title shows (the rest abbreviated in the middle). */
const TITLE_TASK_CHARS = 64;

const title = (noun: PaneNoun): string => (noun === 'episode' ? 'Episode' : 'Simulation');

/**
 * The open episode's or simulation's pane (`#episode-pane`, focused when a row is opened): its
 * title bar, then the screen.
 */
export function Pane(props: { testId: string; className?: string; children: ReactNode }) {
  return (
    <div className={`flex min-h-0 min-w-0 flex-1 flex-col @container/pane ${props.className ?? ''}`} data-testid={props.testId} id="episode-pane" tabIndex={-1}>
      {props.children}
    </div>
  );
}

/**
 * The title bar of an open episode or simulation: the list toggle, "Episode n · task · trial ·
 * recorded · recomputed" (and the what-if's reward while one is shown), then previous/next, next
 * failed, the side column's toggle (`side`) and close. `tools` go before the arrows.
 */
export function PaneTitle(props: {
  noun: PaneNoun;
  index: number;
  header: EpisodeHeader;
  /** The recomputed reward (null or absent: not judged yet). */
  recomputed: number | null | undefined;
  /** The what-if's reward: absent, no what-if; null, being judged. */
  whatIf?: number | null | undefined;
  tools?: ReactNode;
  /** Shows the side column's toggle (on wide panes). */
  side?: boolean;
}) {
  const { noun, index, header, recomputed, whatIf } = props;
  // The task as its benchmark names it (a telecom id may be 200 characters): whole where it fits, else abbreviated in
  // the middle; the whole title on hover. The title wraps rather than being cut.
  const task = taskLabel(header);
  const store = useAppStore();
  const sideHidden = useApp((s) => s.layout.sideHidden);
  const s = store.getState;
  const Noun = title(noun);
  // An episode carried in a link is the only one of its file: named by its place where it was shared.
  const sharedIndex = useApp((st) => (st.runs.a.source?.embedded !== undefined && st.sharedFrom?.index != null ? st.sharedFrom.index : null));
  const sharedFile = useApp((st) => (st.runs.a.source?.embedded !== undefined ? (st.sharedFrom?.file ?? null) : null));
  const line = `${title(noun)} ${sharedIndex ?? index} · task ${safeLabel(task, 2000)} · trial ${header.trial ?? '—'} · recorded ${formatRecorded(header)}${
    recomputed !== null && recomputed !== undefined ? ` · recomputed ${formatReward(recomputed)}` : ''
  }`;
  return (
    <div className="flex items-center gap-1.5 border-b border-slate-200 bg-white px-2 py-1">
      <ListToggle noun={noun} />
      <h2
        className="min-w-[5.5rem] flex-1 text-sm font-semibold [overflow-wrap:anywhere] text-slate-900"
        title={sharedFile === null ? line : `${line} — ${Noun} ${sharedIndex ?? index} of ${sharedFile.slice(0, 300)}, shared in a link`}
        data-testid="pane-title-text"
      >
        <span data-testid="pane-title-name">
          {Noun} {sharedIndex ?? index}
          {sharedIndex !== null && <span className="font-normal text-slate-600"> (shared)</span>}
        </span>
        <span className="font-normal text-slate-600">
          {' '}
          · task <LongId id={task} max={TITLE_TASK_CHARS} /> · trial {header.trial ?? '—'} · recorded {formatRecorded(header)}
          {recomputed !== null && recomputed !== undefined && ` · recomputed ${formatReward(recomputed)}`}
          {whatIf !== undefined && (
            <strong className="font-semibold text-violet-800" data-testid="title-what-if">
              {' '}
              · what-if {whatIf === null ? '…' : formatReward(whatIf)}
            </strong>
          )}
        </span>
      </h2>
      <div className="flex shrink-0 items-center gap-1">
        {props.tools}
        <Button onClick={() => s().stepEpisode(-1)} aria-label={`Previous ${noun} (p)`} title={`Previous ${noun} (p)`}>
          ‹
        </Button>
        <Button onClick={() => s().stepEpisode(1)} aria-label={`Next ${noun} (n)`} title={`Next ${noun} (n)`}>
          ›
        </Button>
        <Button onClick={() => s().stepEpisode(1, true)} className="whitespace-nowrap" aria-label={`Next failed ${noun} (f)`} title={`Next failed ${noun} (f)`}>
          {/* On phones a short label, so the title keeps its room. */}
          <span className="sm:hidden" aria-hidden="true">
            ✗›
          </span>
          <span className="hidden sm:inline">next failed</span>
        </Button>
        {props.side && (
          <Button
            onClick={() => s().toggleLayout('sideHidden')}
            className="hidden whitespace-nowrap @3xl/pane:inline-block"
            aria-pressed={!sideHidden}
            title="Show or hide the side column (s)"
          >
            {sideHidden ? 'Side ⇠' : 'Side ⇥'}
          </Button>
        )}
        <Button onClick={() => s().select(null)} className="hidden lg:inline-block" aria-label={`Close the ${noun} (Esc)`} title={`Close the ${noun} (Esc)`}>
          ✕
        </Button>
      </div>
    </div>
  );
}
