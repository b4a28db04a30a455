import type { ReactNode } from 'react';
import type { EpisodeView } from '../../core/contract';
import type { Detection } from '../../core/contract';
import { formatRecorded, formatReward, RULE_TEXT } from '../../core/contract';
import { CopyButton } from './copy-button';
import { plural } from '../../ui/text';
import { Button } from '../../ui/button';
import { Chip } from '../../ui/chip';
import { REASON_CLASS, REASON_LABEL } from './ui';

export type PanelTab = 'db' | 'diff' | 'outputs' | 'notes';

/** The verdict's reasons as chips (a wide panel shows them beside the sentence, a narrow one in the details). */
function ReasonChips({ reasons, className }: { reasons: EpisodeView['verdict']['reasons']; className: string }) {
  return (
    <ul className={className} aria-label="Reasons">
      {reasons.map((r, i) => (
        <Chip key={i} as="li" shape="pill" title={r.text} tone={REASON_CLASS[r.code]}>
          {REASON_LABEL[r.code]}
        </Chip>
      ))}
    </ul>
  );
}

function Badge(props: { ok: boolean | null; children: ReactNode }) {
  const tone = props.ok === null ? 'bg-slate-200 text-slate-700' : props.ok ? 'bg-emerald-100 text-emerald-900' : 'bg-rose-100 text-rose-900';
  return <span className={`rounded px-1.5 py-px text-[11px] font-semibold ${tone}`}>{props.children}</span>;
}

function Part(props: { title: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 rounded border border-slate-200 bg-white px-2.5 py-1.5" data-testid={props.testId}>
      <h3 className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-600">{props.title}</h3>
      <div className="space-y-1 text-xs text-slate-800">{props.children}</div>
    </div>
  );
}

function Hash(props: { label: string; hash: string; same: boolean }) {
  return (
    <div className="grid grid-cols-[5.5rem_1fr_auto] items-start gap-x-2">
      <span className="pt-0.5 text-[11px] font-medium text-slate-600">{props.label}</span>
      <code
        className={`min-w-0 select-all break-all rounded px-1 py-0.5 font-mono text-[11px] leading-4 ${props.same ? 'bg-emerald-50 text-emerald-950' : 'bg-rose-50 text-rose-950'}`}
        data-testid={`hash-${props.label.split(' ')[0]!.toLowerCase()}`}
      >
        {props.hash}
      </code>
      <CopyButton text={props.hash} label={`Copy ${props.label}`} />
    </div>
  );
}

/**
 * The verdict: one line (reward, recomputed vs recorded, the sentence, the reasons) that expands
 * into the DB check, the outputs check, the ending and the rule. Collapsed, the details stay in
 * the page (hidden), so their text is still there for find-in-page and tests.
 */
