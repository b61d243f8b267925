import createDOMPurify from 'dompurify';
import { Marked } from 'marked';

/**
 * THE content renderer (issue 20, item 6): Markdown to sanitised HTML, used by the content pages
 * and by the editor's live preview alike, so what staff preview is exactly what visitors get.
 *
 * Page bodies are stored as written; the browser renders them here. marked turns Markdown (and
 * any raw HTML in it) into HTML; DOMPurify then keeps only plain document markup: no script, no
 * event-handler attributes, no `javascript:`/`data:` links, no iframes, forms, SVG, MathML or
 * styles. The CSP (no inline script) stands behind it.
 */

const marked = new Marked({ gfm: true, breaks: false, async: false });

const FORBID_TAGS = [
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'link',
  'meta',
  'base',
  'svg',
  'math',
  'template',
  'video',
  'audio',
  'source',
];

let purifier: ReturnType<typeof createDOMPurify> | null = null;

/** One DOMPurify of our own (its hooks are per instance), made on first use. */
function getPurifier() {
  if (purifier) return purifier;
  const instance = createDOMPurify(window);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    // Links that leave the portal open in a new tab without handing it this page.
    if (/^https?:\/\//i.test(href) && !href.startsWith(window.location.origin)) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    } else {
      node.removeAttribute('target');
    }
  });
  purifier = instance;
  return instance;
}

/** Markdown → HTML safe to put into the page (the one place page bodies become HTML). */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return getPurifier().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS,
    FORBID_ATTR: ['style', 'srcset', 'formaction', 'xlink:href'],
    // Links and images only to http(s), mail, telephone, or this site's own addresses.
    ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  });
}
