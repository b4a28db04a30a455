import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InspectSession, sessionReportHtml, sessionReportParts, type EpisodeNotes } from '../../../src/core/contract';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../sample-runs');
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
    const fp = s.fingerprint(1);
    const notes = new Map<number, EpisodeNotes>([
      [1, { fingerprint: fp, label: 'agent error', note: HOSTILE, steps: { '0': HOSTILE }, file: null, index: 1, taskId: 1, updatedAt: 't' }],
    ]);
    const html = sessionReportHtml(s, { title: HOSTILE, notes, generatedAt: 'now' });
    const sections = [...html.matchAll(/<section id="ep-(\d+)"[^>]*>([\s\S]*?)<\/section>/g)].map((m) => ({ index: Number(m[1]), body: m[2]! }));
    const failed = s.summaries().flatMap((x, i) => (x.reward === 1 ? [] : [i]));
    expect(failed.length).toBeGreaterThan(0);
    const passed = [...Array(14).keys()].filter((i) => !failed.includes(i));
    expect(sections.map((x) => x.index)).toEqual([...failed, ...passed]);
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
    expect(parts[0]).toMatch(/^<!doctype html>[\s\S]*<h2 id="failed">Failed episodes \(\d+\)<\/h2>\n$/);
    expect(parts[0]).not.toContain('<section');
    const order = [...parts[0]!.matchAll(/<tr><td><a href="#ep-(\d+)">/g)].map((m) => Number(m[1]));
    expect([...order].sort((a, b) => a - b)).toEqual([...Array(s.records.length).keys()]);
    parts
      .slice(1, -1)
      .forEach((p, k) =>
        expect(p).toMatch(new RegExp(`^\\n?(<h2 id="passed">Passed episodes \\(\\d+\\)</h2>\\n)?<section id="ep-${order[k]}"[\\s\\S]*</section>$`)),
      );
    expect(parts.filter((p) => p.includes('<h2 id="passed">'))).toHaveLength(1);
    expect(parts.at(-1)).toBe('\n</body></html>\n');
    expect(parts.join('')).toBe(sessionReportHtml(s, { title: 'x', generatedAt: 'now' }));
  });

  it('lists failed episodes first, with a table of contents whose every link has its anchor', async () => {
    const s = await sampleSession();
    const html = sessionReportHtml(s, { title: 'x', generatedAt: 'now' });
    const failed = s.summaries().flatMap((x, i) => (x.reward === 1 ? [] : [i]));
    const passed = s.summaries().flatMap((x, i) => (x.reward === 1 ? [i] : []));
    const nav = /<nav class="toc" aria-label="Contents">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    expect([...nav.matchAll(/href="#ep-(\d+)"/g)].map((m) => Number(m[1]))).toEqual(failed);
    expect(nav).toContain(`Failed episodes (${failed.length})`);
    expect(nav).toContain(`Passed episodes (${passed.length})`);
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    const links = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    expect(links.filter((l) => !ids.has(l))).toEqual([]);
    // The episode table in the same order as the sections: failed first.
    expect([...html.matchAll(/<tr><td><a href="#ep-(\d+)">/g)].map((m) => Number(m[1]))).toEqual([...failed, ...passed]);
    expect(html.indexOf('<h2 id="failed">')).toBeLessThan(html.indexOf(`<section id="ep-${failed[0]}"`));
    expect(html.indexOf('<h2 id="passed">')).toBeLessThan(html.indexOf(`<section id="ep-${passed[0]}"`));
    expect(html.indexOf('<h2 id="passed">')).toBeGreaterThan(html.indexOf(`<section id="ep-${failed.at(-1)}"`));
  });

  it('follows the system colour scheme, wraps long text, scrolls tables in their own box, and keeps its CSP', async () => {
    const s = await sampleSession();
    const html = sessionReportHtml(s, { title: 'x', generatedAt: 'now' });
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    const dark = /@media \(prefers-color-scheme:dark\)\{([\s\S]*?)\n\}/.exec(html)?.[1] ?? '';
    expect(dark).toMatch(/body\{[^}]*background:#1[0-9a-f]{5}/);
    expect(html).toMatch(/body\{[^}]*overflow-wrap:anywhere/);
    // Every table sits in a box that scrolls sideways on its own.
    expect(html.split('<table>').length - 1).toBe(html.split('<div class="wide"><table>').length - 1);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html).not.toMatch(/\b(src|href)="(?!#)/);
  });

  it('shows no empty box for a message without text: a tool call stands alone, a message with nothing says so', async () => {
    const episodes = JSON.parse(readFileSync(join(ROOT, 'runs/retail-sample.json'), 'utf8')) as {
      traj: { role: string; content: string | null; tool_calls?: unknown }[];
      reward: number;
    }[];
    const ep = episodes[1]!;
    const at = ep.traj.findIndex((m) => m.role === 'assistant' && m.tool_calls);
    ep.traj[at]!.content = '';
    ep.traj.splice(at, 0, { role: 'assistant', content: '  ' });
    const s = new InspectSession(JSON.stringify(episodes));
    const read = async (rel: string): Promise<string | null> => readFile(join(ROOT, 'data', rel), 'utf8').catch(() => null);
    s.useData(await s.loadData(read, 'sample-runs/data'));
    const html = sessionReportHtml(s, { title: 'x', generatedAt: 'now' });
    const section = /<section id="ep-1"[\s\S]*?<\/section>/.exec(html)![0];
    expect(section).toContain('<h3>Dialogue</h3>');
    expect(html).not.toMatch(/<pre>\s*<\/pre>/);
    expect(section).toMatch(
      new RegExp(`<div class="msg assistant"><b>assistant</b> <span class="dim">#${at}[^<]*</span> <span class="dim">\\(empty message\\)</span></div>`),
    );
  });
});
