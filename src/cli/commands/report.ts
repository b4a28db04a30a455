import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  DEFAULT_DATA_BASE,
  ambiguousNotesText,
  attachNotes,
  episodeFingerprint,
  legacyEpisodeFingerprints,
  notesFileTooBig,
  parseNotesExport,
  sessionReportParts,
  tau2Headers,
  tau2LegacyFingerprints,
  tau2ReportParts,
  type EpisodeNotes,
  type RowKeys,
} from '../../core/contract';
import { openTau2, readTau2Run } from '../tau2/commands';
import { openSession } from '../open-session';
import { checkOutput, writeOutput } from '../output';
import { terminalSafe } from '../terminal';
import { parseCommand, positionalFiles, UsageError } from '../usage';

export const USAGE = `usage: tau-inspect report RESULTS.json [--data DIR_OR_URL] -o REPORT.html [--notes NOTES.json]

  Writes one self-contained HTML file (no script, no network: it opens from disk in any browser):
  every episode summarised, every failed episode in full (verdict, instruction, reference
  actions, DB diff, outputs, dialogue), and the notes and labels of a tau-inspect notes export.

  --data   τ-bench data, as for evaluate. Default: $TAU_BENCH_DATA, else ${DEFAULT_DATA_BASE}
  -o       the HTML file to write (- for standard output); never one of the files read: it is
           written through a temporary file beside it and renamed at the end
  --notes  a notes export from the app (notes attach to episodes and τ² simulations by fingerprint)`;

const OPTIONS = {
  data: { type: 'string' },
  output: { type: 'string', short: 'o' },
  notes: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

async function readNotes(file: string): Promise<EpisodeNotes[]> {
  let text: string;
  try {
    // The limits of the app's import: a file past them is not read.
    const big = notesFileTooBig((await stat(file)).size);
    if (big !== null) throw new UsageError(`${file}: ${big}`);
    text = await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const parsed = parseNotesExport(text);
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.error}`);
  return [...parsed.value.episodes];
}

/** `tau-inspect report RESULTS.json -o REPORT.html …` */
export async function reportCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(args, OPTIONS, USAGE);
  if (parsed === null) return 0;
  const { values, positionals } = parsed;
  const [file] = positionalFiles(positionals, 1, 1, 'missing RESULTS.json') as [string];
  if (values.output === undefined) throw new UsageError('missing -o REPORT.html');
  const data = values.data ?? (process.env.TAU_BENCH_DATA || DEFAULT_DATA_BASE);
  const output = values.output;
  checkOutput(output, [
    { path: file, role: 'the results file' },
    ...(values.notes === undefined ? [] : [{ path: values.notes, role: 'the notes file' }]),
    { path: data, role: 'the data folder' },
    ...(values.data === undefined && process.env.TAU2_DATA ? [{ path: process.env.TAU2_DATA, role: 'the data folder' }] : []),
  ]);
  const where = output === '-' ? 'the report to standard output' : output;
  const notes = values.notes === undefined ? [] : await readNotes(values.notes);
  // Notes made under an older fingerprint format attach by that fingerprint where no other row had it.
  const attach = (rows: readonly RowKeys[]) => (notes.length > 0 ? attachNotes(rows, notes) : { byIndex: new Map<number, EpisodeNotes>(), ambiguous: [] });
  const found = (attached: ReturnType<typeof attach>, noun: string): string =>
    values.notes !== undefined
      ? `, notes on ${attached.byIndex.size} of ${notes.length} noted ${noun} found in this file${attached.ambiguous.length > 0 ? `; ${ambiguousNotesText(attached.ambiguous, noun)}` : ''}`
      : '';
  const tau2 = await readTau2Run(file);
  if (tau2 !== null) {
    const { session } = await openTau2(tau2, values.data);
    const attached = attach(tau2Headers(tau2).map((h, i) => ({ fingerprint: h.fingerprint, legacy: tau2LegacyFingerprints(tau2, i) })));
    const bytes = await writeOutput(output, tau2ReportParts(session, basename(file), attached.byIndex));
    process.stderr.write(terminalSafe(`wrote ${where}: ${session.size} simulations, ${bytes} bytes${found(attached, 'simulations')}`) + '\n');
    return 0;
  }
  const session = await openSession(file, data, {});
  const attached = attach(session.records.map((r) => ({ fingerprint: episodeFingerprint(r), legacy: legacyEpisodeFingerprints(r) })));
  const bytes = await writeOutput(output, sessionReportParts(session, { title: basename(file), notes: attached.byIndex }));
  process.stderr.write(terminalSafe(`wrote ${where}: ${session.records.length} episodes, ${bytes} bytes${found(attached, 'episodes')}`) + '\n');
  return 0;
}
