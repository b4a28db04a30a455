import { describeData, RULE_SHORT } from '../../core/contract';
import { useApp } from '../../ui/store-context';
import type { RunFacts } from './detection-line';

/** τ-bench's part of the run line: the data version and reward rule detected, each with its reason under "Why?". */
export const TAU_BENCH_FACTS: RunFacts = {
  Line() {
    const detection = useApp((s) => s.runs.a.detection);
    const origin = useApp((s) => s.runs.a.origin);
    const loading = useApp((s) => s.runs.a.dataProgress !== null && s.runs.a.dataError === null);
    if (!detection)
      return (
        <span className="hidden text-slate-600 sm:inline">
          {loading ? 'loading τ-bench data…' : 'no data yet: recomputed rewards appear once τ-bench data is loaded'}
        </span>
      );
    return (
      <>
        <span className="hidden sm:inline xl:shrink-0 xl:whitespace-nowrap">
          <span className="text-slate-600">τ-bench data </span>
          <span className="font-mono font-medium text-slate-800">{describeData(detection.data)}</span>
        </span>
        <span className="hidden sm:inline xl:shrink-0 xl:whitespace-nowrap">
          <span className="text-slate-600">Rule </span>
          <span className="font-medium text-slate-800">{detection.rule}</span>
          {!detection.ruleFinal && <span className="text-amber-700"> (provisional)</span>}
        </span>
        {origin && (
          <span className="hidden max-w-full min-w-0 truncate sm:inline-block sm:max-w-[26rem] sm:align-bottom" title={origin.label}>
            <span className="text-slate-600">Data from </span>
            <span className="text-slate-800" title={origin.label}>
              {origin.label}
            </span>
          </span>
        )}
      </>
    );
  },
  Why() {
    const detection = useApp((s) => s.runs.a.detection);
    if (!detection) return null;
    return (
      <>
        <dt className="text-slate-600">Data version</dt>
        <dd>
          <span className="font-mono break-all">{detection.dataCommit}</span>: {detection.versionWhy}
        </dd>
        <dt className="text-slate-600">Reward rule</dt>
        <dd>
          {detection.rule} ({RULE_SHORT[detection.rule]}): {detection.ruleWhy}
        </dd>
        <dt className="text-slate-600">Data source</dt>
        <dd className="break-all">{detection.dataSource}</dd>
      </>
    );
  },
};
