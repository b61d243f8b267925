import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown';

// The content renderer keeps documents and drops anything that runs: checked on the HTML it
// returns and, inserted into a live document, on what it does (nothing).

declare global {
  interface Window {
    pwned?: unknown;
  }
}

/** Inserts the rendered HTML into the document, as the page does, and gives it a moment to fire. */
async function mount(html: string) {
  const host = document.createElement('div');
  host.innerHTML = html;
  document.body.append(host);
  await new Promise((resolve) => setTimeout(resolve, 20));
  return host;
}

describe('renderMarkdown', () => {
  it('renders headings, lists, emphasis, links and tables', () => {
    const html = renderMarkdown(
      '# Privacy\n\n- **Account:** name\n- [imprint](/info/imprint)\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h1>Privacy</h1>');
    expect(html).toContain('<strong>Account:</strong>');
    expect(html).toContain('<a href="/info/imprint">imprint</a>');
    expect(html).toContain('<table>');
  });

  it('drops script elements', async () => {
    const html = renderMarkdown('Hello\n\n<script>window.pwned = 1</script>');
    expect(html).not.toMatch(/<script/i);
    await mount(html);
    expect(window.pwned).toBeUndefined();
  });

  it('drops event-handler attributes (img onerror, svg onload, body onload)', async () => {
    const html = renderMarkdown(
      '<img src="x" onerror="window.pwned = 2">\n\n<svg onload="window.pwned = 3"><circle r="1"/></svg>\n\n<p onclick="window.pwned = 4" onmouseover="x()">hi</p>',
    );
    expect(html).not.toMatch(/\son\w+=/i);
    expect(html).not.toMatch(/<svg/i);
    const host = await mount(html);
    host.querySelector('p')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(window.pwned).toBeUndefined();
  });

  it('makes javascript: and data: links inert, in Markdown and in HTML', () => {
    const html = renderMarkdown(
      '[click](javascript:alert(1)) <a href="JaVaScRiPt:alert(1)">x</a> <a href="data:text/html,<script>1</script>">y</a> [z](vbscript:msgbox)',
    );
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/data:/i);
    expect(html).not.toMatch(/vbscript:/i);
  });

  it('drops iframes, styles, forms and style attributes', () => {
    const html = renderMarkdown(
      '<iframe src="https://evil.example"></iframe><style>body{display:none}</style><form action="/x"><input name="p"></form><p style="position:fixed">t</p>',
    );
    expect(html).not.toMatch(/<iframe|<style|<form|<input|style=/i);
    expect(html).toContain('<p>t</p>');
  });

  it('opens links to other sites in a new tab without handing them the page', () => {
    const html = renderMarkdown('[docs](https://example.org/guide)');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });
});
