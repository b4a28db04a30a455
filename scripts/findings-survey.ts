/**
 * Findings, alignment and rules over every results file in a folder (default ../shared/runs):
 * per-kind counts per file, and the checks the synthetic kinds make possible (`synthetic_kind`).
 * Usage: npx tsx scripts/findings-survey.ts [RUNS_DIR] [--data DIR]
 */
import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { openSession } from '../src/cli/open-session';

const args = process.argv.slice(2);
const dataAt = args.indexOf('--data');
const data = dataAt >= 0 ? args[dataAt + 1]! : resolve('../shared/tau-bench');
const runs = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--data') ?? resolve('../shared/runs');

const failures: string[] = [];
let skipped = 0;
const tables: string[] = [];
for (const file of readdirSync(runs)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const session = await openSession(join(runs, file), data, {});
  const reports = session.evaluateAll();
  const counts = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (const r of reports) {
    const record = session.records[r.index]!;
    const kind = record.extra.synthetic_kind ?? '';
    const kinds = new Set((r.findings ?? []).map((f) => f.kind));
    for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
    for (const p of r.alignment?.pairs ?? []) pairs.set(p.match, (pairs.get(p.match) ?? 0) + 1);
    const fail = (why: string): void => void failures.push(`${basename(file)} #${r.index} (${kind}): ${why}`);
    if (r.error) continue;
    const wrote = (r.steps ?? []).some((s, i) => {
      const ev = session.evaluation(r.index);
      return ev.ok && ev.value.replay.steps[i]!.changed.length > 0 && !s.observation.startsWith('Error');
    });
    // Tasks whose reference actions hold no write (or no call at all) cannot lose one.
    const goldWrites = r.alignment!.pairs.filter((p) => p.gold !== null && p.write).length;
    // The generator could only place an output beside a tool call where the episode has one: skip those whose text holds no output at all.
    const texts = record.traj
      .map((m) => m.get('content'))
      .filter((c): c is string => typeof c === 'string')
      .map((c) => c.toLowerCase().replace(/,/g, ''));
    const hasOutputs = Object.keys(r.outputs ?? {}).some((o) => texts.some((t) => t.includes(o.toLowerCase())));
    if (kind === 'gold-no-consent' && wrote && !kinds.has('write-without-consent')) fail('no write-without-consent');
    if (kind === 'gold' && kinds.has('write-without-consent')) fail('write-without-consent on a gold episode');
    if (kind === 'outputs-beside-toolcall' && hasOutputs && !kinds.has('output-outside-respond')) fail('no output-outside-respond');
    if (kind === 'drop-write' && goldWrites > 0) {
      if (!r.alignment!.pairs.some((p) => p.match === 'missing' && p.write)) fail('no missing pair on a write');
      if (r.alignment!.first_divergent_write === null) fail('no first_divergent_write');
    }
    if (kind.startsWith('wrong-arg') && goldWrites > 0 && !r.alignment!.pairs.some((p) => p.match === 'other-args')) fail('no other-args pair');
    if (
      (kind === 'drop-write' && goldWrites === 0) ||
      (kind.startsWith('wrong-arg') && goldWrites === 0) ||
      (kind === 'outputs-beside-toolcall' && !hasOutputs)
    )
      skipped++;
  }
  if (file === 'grok-4-tool-calling-retail.json' && !reports[3]!.findings!.some((f) => f.kind === 'output-inside-longer-token'))
    failures.push(`${file} #3: no output-inside-longer-token`);
  const row = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`);
  tables.push(
    `${file} (${reports.length} episodes)\n  findings (episodes with ≥1): ${row.join(', ') || 'none'}\n  pairs: ${[...pairs].map(([k, n]) => `${k} ${n}`).join(', ')}`,
  );
  process.stderr.write(`${file} done\n`);
}
process.stdout.write(tables.join('\n') + '\n');
if (failures.length > 0) {
  process.stdout.write(`\n${failures.length} expectation(s) failed:\n${failures.slice(0, 50).join('\n')}\n`);
  process.exitCode = 1;
} else
  process.stdout.write(
    `\nEvery synthetic expectation holds (${skipped} drop-write / wrong-arg / outputs-beside-toolcall episodes skipped: their task has no reference write; outputs-beside-toolcall episodes skipped: no required output appears anywhere in their messages).\n`,
  );
