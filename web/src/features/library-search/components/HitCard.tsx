/**
 * One library search hit: its title (opening the resource in its workspace), authors, year, type and
 * workspace, and each snippet with where it was found and the matched words marked.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { shortAuthors } from '../../../lib/authors';
import { workTypeLabel } from '../../../lib/work-types';
import {
  pdfPageAddress,
  resourceAddress,
  snippetParts,
  whereFound,
  type LibraryHit,
  type LibrarySnippet,
} from '../snippets';

function SnippetText({ snippet }: { snippet: LibrarySnippet }) {
  return (
    <span className="snippet-text">
      {snippetParts(snippet).map((part, index) =>
        part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </span>
  );
}

export function HitCard({ hit }: { hit: LibraryHit }) {
  const headingId = useId();
  const year = hit.publishedDate?.slice(0, 4);
  return (
    <article className="result library-hit" aria-labelledby={headingId}>
      <h2 id={headingId} className="result-title">
        <Link to={resourceAddress(hit)}>{hit.title}</Link>
      </h2>
      <p className="result-authors">{shortAuthors(hit.authors)}</p>
      <p className="result-facts">
        {year && <span>{year}</span>}
        {hit.type && <span>{workTypeLabel(hit.type)}</span>}
        <span>
          In{' '}
          <Link to={`/workspaces/${encodeURIComponent(hit.workspace.id)}`}>
            {hit.workspace.name}
          </Link>
        </span>
      </p>
      {hit.snippets.length > 0 && (
        <ul className="snippets" aria-label="Where it was found">
          {hit.snippets.map((snippet, index) => (
            <li
              key={`${snippet.in}-${snippet.annotationId ?? snippet.page ?? index}`}
              className="snippet"
            >
              <span className="snippet-where">{whereFound(snippet)}:</span>{' '}
              <SnippetText snippet={snippet} />
              {snippet.in === 'pdf' && snippet.page && (
                <>
                  {' '}
                  <Link to={pdfPageAddress(hit, snippet.page)} className="snippet-link">
                    Open the PDF at page {snippet.page}
                  </Link>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
