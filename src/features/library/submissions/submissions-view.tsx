import { claimFlagText, formatPercent, type SubmissionDomain, type SubmissionView } from '../../../core/contract';
import { safeLabel } from '../../../ui/fold';
import { useApp } from '../../../ui/store-context';

const TH = 'px-2 py-1 text-left font-semibold text-slate-700';
const TD = 'px-2 py-0.5 tabular-nums whitespace-nowrap';

function DomainRows({ d }: { d: SubmissionDomain }) {
  const file = d.file === null ? 'no trajectory file named' : safeLabel(d.file, 120);
  const facts = d.missing
    ? 'missing: named in trajectory_files, not under trajectories/'
    : d.error !== null
      ? safeLabel(d.error, 300)
      : d.file === null
        ? ''
        : `${d.tasks} tasks × ${d.trials} trials (${d.simulations} simulations${d.notEvaluable > 0 ? `, ${d.notEvaluable} not evaluable: counted as failed` : ''}${
            d.evaluateTrajsDiffers > 0 ? `, ${d.evaluateTrajsDiffers} judged otherwise by τ²’s evaluate-trajs` : ''
          })`;
  return (
    <>
      <tr className="border-t border-slate-200 bg-slate-50" data-testid="submission-domain" data-domain={d.domain} data-missing={d.missing}>
        <td className={`${TD} font-semibold`}>{safeLabel(d.domain, 60)}</td>
        <td className={TD} colSpan={5}>
          <span className="font-mono">{file}</span>
          {facts && <span className={d.missing || d.error !== null ? ' text-amber-900' : ' text-slate-600'}> · {facts}</span>}
        </td>
      </tr>
      {d.passK.map((p) => {
        const flag = claimFlagText(p);
        return (
          <tr key={p.k} data-testid="submission-passk" data-domain={d.domain} data-k={p.k} data-flag={p.flag ?? ''} className={p.flag ? 'bg-rose-50' : ''}>
            <td className={TD} />
            <td className={TD}>pass^{p.k}</td>
            <td className={TD} data-testid="claimed">
              {formatPercent(p.claimed)}
            </td>
            <td className={TD} data-testid="recomputed">
              {formatPercent(p.recomputed)}
            </td>
            <td className={`${TD} text-slate-600`}>{formatPercent(p.recorded)}</td>
            <td className={`${TD} text-rose-800`}>{flag ?? ''}</td>
          </tr>
        );
      })}
      {(d.claimedCost !== null || d.recordedCost !== null) && (
        <tr data-testid="submission-cost" data-domain={d.domain}>
          <td className={TD} />
          <td className={TD} title="USD per trajectory: claimed as results.<domain>.cost; recorded as the mean agent_cost of the simulations">
            cost
          </td>
          <td className={TD}>{d.claimedCost ?? '—'}</td>
          <td className={TD} />
          <td className={`${TD} text-slate-600`}>{d.recordedCost ?? '—'}</td>
          <td className={TD} />
        </tr>
      )}
    </>
  );
}

function Entry({ v }: { v: SubmissionView }) {
  return (
    <section className="border-b border-slate-200 px-2 py-2" data-testid="submission-entry" data-entry={v.entry} data-flagged={v.flagged}>
      <h4 className="text-sm font-semibold text-slate-900">
        {safeLabel(v.modelName ?? '(no model_name)', 120)}
        <span className="font-normal text-slate-600">
          {v.organization ? ` · ${safeLabel(v.organization, 120)}` : ''}
          {v.submissionType ? ` · ${safeLabel(v.submissionType, 20)}` : ''} · <span className="font-mono">{safeLabel(v.entry, 160)}</span>
        </span>
      </h4>
      {v.errors.length > 0 && (
        <ul className="mt-1 ml-4 list-disc text-xs text-amber-900" data-testid="submission-errors" aria-label="What submission.json gets wrong">
          {v.errors.map((e) => (
            <li key={e}>submission.json: {safeLabel(e, 400)}</li>
          ))}
        </ul>
      )}
      {v.notes.length > 0 && (
        <ul className="mt-1 ml-4 list-disc text-xs text-slate-700" data-testid="submission-notes">
          {v.notes.map((n) => (
            <li key={n}>{safeLabel(n, 400)}</li>
          ))}
        </ul>
      )}
      {v.missingFiles.length > 0 && (
        <p className="mt-1 text-xs text-amber-900" data-testid="submission-missing">
          Named in trajectory_files but not under trajectories/: {v.missingFiles.map((f) => safeLabel(f, 120)).join(', ')}
        </p>
      )}
      {v.unnamedFiles.length > 0 && (
        <p className="mt-1 text-xs text-slate-600">
          Under trajectories/ but not named in trajectory_files: {v.unnamedFiles.map((f) => safeLabel(f, 120)).join(', ')}
        </p>
      )}
      <div className="mt-1 overflow-x-auto">
        <table className="text-xs">
          <thead>
            <tr>
              <th className={TH}>Domain</th>
              <th className={TH}>File · pass^k</th>
              <th className={TH} title="As submission.json claims it (results.<domain>.pass_k, percent)">
                Claimed
              </th>
              <th className={TH} title="tau-inspect's judge over the trajectories, τ²'s pass^k (a simulation it cannot judge counts as failed)">
                Recomputed
              </th>
              <th className={TH} title="From the rewards the trajectory file records (what the leaderboard's maintainers recompute)">
                Recorded
              </th>
              <th className={TH}>
                <span className="sr-only">Difference</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {v.domains.map((d) => (
              <DomainRows key={d.domain} d={d} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A folder of leaderboard submissions: per entry and domain, the claimed pass^k beside the recomputed and recorded ones. */
export function SubmissionsView() {
  const subs = useApp((s) => s.library.submissions ?? null);
  if (subs === null || subs.length === 0) return null;
  const flagged = subs.reduce((n, v) => n + v.flagged, 0);
  return (
    <div data-testid="submissions-view" className="border-b border-slate-300">
      <h3 className="px-2 pt-2 text-sm font-semibold text-slate-900">
        Leaderboard submissions{' '}
        <span className="font-normal text-slate-600">
          · {subs.length} entr{subs.length === 1 ? 'y' : 'ies'} · {flagged} claim{flagged === 1 ? '' : 's'} beyond {flagged === 1 ? 'its' : 'their'} rounding
          from the recomputed pass^k
        </span>
      </h3>
      {subs.map((v) => (
        <Entry key={v.entry} v={v} />
      ))}
    </div>
  );
}
