import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InspectSession, sessionReportHtml, sessionReportParts, type EpisodeNotes } from '../../src/core/contract';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../sample-runs');
const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>';

async function sampleSession(): Promise<InspectSession> {
  const s = new InspectSession(readFileSync(join(ROOT, 'runs/retail-sample.json'), 'utf8'));
  const read = async (rel: string): Promise<string | null> => readFile(join(ROOT, 'data', rel), 'utf8').catch(() => null);
  s.useData(await s.loadData(read, 'sample-runs/data'));
  return s;
}

describe('the offline report (the app and the CLI build the same)', () => {
  it('shows every failed episode with how τ-bench judged it and its findings; passed ones in one line; untrusted text escaped', async () => {
    const s = await sampleSession();
    const fp = s.headers()[1]!.fingerprint;
    const notes = new Map<number, EpisodeNotes>([[1, { fingerprint: fp, label: 'agent error', note: HOSTILE, steps: { '0': HOSTILE }, file: null, index: 1, taskId: 1, updatedAt: 't' }]]);
    const html = sessionReportHtml(s, { title: HOSTILE, notes, generatedAt: 'now' });
    const sections = [...html.matchAll(/<section id="ep-(\d+)"[^>]*>([\s\S]*?)<\/section>/g)].map((m) => ({ index: Number(m[1]), body: m[2]! }));
    expect(sections.map((x) => x.index)).toEqual([...Array(14).keys()]);
    const failed = s.summaries().flatMap((x, i) => (x.reward === 1 ? [] : [i]));
    expect(failed.length).toBeGreaterThan(0);
    for (const { index, body } of sections) {
      const full = failed.includes(index);
      expect(body.includes('<h3>How τ-bench judged it</h3>'), `episode ${index}`).toBe(full);
      expect(body.includes('<h3>Dialogue</h3>'), `episode ${index}`).toBe(full);
    }
    // Episode 4 passed with a policy slip: no full section, so its findings are not listed; a failed one with findings lists them.
    const withFindings = failed.find((i) => {
      const v = s.view(i);
      return !('error' in v) && v.findings.length > 0;
    });
    expect(withFindings).toBeDefined();
    expect(sections[withFindings!]!.body).toMatch(/<h3>Findings \(\d+\)<\/h3>/);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
  });

  it('comes piece by piece: the part before the episodes, one part per episode, the end; joined, the same document', async () => {
    const s = await sampleSession();
    const parts = [...sessionReportParts(s, { title: 'x', generatedAt: 'now' })];
    expect(parts).toHaveLength(s.records.length + 2);
    expect(parts[0]).toMatch(/^<!doctype html>[\s\S]*<h2>Details<\/h2>\n$/);
    expect(parts[0]).not.toContain('<section');
    parts.slice(1, -1).forEach((p, i) => expect(p).toMatch(new RegExp(`^\\n?<section id="ep-${i}"[\\s\\S]*</section>$`)));
    expect(parts.at(-1)).toBe('\n</body></html>\n');
    expect(parts.join('')).toBe(sessionReportHtml(s, { title: 'x', generatedAt: 'now' }));
  });
});
