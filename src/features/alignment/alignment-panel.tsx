import { Fragment } from 'react';
import { Button } from '../../ui/button';
import type { AlignmentMatch, EpisodeView } from '../../core/contract';

const MATCH: Readonly<Record<AlignmentMatch, { label: string; tone: string }>> = {
  same: { label: 'same', tone: 'bg-emerald-100 text-emerald-900' },
  'other-args': { label: 'other arguments', tone: 'bg-amber-100 text-amber-900' },
  missing: { label: 'missing', tone: 'bg-rose-100 text-rose-900' },
  extra: { label: 'extra', tone: 'bg-slate-200 text-slate-800' },
};

export interface AlignmentNav {
  step(n: number): void;
  reference(index: number): void;
  record(name: string): void;
}

/** The agent's tool calls lined up against the task's reference actions, argument by argument. */
export function AlignmentPanel(props: { view: EpisodeView; nav: AlignmentNav }) {
  const { view, nav } = props;
  const a = view.alignment;
  if (a.pairs.length === 0) return <p className="text-xs text-slate-600">Neither the agent nor the reference calls a tool.</p>;
  const first = a.firstDivergentWrite;
  return (
    <div className="space-y-2 text-xs" data-testid="alignment">
      <p className="text-slate-600">
        The agent’s tool calls against the task’s reference actions. τ-bench does not compare calls — only the final DBs — but a missing or different write is
        usually why they differ.
      </p>
      <table className="w-full border-collapse">
        <thead>
          <tr className="text-left text-[11px] text-slate-600">
            <th className="px-1 font-medium">reference</th>
            <th className="px-1 font-medium">agent</th>
            <th className="px-1 font-medium">tool</th>
            <th className="px-1 font-medium">match</th>
          </tr>
        </thead>
        <tbody>
          {a.pairs.map((p, i) => {
            const divergent = first !== null && first.gold === p.gold && first.step === p.step;
            return (
              <tr
                key={i}
                className={`border-t border-slate-100 align-top ${divergent ? 'bg-rose-50' : ''}`}
                data-testid="alignment-pair"
                data-match={p.match}
                data-write={p.write}
              >
                <td className="px-1 py-0.5 whitespace-nowrap">
                  {p.gold !== null && (
                    <Button variant="link" onClick={() => nav.reference(p.gold!)}>
                      ref {p.gold + 1}
                    </Button>
                  )}
                </td>
                <td className="px-1 py-0.5 whitespace-nowrap">
                  {p.step !== null && (
                    <Button variant="link" onClick={() => nav.step(p.step!)}>
                      step {p.step + 1}
                    </Button>
                  )}
                </td>
                <td className="px-1 py-0.5">
                  <code className="font-mono">{breakable(p.name)}</code>{' '}
                  <span className={p.write ? 'font-semibold text-rose-800' : 'text-slate-600'}>{p.write ? 'write' : 'read'}</span>
                  {p.failed && <span className="text-slate-600"> (failed)</span>}
                  {divergent && (
                    <strong className="ml-1 text-rose-800" data-testid="first-divergent-write">
                      first divergent write
                    </strong>
                  )}
                  {p.args.length > 0 && (
                    <ul className="mt-0.5 space-y-0.5" aria-label="Arguments that differ">
                      {p.args.map((arg) => (
                        <li key={arg.name} className="font-mono text-[11px] break-all" data-testid="arg-diff">
                          <span className="font-semibold">{arg.name}</span>: agent <span className="rounded bg-rose-50 px-0.5">{arg.agent ?? '(absent)'}</span>{' '}
                          · reference <span className="rounded bg-emerald-50 px-0.5">{arg.reference ?? '(absent)'}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="px-1 py-0.5">
                  <span className={`rounded px-1 text-[11px] font-semibold ${MATCH[p.match].tone}`}>{MATCH[p.match].label}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {a.dbDiffs.length > 0 && (
        <div>
          <p className="font-semibold text-slate-800">Who wrote each differing record</p>
          <ul className="space-y-0.5">
            {a.dbDiffs.map((d) => (
              <li key={d.record}>
                <Button variant="link" onClick={() => nav.record(d.record)}>
                  {d.record}
                </Button>
                : agent{' '}
                {d.step === null ? (
                  'never wrote it'
                ) : (
                  <Button variant="link" onClick={() => nav.step(d.step!)}>
                    step {d.step + 1}
                  </Button>
                )}
                , reference{' '}
                {d.gold === null ? (
                  'never wrote it'
                ) : (
                  <Button variant="link" onClick={() => nav.reference(d.gold!)}>
                    action {d.gold + 1}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** A tool's name that may wrap after each underscore (a narrow screen keeps the table's last column in view); its text unchanged. */
function breakable(name: string) {
  const parts = name.split('_');
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 && (
        <>
          _<wbr />
        </>
      )}
    </Fragment>
  ));
}
