import type { ReactNode } from 'react';
import { FoldedText } from './folded-text';

/** One field that differs between the two sides of a DB diff, as both benchmarks' diffs give it (core's one jsondiffpatch pipeline). */
export interface FieldDiffRow {
  readonly path: string;
  readonly kind: 'added' | 'removed' | 'changed' | 'moved';
  /** Each side's value as text; null where the field is absent. */
  readonly left: string | null;
  readonly right: string | null;
  readonly intVsFloat: boolean;
  /** The call that last wrote the field on each side (a link), when the benchmark's diff knows it per field. */
  readonly leftWrite?: ReactNode;
  readonly rightWrite?: ReactNode;
}

/** How a side is named: `agent` / `reference` (τ-bench), `predicted` / `gold` (τ²), and the DB it stands for. */
export interface DiffSide {
  readonly name: string;
  readonly db: string;
}

const PRE = 'whitespace-pre-wrap break-words font-mono text-[12px] leading-[1.45]';

/**
 * The fields of one record that differ, each with both sides' values (left rose, right emerald), the kind of difference
 * and, where known, the call that last wrote it: the one rendering of a DB diff's fields for every benchmark.
 */
export function FieldDiffList(props: { rows: readonly FieldDiffRow[]; left: DiffSide; right: DiffSide; intFloatNote: string; testId?: string }) {
  const { rows, left, right, intFloatNote } = props;
  return (
    <ul className="divide-y divide-slate-100" data-testid={props.testId}>
      {rows.map((f, i) => (
        <li key={i} className="px-2 py-1.5 text-xs" data-testid="diff-field" data-kind={f.kind}>
          <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
            <code className="font-mono font-semibold break-words text-slate-900">
              <FoldedText text={f.path} />
            </code>
            <span className="text-[11px] text-slate-600">
              {f.kind === 'added' ? `only in ${left.db}` : f.kind === 'removed' ? `only in ${right.db}` : f.kind}
            </span>
            {f.intVsFloat && (
              <span className="rounded bg-fuchsia-100 px-1 text-[11px] font-semibold text-fuchsia-900" title={intFloatNote}>
                int vs float: equal numbers, different hash
              </span>
            )}
          </div>
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            <div className="min-w-0 rounded bg-rose-50 px-1.5 py-1">
              <div className="flex flex-wrap items-center gap-1 text-[11px] text-rose-800">
                <span className="font-semibold">{left.name}</span>
                {f.leftWrite}
              </div>
              <pre className={`${PRE} text-rose-950`}>
                <FoldedText text={f.left ?? '(absent)'} />
              </pre>
            </div>
            <div className="min-w-0 rounded bg-emerald-50 px-1.5 py-1">
              <div className="flex flex-wrap items-center gap-1 text-[11px] text-emerald-800">
                <span className="font-semibold">{right.name}</span>
                {f.rightWrite}
              </div>
              <pre className={`${PRE} text-emerald-950`}>
                <FoldedText text={f.right ?? '(absent)'} />
              </pre>
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
