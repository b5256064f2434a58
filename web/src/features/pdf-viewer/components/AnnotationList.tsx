/**
 * The resource's annotations beside the document: those placed in the PDF say their page and can be
 * chosen (the document scrolls to the place and marks it); any can be deleted (its mark goes with it).
 */
import type { Ref } from 'react';
import { describeError } from '../../../api/errors';
import { anchorOf } from '../anchors';
import type { Annotation } from '../hooks/use-pdf-annotations';
import { Markdown } from '../../../components/Markdown';

interface Props {
  annotations: Annotation[];
  activeId: string | null;
  deleting: string | null;
  deleteError: unknown;
  onChoose: (annotation: Annotation) => void;
  onDelete: (annotation: Annotation) => void;
  /** The list's heading, focused when an annotation is saved. */
  headingRef: Ref<HTMLHeadingElement>;
}

export function AnnotationList({
  annotations,
  activeId,
  deleting,
  deleteError,
  onChoose,
  onDelete,
  headingRef,
}: Props) {
  return (
    <aside className="pdf-annotations card" aria-labelledby="pdf-annotations-heading">
      <h2 id="pdf-annotations-heading" ref={headingRef} tabIndex={-1}>
        Annotations ({annotations.length})
      </h2>
      {annotations.length === 0 ? (
        <p className="muted">None yet. Select text on a page, then press Annotate.</p>
      ) : (
        <ul className="annotations">
          {annotations.map((annotation) => {
            const anchor = anchorOf(annotation.highlights);
            const quoteOnly = anchor !== null && annotation.body === `“${anchor.quote}”`;
            return (
              <li
                key={annotation.id}
                className={
                  annotation.id === activeId ? 'annotation annotation-active' : 'annotation'
                }
                aria-current={annotation.id === activeId ? 'true' : undefined}
              >
                {anchor && (
                  <blockquote className="annotation-quote">
                    <mark>{anchor.quote}</mark>
                  </blockquote>
                )}
                {!quoteOnly && <Markdown className="annotation-body" text={annotation.body} />}
                <div className="row-actions">
                  {anchor && (
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => onChoose(annotation)}
                    >
                      Show on page {anchor.page}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button-danger button-small"
                    aria-label="Delete annotation"
                    disabled={deleting === annotation.id}
                    onClick={() => onDelete(annotation)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {deleteError !== null && deleteError !== undefined && (
        <p className="field-error" role="alert">
          {describeError(deleteError)}
        </p>
      )}
    </aside>
  );
}
