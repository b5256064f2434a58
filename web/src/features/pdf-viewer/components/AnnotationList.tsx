/**
 * The resource's annotations beside the document: each in its colour (named in words too), those placed
 * in the PDF with their page (or pages, across a page break) and chosen to scroll the document to their
 * place and mark it; any can be deleted (its mark goes with it). As in Zotero's sidebar, the list can show
 * one colour only: a button for each colour the annotations have.
 */
import { useState, type Ref } from 'react';
import { describeError } from '../../../api/errors';
import {
  ANNOTATION_COLORS,
  colorName,
  pagesLabel,
  pdfPlaceOf,
  type AnnotationColor,
} from '../../../lib/annotations';
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
  const [only, setOnly] = useState<AnnotationColor | null>(null);
  const colors = ANNOTATION_COLORS.filter((color) =>
    annotations.some((annotation) => annotation.color === color.id),
  );
  const filter = only !== null && colors.some((color) => color.id === only) ? only : null;
  const shown = filter
    ? annotations.filter((annotation) => annotation.color === filter)
    : annotations;
  return (
    <aside className="pdf-annotations card" aria-labelledby="pdf-annotations-heading">
      <h2 id="pdf-annotations-heading" ref={headingRef} tabIndex={-1}>
        Annotations ({annotations.length})
      </h2>
      {colors.length > 1 && (
        <div className="color-filter" role="group" aria-label="Show annotations of one colour">
          <button
            type="button"
            className="button button-small"
            aria-pressed={filter === null}
            onClick={() => setOnly(null)}
          >
            All
          </button>
          {colors.map((color) => (
            <button
              key={color.id}
              type="button"
              className="button button-small"
              aria-pressed={filter === color.id}
              onClick={() => setOnly(color.id)}
            >
              <span className="color-swatch" style={{ background: color.hex }} aria-hidden="true" />
              {color.name}
            </button>
          ))}
        </div>
      )}
      {annotations.length === 0 ? (
        <p className="muted">None yet. Select text on a page, then press Annotate.</p>
      ) : (
        <ul className="annotations">
          {shown.map((annotation) => {
            const place = pdfPlaceOf(annotation.highlights);
            const quoteOnly = place !== null && annotation.body === `“${place.quote}”`;
            const hex = ANNOTATION_COLORS.find((color) => color.id === annotation.color)?.hex;
            return (
              <li
                key={annotation.id}
                className={
                  annotation.id === activeId
                    ? 'annotation annotation-colored annotation-active'
                    : 'annotation annotation-colored'
                }
                style={{ ['--annotation-color' as string]: hex }}
                aria-current={annotation.id === activeId ? 'true' : undefined}
              >
                <p className="annotation-where muted">
                  {colorName(annotation.color)}
                  {place && ` · ${pagesLabel(place)}`}
                </p>
                {place && (
                  <blockquote className="annotation-quote">
                    <mark>{place.quote}</mark>
                  </blockquote>
                )}
                {!quoteOnly && <Markdown className="annotation-body" text={annotation.body} />}
                <div className="row-actions">
                  {place && (
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => onChoose(annotation)}
                    >
                      Show on page {place.page}
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
