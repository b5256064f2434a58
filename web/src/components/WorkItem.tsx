/**
 * One work in a list of related works (a result's references, citations and similar works; a
 * workspace's suggestions): its title linking to it, the facts a reader weighs it by, Summarize, and
 * the list's own way of saving it.
 */
import type { ReactNode } from 'react';
import type { SearchResult } from '../api/types';
import { shortAuthors } from '../lib/authors';
import { plural } from '../lib/plural';

export function WorkItem({
  work,
  why,
  onSummarize,
  saveButton,
  children,
}: {
  work: SearchResult;
  /** Why it is in the list, said first among its facts. */
  why?: ReactNode;
  onSummarize: (work: SearchResult) => void;
  saveButton?: ReactNode;
  /** What follows the buttons (how saving went). */
  children?: ReactNode;
}) {
  return (
    <li className="related-item">
      <h3 className="related-title">
        <a href={work.url} target="_blank" rel="noreferrer noopener">
          {work.title}
        </a>
      </h3>
      <p className="result-facts">
        {why !== undefined && <span>{why}</span>}
        <span>{shortAuthors(work.authors)}</span>
        {work.publishedDate && <span>{work.publishedDate}</span>}
        {work.citations !== null && <span>{plural(work.citations, 'citation')}</span>}
        {(work.inLibrary ?? []).length > 0 && <span>In your library</span>}
      </p>
      <div className="result-actions">
        <button
          type="button"
          className="button button-small"
          aria-label={`Summarize “${work.title}”`}
          onClick={() => onSummarize(work)}
        >
          Summarize
        </button>
        {saveButton}
      </div>
      {children}
    </li>
  );
}
