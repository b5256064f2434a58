/** A note or annotation comment, written in Markdown, shown formatted (lib/markdown.ts: sanitised). */
import { useMemo } from 'react';
import { renderMarkdown } from '../lib/markdown';

export function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <div
      className={className ? `markdown ${className}` : 'markdown'}
      // Sanitised to an allow-list by DOMPurify in renderMarkdown: no script, style, handler or unsafe link.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
