/**
 * One search result, compact as a scholarly search engine's (about 100 px at 1440 px, so that a first
 * screen holds five and more): an article named by its title (a link to the source); its authors and
 * facts on one line; its sources, where it already is in your library (links to those workspaces; Save
 * then says so) and its actions on the next. The abstract and the related works open on demand.
 */
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { SearchResult } from '../../../api/types';
import { useReaderLocale } from '../../../lib/profile';
import { shortAuthors } from '../../../lib/authors';
import { formatIsoDate } from '../../../lib/dates';
import { workTypeLabel } from '../../../lib/work-types';
import { RelatedWorks } from './RelatedWorks';
import { PROVIDER_NAMES } from '../search-state';

export function ResultCard({
  result,
  onSummarize,
  onSave,
}: {
  result: SearchResult;
  onSummarize: (result: SearchResult) => void;
  onSave: (result: SearchResult) => void;
}) {
  const headingId = useId();
  const abstractId = useId();
  const inLibraryId = useId();
  const places = result.inLibrary ?? [];
  const [expanded, setExpanded] = useState(false);
  const [relatedOpen, setRelatedOpen] = useState(false);
  const relatedId = useId();
  const language = useReaderLocale();
  const kind = [result.venue, result.type && workTypeLabel(result.type)]
    .filter(Boolean)
    .join(' · ');
  return (
    <article className="result" aria-labelledby={headingId}>
      <h2 id={headingId} className="result-title">
        <a href={result.url} target="_blank" rel="noreferrer noopener">
          {result.title}
        </a>
      </h2>
      <p className="result-meta">
        <span className="result-authors">{shortAuthors(result.authors)}</span>
        <span className="result-facts">
          {result.publishedDate && (
            <time dateTime={result.publishedDate}>
              {formatIsoDate(result.publishedDate, language)}
            </time>
          )}
          {kind && <span>{kind}</span>}
          {/* An unknown count (null) is not shown: "0 citations" would be a claim. */}
          {result.citations !== null && (
            <span>
              {result.citations.toLocaleString(language)} citation
              {result.citations === 1 ? '' : 's'}
            </span>
          )}
        </span>
      </p>
      <div className="result-foot">
        <ul className="badges" aria-label="Sources">
          {(result.sources.length > 0 ? result.sources : [result.provider]).map((source) => (
            <li key={source} className="badge">
              {PROVIDER_NAMES[source]}
            </li>
          ))}
        </ul>
        {places.length > 0 && (
          <p id={inLibraryId} className="in-library">
            <span aria-hidden="true">✓ </span>In your library:{' '}
            {places.map((place, index) => (
              <span key={place.resourceId}>
                {index > 0 && ', '}
                <Link
                  to={`/workspaces/${encodeURIComponent(place.workspaceId)}?resource=${encodeURIComponent(place.resourceId)}`}
                >
                  {place.workspaceName}
                </Link>
              </span>
            ))}
          </p>
        )}
        <div className="result-actions">
          <button type="button" className="button button-small" onClick={() => onSummarize(result)}>
            Summarize
          </button>
          {places.length > 0 ? (
            <button
              type="button"
              className="button button-small"
              aria-describedby={inLibraryId}
              onClick={() => onSave(result)}
            >
              Already saved · Save again
            </button>
          ) : (
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => onSave(result)}
            >
              Save
            </button>
          )}
          {result.abstract && (
            <button
              type="button"
              className="button button-ghost button-small"
              aria-expanded={expanded}
              aria-controls={abstractId}
              onClick={() => setExpanded((open) => !open)}
            >
              {expanded ? 'Hide abstract' : 'Show abstract'}
            </button>
          )}
          <button
            type="button"
            className="button button-ghost button-small"
            aria-expanded={relatedOpen}
            aria-controls={relatedId}
            onClick={() => setRelatedOpen((open) => !open)}
          >
            Related works
          </button>
        </div>
      </div>
      {result.abstract && (
        <p id={abstractId} className="result-abstract" hidden={!expanded}>
          {result.abstract}
        </p>
      )}
      <div id={relatedId}>
        {relatedOpen && <RelatedWorks result={result} onSummarize={onSummarize} onSave={onSave} />}
      </div>
    </article>
  );
}
