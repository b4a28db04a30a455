// Copy-paste check over src: jscpd (pinned 5.3.2) finds identical blocks; every clone fails the check
// except between two files of the domains' tools (τ-bench's own twin tools, ported as twins) or two
// files of core/py (Python's own repeated shapes). Prints each clone with both places.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ALLOWED = [/^(src\/)?core\/model\/domains\//, /^(src\/)?core\/py\//];
const out = mkdtempSync(join(tmpdir(), 'cpd-'));
try {
  execFileSync('npx', ['jscpd', 'src', '--silent', '--reporters', 'json', '--output', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const report = JSON.parse(readFileSync(join(out, 'jscpd-report.json'), 'utf8'));
  const bad = report.duplicates.filter((d) => !ALLOWED.some((re) => re.test(d.firstFile.name) && re.test(d.secondFile.name)));
  const where = (f) => `${f.name}:${f.start}-${f.end}`;
  for (const d of bad) console.log(`identical block (${d.lines} lines): ${where(d.firstFile)} = ${where(d.secondFile)}`);
  const allowed = report.duplicates.length - bad.length;
  console.log(`cpd: ${bad.length} clone(s) to remove; ${allowed} allowed (twin domain tools, core/py)`);
  process.exitCode = bad.length === 0 ? 0 : 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
