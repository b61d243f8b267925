import { useMemo, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { renderMarkdown } from '../lib/render-markdown';
import classes from './content.module.css';

interface MarkdownContentProps {
  markdown: string;
  className?: string;
}

/**
 * A page body, rendered by THE renderer (lib/render-markdown.ts: sanitised HTML). Links to this
 * site's own addresses move inside the app instead of reloading it.
 */
export function MarkdownContent({ markdown, className }: MarkdownContentProps) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  const navigate = useNavigate();
  const followOwnLinks = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as HTMLElement).closest('a');
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    void navigate(`${url.pathname}${url.search}${url.hash}`);
  };
  return (
    // The container only forwards clicks on the links inside it, which stay keyboard-reachable.
    <div
      className={`${classes.markdown} ${className ?? ''}`}
      onClick={followOwnLinks}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
