import { beforeAll, describe, expect, it } from 'vitest';
import { taskBugText, type EpisodeNotes } from '../../../src/core/contract';
import type { EpisodeView } from '../../../src/core/view/episode-view';
import { InspectSession } from '../../../src/core/session/session';
import { sampleRunText, sampleVersion } from '../../support/fixtures';

const HOSTILE = '<script>alert(1)</script> ``` closes? <img src=x onerror=alert(2)>';

describe('task-bug text (issue text for τ-bench’s maintainers)', () => {
  let session: InspectSession;
  let view: EpisodeView;
  beforeAll(() => {
    session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    // The first sample episode whose DB differs from the reference: it has a diff to report.
    const index = session.summaries().find((s) => s.reasons.includes('db-mismatch'))!.index;
    const v = session.view(index);
    if ('error' in v) throw new Error(v.error);
    view = v;
  });

  const notes = (note: string, steps: Record<string, string> = {}): EpisodeNotes => ({
    fingerprint: 'f',
    label: 'task or annotation bug',
    note,
    steps,
    file: null,
    index: null,
    taskId: null,
    updatedAt: '2026-12-03T00:00:00.000Z',
  });

  it('names the task, data version, instruction, reference actions, what the agent did, the DB diff and the notes', () => {
    const taskId = session.records[view.index]!.taskId;
    const text = taskBugText({ view, taskId, domain: 'retail', file: 'run.json', notes: notes('the gold answer is wrong', { '1': 'asked twice' }) });
    expect(text).toContain(`task id: ${taskId}`);
    expect(text).toContain(`data version: ${view.verdict.dataCommit}`);
    expect(text).toContain(view.instruction.slice(0, 60));
    for (const r of view.reference) expect(text).toContain(r.action);
    for (const s of view.steps) expect(text).toContain(s.action);
    expect(view.diff.length).toBeGreaterThan(0);
    for (const d of view.diff) expect(text).toContain(`${d.table}/${d.key}`);
    expect(text).toContain('the gold answer is wrong');
    expect(text).toContain('step 2: asked twice');
  });

  it('keeps hostile notes and file names as quoted text: no fence closes early, nothing becomes markup outside a fence', () => {
    const text = taskBugText({ view, taskId: 1, domain: 'retail', file: `${HOSTILE}.json`, notes: notes(HOSTILE) });
    expect(text).toContain(HOSTILE);
    // Every line holding the hostile text lies inside a fence that is longer than any backtick run in it.
    const lines = text.split('\n');
    let fence: string | null = null;
    for (const line of lines) {
      const m = /^(`{3,})/.exec(line);
      if (fence === null && m) fence = m[1]!;
      else if (fence !== null && line === fence) fence = null;
      else if (line.includes('<script>')) {
        if (fence === null) {
          // Outside a block fence only as an inline code span wider than the text's own backticks.
          expect(line).toMatch(/`{4,} .*<script>.* `{4,}/);
        } else expect(fence.length).toBeGreaterThan(3);
      }
    }
    expect(fence).toBeNull();
  });
});
