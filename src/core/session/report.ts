import type { EpisodeNotes } from '../view/notes';
import { passHatK } from '../view/pass-k';
import { episodeSection, failedEpisode, passedHeading, REPORT_END, reportHead, reportOrder } from '../view/report-html';
import { tauBenchWhatIfHtml } from './report-what-if';
import type { InspectSession } from './session';
import type { StepEdit } from './what-if';

export interface ReportOptions {
  /** The results file's name. */
  readonly title: string;
  /** Notes by episode index (the caller matched fingerprints). */
  readonly notes?: ReadonlyMap<number, EpisodeNotes>;
  /** Walkthrough, findings…: extra sections by episode index, where they exist. */
  readonly sections?: (index: number) => readonly { readonly title: string; readonly text: string }[];
  readonly generatedAt?: string;
  /** What-if edits by episode index (the app's report of an edited view): each such episode's section shows them and what they change. */
  readonly edits?: ReadonlyMap<number, readonly StepEdit[]>;
}

/**
 * The offline report of a whole run (the CLI's `report` and the app's "Download report"):
 * evaluates every episode, settles the rule, and renders every failed episode in full, failed
 * episodes first.
 */
export function sessionReportHtml(session: InspectSession, o: ReportOptions): string {
  return [...sessionReportParts(session, o)].join('');
}

/**
 * The report of `sessionReportHtml` piece by piece, so a caller can write it out as it is made and
 * never holds it whole (a 5,000-episode run's report is about 100 MB): the part before the episodes,
 * then one part per episode (its view made then and let go), then the end. Every episode is evaluated
 * first (the rule settled); a caller may pause between parts.
 */
export function* sessionReportParts(session: InspectSession, o: ReportOptions): Generator<string, void, undefined> {
  session.finish();
  const d = session.detection();
  const headers = session.headers();
  const summaries = session.summaries();
  const rows = headers.map((header, i) => ({ header, summary: summaries[i]!, notes: o.notes?.get(i) ?? null }));
  yield reportHead({
    title: o.title,
    domain: d.domain,
    data: d.data,
    rule: d.rule,
    generatedAt: o.generatedAt ?? new Date().toISOString(),
    passK: passHatK(
      summaries.flatMap((s, i) => {
        const h = headers[i]!;
        return h.taskId === null ? [] : [{ taskId: h.taskId, trial: h.trial ?? 0, reward: s.reward ?? 0 }];
      }),
    ),
    episodes: rows,
  });
  // Failed episodes first (in full), then passed ones, each in file order.
  const ordered = reportOrder(rows.map((row, i) => ({ ...row, i })));
  const passed = ordered.filter((r) => !failedEpisode(r.summary)).length;
  for (const [k, { i, ...row }] of ordered.entries()) {
    const failed = failedEpisode(row.summary);
    const edits = o.edits?.get(i) ?? [];
    const v = (failed && row.summary.error === null) || edits.length > 0 ? session.view(i) : null;
    const whatIf = edits.length > 0 && v ? tauBenchWhatIfHtml(edits, v, session.whatIf(i, edits)) : '';
    const heading = k === ordered.length - passed ? passedHeading(passed) : '';
    const view = failed && v && !('error' in v) ? v : null;
    yield `${k > 0 ? '\n' : ''}${heading}${episodeSection({ ...row, view, ...(o.sections && { sections: o.sections(i) }), ...(whatIf && { whatIf }) })}`;
  }
  yield REPORT_END;
}
