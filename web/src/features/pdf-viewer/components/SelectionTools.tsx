/**
 * What a selection on a page offers: `Annotate`, placed under the selection inside the page (so that
 * Tab from the selection reaches it next; under its last line, on the last page of a selection across a
 * page break), then its colour (the last one used is chosen) and a note to go with it. The note may stay
 * empty: the annotation's text is then the quote itself, in quotation marks (as a highlight of an
 * abstract is).
 */
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod/mini';
import { TextAreaField } from '../../../components/Field';
import { SubmitButton } from '../../../components/SubmitButton';
import { submitWith, useZodForm } from '../../../lib/form';
import { ColorPicker } from './ColorPicker';
import type { AnnotationColor } from '../../../lib/annotations';
import type { PdfAnchor } from '../anchors';

/** The server's bound on an annotation's text. */
const BODY_MAX = 10_000;
const NoteForm = z.object({
  note: z
    .string()
    .check(z.maxLength(BODY_MAX, `At most ${BODY_MAX.toLocaleString('en-US')} characters.`)),
});

/** The annotation's text: the note as typed, else the quote. */
function annotationBody(note: string, quote: string): string {
  return (note.trim() || `“${quote}”`).slice(0, BODY_MAX);
}

export function SelectionTools({
  anchor,
  color,
  onColor,
  onSave,
  onCancel,
}: {
  anchor: PdfAnchor;
  color: AnnotationColor;
  onColor: (color: AnnotationColor) => void;
  onSave: (body: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [writing, setWriting] = useState(false);
  const annotateRef = useRef<HTMLButtonElement>(null);
  const wasWriting = useRef(false);
  const form = useZodForm(NoteForm, { defaultValues: { note: '' } });
  const last = anchor.rects.at(-1) ?? { x: 0, y: 0, width: 0, height: 0 };
  const save = submitWith(form, { allAt: 'note' }, ({ note }) =>
    onSave(annotationBody(note, anchor.quote)),
  );

  useEffect(() => {
    if (writing) form.setFocus('note');
    else if (wasWriting.current) annotateRef.current?.focus();
    wasWriting.current = writing;
  }, [writing, form]);

  return (
    <div
      className="pdf-selection-tools"
      style={{
        top: `${((last.y + last.height) * 100).toFixed(4)}%`,
        ['--x' as string]: `${(last.x * 100).toFixed(4)}%`,
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        if (writing) setWriting(false);
        else onCancel();
      }}
    >
      {writing ? (
        <form
          className="form"
          aria-label={`Annotate “${anchor.quote.slice(0, 60)}”`}
          onSubmit={(event) => void save(event)}
        >
          <ColorPicker value={color} onChange={onColor} />
          <TextAreaField
            label="Note (optional)"
            hint="Left empty, the annotation is the quote."
            limit={BODY_MAX}
            length={form.watch('note').length}
            rows={3}
            {...form.register('note')}
            error={form.formState.errors.note?.message}
          />
          <div className="row-actions">
            <SubmitButton pending={form.formState.isSubmitting} pendingLabel="Saving…" small>
              Save annotation
            </SubmitButton>
            <button type="button" className="button button-small" onClick={() => setWriting(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button
          ref={annotateRef}
          type="button"
          className="button button-primary button-small"
          onClick={() => setWriting(true)}
        >
          Annotate
        </button>
      )}
    </div>
  );
}
