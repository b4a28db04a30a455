import { formatPassK, type PassK } from '../core/contract';

const W = 240;
const H = 110;
const PAD = { l: 26, r: 6, t: 12, b: 18 };
const INSET = 12;

function path(points: readonly PassK[], x: (k: number) => number, y: (v: number) => number): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.k).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
}

/**
 * pass^k for k = 1..trials: recomputed (solid) against recorded (dashed); the comparison of two
 * runs draws run B solid and run A dashed (`labels`).
 */
export function PassKChart({
  recomputed,
  recorded,
  complete,
  labels = { solid: 'recomputed', dashed: 'recorded' },
  testId = 'pass-k-chart',
}: {
  recomputed: readonly PassK[];
  recorded: readonly PassK[];
  complete: boolean;
  labels?: { readonly solid: string; readonly dashed: string };
  testId?: string;
}) {
  const n = Math.max(recomputed.length, recorded.length, 1);
  /** Every k is labelled up to ten trials; past that every `tick`-th. */
  const tick = n <= 10 ? 1 : Math.ceil(n / 10);
  const x = (k: number): number => PAD.l + INSET + (n === 1 ? (W - PAD.l - PAD.r) / 2 - INSET : ((k - 1) / (n - 1)) * (W - PAD.l - PAD.r - 2 * INSET));
  const y = (v: number): number => PAD.t + (1 - v) * (H - PAD.t - PAD.b);
  const summary = formatPassK(complete ? recomputed : recorded, ', ');
  const dashedSummary = formatPassK(recorded, ', ');
  return (
    <figure className="min-w-0">
      <figcaption className="flex items-baseline justify-between gap-2 text-[11px] font-semibold tracking-wide text-slate-600 uppercase">
        <span>pass^k</span>
        <span className="flex items-center gap-2 font-normal tracking-normal normal-case">
          <span className="inline-flex items-center gap-1">
            <span className="inline-block h-0.5 w-3 bg-indigo-600" aria-hidden="true" />
            {labels.solid}
          </span>
          <span className="inline-flex items-center gap-1">
            <span className="inline-block h-0 w-3 border-t border-dashed border-slate-400" aria-hidden="true" />
            {labels.dashed}
          </span>
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="mt-1 h-auto w-full max-w-[20rem]"
        role="img"
        aria-label={`pass^k curve, ${labels.solid}: ${summary || 'no data yet'}; ${labels.dashed}: ${dashedSummary || 'none'}`}
        data-testid={testId}
      >
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(v)} y2={y(v)} className="stroke-slate-200" strokeWidth={v === 0 ? 1 : 0.5} />
            <text x={PAD.l - 4} y={y(v) + 3} textAnchor="end" className="fill-slate-400 text-[9px]">
              {v.toFixed(2).replace(/0$/, '')}
            </text>
          </g>
        ))}
        {/* k = 1..n under the axis: "k" once, then bare numbers; past ten, every `tick`-th (and the last), so they never run together. */}
        <text x={PAD.l - 4} y={H - 5} textAnchor="end" className="fill-slate-500 text-[9px]">
          k
        </text>
        {Array.from({ length: n }, (_, i) => i + 1)
          .filter((k) => k === 1 || k === n || (k % tick === 0 && n - k >= tick / 2))
          .map((k) => (
            <text key={k} x={x(k)} y={H - 5} textAnchor="middle" className="fill-slate-500 text-[9px]">
              {k}
            </text>
          ))}
        {recorded.length > 0 && <path d={path(recorded, x, y)} fill="none" className="stroke-slate-400" strokeWidth={1.2} strokeDasharray="3 2" />}
        {!complete && (
          <text x={(PAD.l + W - PAD.r) / 2} y={PAD.t + 12} textAnchor="middle" className="fill-slate-400 text-[9px]">
            recomputed: once all are evaluated
          </text>
        )}
        {complete && recomputed.length > 0 && <path d={path(recomputed, x, y)} fill="none" className="stroke-indigo-600" strokeWidth={1.8} />}
        {(complete ? recomputed : []).map((p) => (
          <g key={p.k}>
            <circle cx={x(p.k)} cy={y(p.value)} r={2.4} className="fill-indigo-600" />
            {/* Values only where they do not collide: all of them up to 5 points, else the first and the last. */}
            {(n <= 5 || p.k === 1 || p.k === n) && (
              <text x={x(p.k)} y={y(p.value) - 5} textAnchor="middle" className="fill-slate-700 text-[9px] font-medium">
                {p.value.toFixed(2)}
              </text>
            )}
            <title>{`pass^${p.k} = ${p.value.toFixed(3)}`}</title>
          </g>
        ))}
      </svg>
    </figure>
  );
}
