import { DEFAULT_DATA_BASE, hashEvidenceText, inertJson } from '../../core/contract';
import { openSession } from '../open-session';
import { explainTau2, readTau2Run } from '../tau2/commands';
import { terminalSafe } from '../terminal';
import { JUDGING_OPTIONS, parseCommand, positionalFiles, judgingOptions, UsageError } from '../usage';

export const USAGE = `usage: tau-inspect explain RESULTS.json --episode N [--data DIR_OR_URL] [--json] [--domain retail|airline]
                           [--data-version COMMIT] [--rule db-and-outputs|outputs-only]

  How τ-bench judged one episode, in order: which messages became which actions, the replay
  and its writes, how the episode ended, the reference replay, the two hashes, each required
  output and where it matched, the rule of the data version and the final arithmetic; then
  what τ-bench does not count (procedure findings, blind spots of its rule).

  --episode       the episode's position in the file (0-based, as in evaluate's first column)
  --json          {"lines": [{"text", "step"?, "record"?, "gold"?}], "findings": [...],
                  "missing_outputs": [{"output", "near": [{"text", "kind", "detail", "step"}]}]}
                  (steps and reference actions 0-based)
  --data, --domain, --data-version, --rule   as for evaluate`;

const OPTIONS = { ...JUDGING_OPTIONS, episode: { type: 'string' } } as const;

/** Who last wrote a value: the last call that wrote it, even with the value it already had. */
const agentBlame = (step: number | null): string => (step === null ? 'no agent call touched it' : `last written by step ${step + 1}`);
const referenceBlame = (gold: number | null): string => (gold === null ? 'no reference action touched it' : `last written by reference action ${gold + 1}`);

/** `tau-inspect explain RESULTS.json --episode N …` */
export async function explainCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(args, OPTIONS, USAGE);
  if (parsed === null) return 0;
  const { values, positionals } = parsed;
  const [file] = positionalFiles(positionals, 1, 1, 'missing RESULTS.json');
  if (values.episode === undefined) throw new UsageError('missing --episode N');
  if (!/^\d+$/.test(values.episode)) throw new UsageError(`--episode must be a whole number, not '${values.episode}'`);
  const judging = judgingOptions(values);
  const tau2 = await readTau2Run(file!);
  if (tau2 !== null) {
    await explainTau2(tau2, values.data, Number(values.episode), values.json === true);
    return 0;
  }
  const data = values.data ?? (process.env.TAU_BENCH_DATA || DEFAULT_DATA_BASE);
  const session = await openSession(file!, data, judging);
  const index = Number(values.episode);
  if (index >= session.records.length)
    throw new UsageError(
      `--episode ${index} is out of range: the file has ${session.records.length} episode${session.records.length === 1 ? '' : 's'} (0 to ${session.records.length - 1})`,
    );
  // The rule is settled over the whole file, as in evaluate.
  session.evaluateAll();
  const view = session.view(index);
  if ('error' in view) {
    process.stderr.write(`tau-inspect: episode ${index} cannot be evaluated: ${terminalSafe(view.error)}\n`);
    return 1;
  }
  if (values.json) {
    const lines = view.walkthrough.map((l) => ({
      text: l.text,
      ...(l.step !== undefined && { step: l.step }),
      ...(l.record !== undefined && { record: l.record }),
      ...(l.gold !== undefined && { gold: l.gold }),
    }));
    const findings = view.findings.map((f) => ({ kind: f.kind, step: f.step, text: f.text }));
    const near = (view.outputs ?? [])
      .filter((o) => !o.found)
      .map((o) => ({ output: o.output, near: o.near.map((n) => ({ text: n.text, kind: n.kind, detail: n.detail, step: n.stepIndex })) }));
    process.stdout.write(inertJson({ lines, findings, missing_outputs: near }) + '\n');
    return 0;
  }
  const d = session.detection();
  const out: string[] = [
    `Episode ${index} · task ${session.records[index]!.taskId ?? '-'} · ${d.domain}, data ${d.dataCommit.slice(0, 7)}, rule ${d.rule}`,
    ...(d.hashes && d.hashes.recorded > 0 ? [terminalSafe(`Data version from every recorded hash: ${hashEvidenceText(d.hashes)}`)] : []),
    '',
  ];
  out.push('How τ-bench judged this episode');
  for (const l of view.walkthrough) out.push(`${l.level === 1 ? '    ' : ''}${l.text}`);
  const missing = (view.outputs ?? []).filter((o) => !o.found);
  if (missing.length > 0) {
    out.push('', 'Required outputs not found: the closest things the agent did say');
    for (const o of missing) {
      if (o.near.length === 0) {
        out.push(`  "${o.output}": nothing near it in any respond message`);
        continue;
      }
      const sum = o.near.find((n) => n.kind === 'part-of-sum');
      out.push(`  "${o.output}":${sum ? ` the agent said the parts but never the sum (${sum.detail})` : ''}`);
      for (const n of o.near) out.push(`    step ${n.stepIndex + 1}: ${n.text} (${n.kind === 'part-of-sum' ? 'part of the sum' : `${n.kind}: ${n.detail}`})`);
    }
  }
  if (view.findings.length > 0) {
    out.push('', 'Not counted by τ-bench');
    for (const group of ['blind-spot', 'procedure'] as const) {
      const fs = view.findings.filter((f) => f.group === group);
      if (fs.length === 0) continue;
      out.push(group === 'blind-spot' ? '  Blind spots of the evaluator' : '  Procedure (from the domain policy; a heuristic reading of the dialogue)');
      for (const f of fs) out.push(`    [${f.kind}]${f.step === null ? '' : ` step ${f.step + 1}`}: ${f.text}`);
    }
  }
  const a = view.alignment;
  if (a.pairs.length > 0) {
    out.push('', 'Agent calls vs reference actions');
    for (const p of a.pairs) {
      const where = `${p.gold === null ? '      ' : `ref ${String(p.gold + 1).padEnd(2)}`} ${p.step === null ? '       ' : `step ${String(p.step + 1).padEnd(2)}`}`;
      const mark = a.firstDivergentWrite && a.firstDivergentWrite.gold === p.gold && a.firstDivergentWrite.step === p.step ? '  ← first divergent write' : '';
      out.push(`  ${where}  ${p.match.padEnd(10)} ${p.write ? 'write' : 'read '} ${p.name}${p.failed ? ' (failed)' : ''}${mark}`);
      for (const arg of p.args) out.push(`        ${arg.name}: agent ${arg.agent ?? '(absent)'} · reference ${arg.reference ?? '(absent)'}`);
    }
    for (const d of a.dbDiffs) {
      out.push(`  ${d.record} differs: ${agentBlame(d.step)}; ${referenceBlame(d.gold)}`);
      const fields = view.diff.find((r) => `${r.table}/${r.key}` === d.record)?.fields ?? [];
      for (const f of fields)
        out.push(
          `        ${f.path}: agent ${f.agent ?? '(absent)'}, ${agentBlame(f.agentStep)} · reference ${f.reference ?? '(absent)'}, ${referenceBlame(f.referenceStep)}`,
        );
    }
  }
  process.stdout.write(out.map(terminalSafe).join('\n') + '\n');
  return 0;
}
