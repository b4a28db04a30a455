import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PathText } from '../../src/ui/path-text';

/** The markup of a path, and its text as copied (a `<wbr>` adds nothing). */
const render = (path: string) => {
  const html = renderToStaticMarkup(<PathText path={path} />);
  return { html, text: html.replaceAll('<wbr/>', '') };
};

describe('a field path that wraps between its parts only', () => {
  it('may break after . / and _, and before [, never inside a name', () => {
    expect(render('payment_history').html).toBe('payment_<wbr/>history');
    expect(render('flights[0].status').html).toBe('flights<wbr/>[0].<wbr/>status');
    expect(render('users/mia_li_3668/payment_methods').html).toBe('users/<wbr/>mia_<wbr/>li_<wbr/>3668/<wbr/>payment_<wbr/>methods');
    expect(render('status').html).toBe('status');
  });

  it('stays text: markup in a path is escaped, the text is the path', () => {
    const { html, text } = render('a.<img src=x onerror=alert(1)>');
    expect(html).toBe('a.<wbr/>&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toBe('a.&lt;img src=x onerror=alert(1)&gt;');
    expect(render('reservations.3FRNFB.payment_history').text).toBe('reservations.3FRNFB.payment_history');
  });
});
