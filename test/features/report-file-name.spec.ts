import { describe, expect, it } from 'vitest';
import { reportFileName } from '../../src/features/review/report-button';

describe('the report file name', () => {
  it('is <run-name>-report.html, with path parts and characters a file name cannot hold taken out', () => {
    expect(reportFileName('retail-sample.json')).toBe('retail-sample-report.html');
    expect(reportFileName('runs/gpt-4o-airline.JSON')).toBe('gpt-4o-airline-report.html');
    expect(reportFileName('C:\\x\\a<b>:"c|d?*.json')).toBe('a_b_c_d_-report.html');
    expect(reportFileName('line\nbreak.json')).toBe('line_break-report.html');
    expect(reportFileName('.json')).toBe('run-report.html');
    expect(reportFileName('x'.repeat(500)).length).toBe(120 + '-report.html'.length);
  });
});
