import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOMAINS, type Domain } from '../core/data/db';
import { loadDataVersions, type ReadText } from '../core/data/versions';
import { ResultsFileError, readResultsFile } from '../core/episode/results-file';
import { EvalCache } from '../core/evaluate';
import { prepareSha256 } from '../core/py/sha256';
import { chooseDomain, EvaluationSetupError, evaluateFile } from '../core/evaluate-file';
import type { RewardRule } from '../core/env/reward';
import type { EpisodeReport } from '../core/report';

const DEFAULT_DATA = 'https://raw.githubusercontent.com/sierra-research/tau-bench';

const USAGE = `usage: tau-inspect evaluate RESULTS.json [--data DIR_OR_URL] [--json] [--domain retail|airline]
                            [--data-version COMMIT] [--rule db-and-outputs|outputs-only]

  Re-evaluates a τ-bench results file (run.py output) with a bit-exact port of τ-bench's
  tools and evaluator, and prints one verdict per episode.

  --data          τ-bench data: a directory or URL base laid out as <commit>/tau_bench/envs/<domain>/data/*.json,
                  or a tau-bench checkout (tau_bench/envs/...). Default: $TAU_BENCH_DATA, else ${DEFAULT_DATA}
  --json          one JSON object per episode per line (stdout); detection notes go to stderr
  --domain        skip domain detection
  --data-version  use this data version (full or short commit) instead of detecting it
  --rule          use this reward rule instead of detecting it`;

class UsageError extends Error {}

interface Options {
  file: string;
  data: string;
  json: boolean;
  domain?: Domain;
  dataVersion?: string;
  rule?: RewardRule;
}

function parseArgs(argv: string[]): Options | 'help' {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') return 'help';
  if (cmd !== 'evaluate') throw new UsageError(`unknown command '${cmd}'`);
  let file: string | undefined;
  const o: Partial<Options> = { json: false, data: process.env.TAU_BENCH_DATA ?? DEFAULT_DATA };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const value = (): string => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--json') o.json = true;
    else if (a === '--data') o.data = value();
    else if (a === '--domain') {
      const d = value();
      if (!DOMAINS.includes(d as Domain)) throw new UsageError(`--domain must be retail or airline, not '${d}'`);
      o.domain = d as Domain;
    } else if (a === '--data-version') o.dataVersion = value();
    else if (a === '--rule') {
      const r = value();
      if (r !== 'db-and-outputs' && r !== 'outputs-only') throw new UsageError(`--rule must be db-and-outputs or outputs-only, not '${r}'`);
      o.rule = r;
    } else if (a === '--help' || a === '-h') return 'help';
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else if (file === undefined) file = a;
    else throw new UsageError(`unexpected argument '${a}'`);
  }
  if (file === undefined) throw new UsageError('missing RESULTS.json');
  return { ...(o as Options), file };
}

function reader(root: string): ReadText {
  if (/^https?:\/\//.test(root)) {
    const base = root.replace(/\/+$/, '');
    return async (rel) => {
      const res = await fetch(`${base}/${rel}`);
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`GET ${base}/${rel}: HTTP ${res.status}`);
      return res.text();
    };
  }
  return async (rel) => {
    try {
      return await readFile(join(root, rel), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw e;
    }
  };
}

const fmtReward = (r: number | null | undefined): string => (r === null || r === undefined ? '-' : r.toFixed(1));

function table(reports: readonly EpisodeReport[]): string {
  const rows = [['#', 'task', 'trial', 'recorded', 'reward', 'done', 'why']];
  for (const r of reports) {
    let why: string;
    if (r.error) why = `error: ${r.error}`;
    else {
      const parts: string[] = [];
      if (!r.done) parts.push(`never ended (hypothetical ${fmtReward(r.hypothetical_reward_if_done)})`);
      if (r.r_actions === false) parts.push(`DB differs (${r.diff_records?.slice(0, 3).join(', ')}${(r.diff_records?.length ?? 0) > 3 ? ', …' : ''})`);
      const missing = Object.entries(r.outputs ?? {}).filter(([, f]) => !f);
      if (missing.length) parts.push(`missing output ${missing.map(([o]) => JSON.stringify(o)).join(', ')}`);
      if (r.rule === 'outputs-only' && r.outputs && r.r_actions === false) parts.push('(DB not judged under this rule)');
      if (r.crash) parts.push(`τ-bench would crash: ${r.crash}`);
      why = parts.join('; ') || 'ok';
    }
    const mark = r.matches_recorded_reward === false ? ' ≠' : '';
    rows.push([String(r.index), String(r.task_id ?? '-'), String(r.trial ?? '-'), fmtReward(r.recorded_reward), fmtReward(r.reward) + mark, r.error ? '-' : r.done ? (r.done_by ?? 'yes') : 'no', why]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n');
}

async function evaluate(o: Options): Promise<void> {
  await prepareSha256();
  let text: string;
  try {
    text = await readFile(o.file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${o.file}: ${(e as Error).message}`);
  }
  let records;
  try {
    records = readResultsFile(text);
  } catch (e) {
    if (e instanceof ResultsFileError) throw new ResultsFileError(`${o.file}: ${e.message}`);
    throw e;
  }
  const cache = new EvalCache();
  const { domain, why: domainWhy } = chooseDomain(records, o);
  const versions = await loadDataVersions(reader(o.data), domain, o.data, (db) => cache.hash(db));
  if (versions.length === 0)
    throw new UsageError(`no ${domain} data under ${o.data} (looked for <commit>/tau_bench/envs/${domain}/data/*.json and tau_bench/envs/${domain}/data/*.json)`);
  const result = evaluateFile(records, () => versions, { ...o, domain }, cache);
  const { version, reports } = result;
  const dom = { why: o.domain ? 'given with --domain' : domainWhy };
  const versionWhy = o.dataVersion ? 'given with --data-version' : result.versionWhy;
  const rule = { rule: result.rule, why: o.rule ? 'given with --rule' : result.ruleWhy };
  const notes = [
    `domain: ${domain} (${dom.why})`,
    `data: ${version.commit} from ${version.source} (${versionWhy})`,
    `rule: ${rule.rule} (${rule.why})`,
  ];
  if (o.json) {
    process.stderr.write(notes.join('\n') + '\n');
    process.stdout.write(reports.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return;
  }
  const ok = reports.filter((r) => !r.error);
  const total = ok.reduce((s, r) => s + (r.reward ?? 0), 0);
  const agree = ok.filter((r) => r.matches_recorded_reward === true).length;
  process.stdout.write(`${notes.join('\n')}\n\n${table(reports)}\n\n`);
  process.stdout.write(
    `${records.length} episodes, ${ok.length} evaluated, ${reports.length - ok.length} not evaluable; average reward ${ok.length ? (total / ok.length).toFixed(3) : '-'}; recomputed reward equals the recorded one for ${agree} of ${ok.filter((r) => r.recorded_reward !== null).length}\n`,
  );
}

export async function main(argv: string[]): Promise<number> {
  try {
    const o = parseArgs(argv);
    if (o === 'help') {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    await evaluate(o);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ResultsFileError || e instanceof EvaluationSetupError) {
      process.stderr.write(`tau-inspect: ${e.message}\n`);
      if (e instanceof UsageError && /unknown|missing RESULTS|unexpected argument|needs a value|must be/.test(e.message)) process.stderr.write(`\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`tau-inspect: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}


