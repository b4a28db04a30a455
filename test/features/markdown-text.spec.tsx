import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Root } from 'hast';
import { alignToSource, rehypeSourceMarks } from '../../src/ui/markdown-marks';

const NO_CLASSES = { mark: '', hit: '', current: '', invisible: '' };
import { MarkdownText } from '../../src/ui/markdown-text';

/** The rendered HTML of a text, and its visible text (tags dropped, entities decoded). */
function render(el: React.ReactElement): { html: string; text: string } {
  const html = renderToString(el);
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
  return { html, text };
}

const span = (text: string, needle: string, from = 0): { start: number; end: number } => {
  const start = text.indexOf(needle, from);
  if (start < 0) throw new Error(`${needle} not in ${text}`);
  return { start, end: start + needle.length };
};

describe('agent and user text as safe Markdown', () => {
  it('renders emphasis, lists and code (monospace) as Markdown', () => {
    const text = 'Your order **#W5199551** is pending.\n\n- item `1234`\n- item two\n\n```json\n{"a": 1}\n```';
    const { html, text: shown } = render(<MarkdownText text={text} />);
    expect(html).toContain('<strong>#W5199551</strong>');
    expect(html).toMatch(/<li>item <code class="[^"]*font-mono[^"]*">1234<\/code><\/li>/);
    expect(html).toMatch(/<pre class="[^"]*font-mono[^"]*"><code[^>]*>\{&quot;a&quot;: 1\}\n<\/code><\/pre>/);
    expect(shown).not.toContain('**');
  });

  it('shows raw HTML as text, renders no image and no link that loads or goes anywhere', () => {
    const text =
      'Hi <img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n![cat](https://example.com/cat.png) [site](https://example.com) <https://example.org>';
    const { html, text: shown } = render(<MarkdownText text={text} />);
    expect(shown).toContain('<img src=x onerror="alert(1)">');
    expect(shown).toContain('<script>alert(2)</script>');
    expect(html).not.toMatch(/<img[\s>]|<script[\s>]|<a[\s>]|\shref="|\ssrc="/);
    expect(shown).toContain('site');
    expect(shown).toContain('https://example.org');
  });

  it('shows invisible and direction-changing characters as labels', () => {
    const { html } = render(<MarkdownText text={'a\u202Eb\u200Bc'} />);
    expect(html).toContain('data-invisible="U+202E"');
    expect(html).toContain('data-invisible="U+200B"');
    expect(html).not.toContain('\u202E');
  });

  it('marks the highlighted span and each search hit where they land in the rendered text, one counted element per hit', () => {
    const text = 'The total is **$1,053.27** and the `order` id; order again.';
    const money = span(text, '1,053.27');
    const hits = [span(text, 'order'), span(text, 'order', span(text, 'order').end)];
    const { html } = render(<MarkdownText text={text} span={money} label="required output here" hits={hits} current={1} />);
    expect(html).toMatch(/<strong>\$<mark class="[^"]*" aria-label="required output here">1,053.27<\/mark><\/strong>/);
    expect(html).toMatch(/<code[^>]*><mark data-testid="search-hit" data-hit="0" class="[^"]*">order<\/mark><\/code>/);
    expect(html).toMatch(/<mark data-testid="search-hit" data-hit="1" data-current="true" class="[^"]*">order<\/mark> again/);
    expect(html.match(/data-testid="search-hit"/g)).toHaveLength(2);
    // The same plugin run again (once per render) still counts each hit on its first piece.
    const plugin = rehypeSourceMarks({ source: 'order', marks: [{ start: 0, end: 5, hit: 0 }], current: -1, label: '', classes: NO_CLASSES });
    for (let run = 0; run < 2; run++) {
      const tree: Root = {
        type: 'root',
        children: [{ type: 'text', value: 'order', position: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 6, offset: 5 } } }],
      };
      plugin()(tree);
      expect(JSON.stringify(tree), `run ${run}`).toContain('"dataTestid":"search-hit"');
    }
    // A hit that markup cuts in two is counted once.
    const cut = 'an **ord**er';
    const whole = render(<MarkdownText text={cut} hits={[{ start: 5, end: 12 }]} />).html;
    expect(whole.match(/data-testid="search-hit"/g)).toHaveLength(1);
    expect(whole.match(/data-testid="search-hit-part"/g)).toHaveLength(1);
  });

  it('aligns rendered text to its source through escapes and entities, or says it cannot', () => {
    const src = 'a \\*b\\* &amp; c';
    expect(alignToSource(src, 0, src.length, 'a *b* & c')).toEqual([0, 1, 3, 4, 6, 7, 8, 13, 14]);
    expect(alignToSource('&#65;', 0, 5, 'A')).toBeNull();
  });
});