export function VerdictPanel(props: {
  view: EpisodeView;
  detection: Detection;
  onShow: (tab: PanelTab) => void;
  /** Details shown (default: shown, for a screen without a layout to remember). */
  open?: boolean;
  /** The episode as recorded, when \`view\` is a what-if replay of it: its verdicts are shown beside the edited one. */
  unedited?: EpisodeView | undefined;
  /** On a phone's verdict tab the details show whatever \`open\` says (wider screens follow \`open\`). */
  phoneOpen?: boolean;
  onToggle?: () => void;
}) {
  const { view, detection, onShow, open = true, phoneOpen = false, onToggle, unedited } = props;
  const v = view.verdict;
  const hashesMatch = v.agentHash === v.gtHash;
  const outputs = view.outputs;
  const found = outputs?.filter((o) => o.found).length ?? 0;
  const recomputedAgrees = v.recordedReward === null ? null : v.recordedReward === v.reward;
  const pass = v.reward === 1;
  const detailsId = `verdict-details-${view.index}`;
  return (
    <section aria-labelledby="verdict-title" className="rounded-md border border-slate-200 bg-slate-50 px-2 py-1" data-testid="verdict-panel" data-open={open}>
      <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 @2xl:flex-nowrap">
        <h2 id="verdict-title" className="sr-only">
          Verdict
        </h2>
        <span
          className={`shrink-0 rounded px-1.5 font-mono text-base font-bold ${pass ? 'bg-emerald-600 text-white' : 'bg-rose-600 text-white'}`}
          data-testid="verdict-reward"
          // A named image of the number: a plain span may not carry a name (ARIA prohibits it on generic).
          role="img"
          aria-label={`Reward ${formatReward(v.reward)}`}
        >
          {formatReward(v.reward)}
        </span>
        {unedited ? (
          <span className="shrink-0 text-[11px] leading-tight whitespace-nowrap text-slate-600" data-testid="verdict-what-if">
            <strong className="text-violet-800">what-if</strong> <strong className="font-mono text-slate-900">{formatReward(v.reward)}</strong> · unedited:
            recomputed <strong className="font-mono text-slate-900">{formatReward(unedited.verdict.reward)}</strong> · recorded{' '}
            <strong className="font-mono text-slate-900">{formatRecorded(unedited.verdict)}</strong>
          </span>
        ) : (
          <span className="shrink-0 text-[11px] leading-tight whitespace-nowrap text-slate-600">
            recomputed <strong className="font-mono text-slate-900">{formatReward(v.reward)}</strong> · recorded{' '}
            <strong className="font-mono text-slate-900">{formatRecorded(v)}</strong>{' '}
            {recomputedAgrees === false ? <Badge ok={false}>disagree</Badge> : recomputedAgrees ? <Badge ok>agree</Badge> : null}
          </span>
        )}
        <p
          className="order-last min-w-0 basis-full text-sm leading-snug text-slate-900 [overflow-wrap:anywhere] @2xl:order-none @2xl:basis-0 @2xl:flex-1"
          data-testid="verdict-sentence"
        >
          {v.sentence}
        </p>
        {onToggle && (
          <Button
            onClick={onToggle}
            aria-expanded={open}
            aria-controls={detailsId}
            className={`ml-auto shrink-0 whitespace-nowrap ${phoneOpen ? 'hidden @3xl/screen:inline-block' : ''}`}
            title="Verdict details (v)"
            data-testid="verdict-toggle"
          >
            {open ? 'Less ▴' : 'Details ▾'}
          </Button>
        )}
      </div>
      <div id={detailsId} className={open ? '' : phoneOpen ? '@3xl/screen:hidden' : 'hidden'} data-testid="verdict-details">
        {v.reasons.length > 0 && <ReasonChips reasons={v.reasons} className="mt-1.5 flex flex-wrap gap-1" />}
        <div className="mt-2 grid gap-2 @2xl:grid-cols-2 @6xl:grid-cols-4">
          <Part title="DB check" testId="verdict-db">
            <div className="flex flex-wrap items-center gap-1.5">
              {hashesMatch ? <Badge ok>hashes match</Badge> : <Badge ok={false}>hashes differ</Badge>}
              {!v.dbChecked && <Badge ok={null}>not counted under this rule</Badge>}
              {!hashesMatch && (
                <Button variant="link" onClick={() => onShow('diff')}>
                  {plural(view.diff.length, 'record')} {view.diff.length === 1 ? 'differs' : 'differ'}: show diff
                </Button>
              )}
            </div>
            <Hash label="agent DB" hash={v.agentHash} same={hashesMatch} />
            <Hash label="reference DB" hash={v.gtHash} same={hashesMatch} />
            {v.recordedGtHash !== null && (
              <p className="text-[11px] text-slate-600">
                The file's recorded <code className="font-mono">gt_data_hash</code> {v.recordedGtHash === v.gtHash ? 'equals' : 'differs from'} the reference
                hash
                {v.recordedGtHash !== v.gtHash && (
                  <>
                    {' '}
                    (<code className="break-all font-mono">{v.recordedGtHash}</code>)
                  </>
                )}
                .
              </p>
            )}
          </Part>
          <Part title="Outputs check" testId="verdict-outputs">
            {outputs === null ? (
              <p>The task lists no required outputs.</p>
            ) : (
              <>
                <div className="flex flex-wrap items-center gap-1.5">
                  <Badge ok={found === outputs.length}>
                    {found} of {outputs.length} found
                  </Badge>
                  <Button variant="link" onClick={() => onShow('outputs')}>
                    show outputs
                  </Button>
                </div>
                <p className="text-[11px] text-slate-600">Searched only in respond messages, case-insensitive, commas removed from the message.</p>
              </>
            )}
          </Part>
          <Part title="Ending" testId="verdict-ending">
            {v.done ? (
              <p>
                <Badge ok>ended</Badge>{' '}
                {v.doneBy === 'terminate_tool' ? 'the agent transferred to a human agent' : v.doneBy === 'stop' ? 'the user sent ###STOP###' : (v.doneBy ?? '')}
              </p>
            ) : (
              <>
                <p>
                  <Badge ok={false}>never ended</Badge> no ###STOP###, no transfer: τ-bench gave 0 without checking.
                </p>
                {v.hypotheticalReward !== null && (
                  <p>
                    Had it ended after the last step: <strong className="font-mono">{formatReward(v.hypotheticalReward)}</strong>
                  </p>
                )}
              </>
            )}
            {v.crash && <p className="text-red-800">Error: {v.crash}</p>}
          </Part>
          <Part title="Rule and data" testId="verdict-rule">
            <p>
              Rule <code className="font-mono font-semibold">{v.rule}</code>
              {!detection.ruleFinal && <span className="text-amber-800"> (provisional)</span>}: {RULE_TEXT[v.rule]}
            </p>
            <p>
              Data{' '}
              <code className="break-all font-mono font-semibold" title={v.dataCommit}>
                {v.dataCommit}
              </code>{' '}
              from {detection.dataSource}
            </p>
            <details className="text-[11px] text-slate-600">
              <summary className="cursor-pointer select-none">why these</summary>
              <p>Rule: {detection.ruleWhy}</p>
              <p>Data: {detection.versionWhy}</p>
            </details>
          </Part>
        </div>
      </div>
    </section>
  );
}
