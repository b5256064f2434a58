/**
 * One resource of a workspace: its facts, its record in the item pane (every field edited in place),
 * notes and tags (`Edit notes` changes both), its abstract (select text of it and press
 * `Highlight selection` to keep a highlight), its annotations (add, edit, delete), and removal.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../../api/errors';
import { useDraftField, useHasDraft } from '../../../lib/drafts';
import { useReaderLocale } from '../../../lib/profile';
import { ANNOTATION_COLORS, colorName, pagesLabel, pdfPlaceOf } from '../../../lib/annotations';
import { useSession } from '../../../lib/session';
import { useAbilities } from '../../../lib/workspace-role';
import { shortAuthors } from '../../../lib/authors';
import { formatDay, formatIsoDate } from '../../../lib/dates';
import { fieldChange, typeLabel } from '../record-fields';
import { rangesOf, segments, selectionWithin } from '../highlights';
import { notesDraftKey, ResourceNotesForm, tagsDraftKey } from './ResourceNotesForm';
import { ItemPane } from './ItemPane';
import { EditableValue } from './ItemField';
import {
  useCreateAnnotation,
  useDeleteAnnotation,
  useRemoveResource,
  useUpdateAnnotation,
  type Annotation,
  type HighlightRange,
  type Resource,
} from '../hooks/use-workspaces';
import { SubmitButton } from '../../../components/SubmitButton';
import { keepDraft, showApiError, submitWith, useZodForm } from '../../../lib/form';
import { AnnotationForm, parseAnnotationVersion } from '../schemas';
import { ConflictDialog, useEditConflict } from '../../../components/ConflictDialog';
import { Markdown } from '../../../components/Markdown';
import { MarkdownField } from '../../../components/MarkdownField';

/** The server's bound on an annotation's text (it strips HTML first, so it may keep less). */
const ANNOTATION_MAX = 10_000;

function AnnotationItem({
  annotation,
  workspaceId,
}: {
  annotation: Annotation;
  workspaceId: string;
}) {
  // An edit left unsent (the session ended under it) reopens with its text.
  const draftKey = `annotation:${annotation.id}`;
  const [editing, setEditing] = useState(useHasDraft(draftKey));
  const draft = useDraftField(draftKey, annotation.body);
  const form = useZodForm(AnnotationForm, { defaultValues: { body: draft.value } });
  const { errors, isSubmitting, isValid } = form.formState;
  const update = useUpdateAnnotation(workspaceId);
  const remove = useDeleteAnnotation(workspaceId);
  // Sent as If-Match: the version the edit started from (a conflict dialog when someone changed it since).
  const [startedFrom, setStartedFrom] = useState(annotation.version);
  const { conflict, attempt, keepMine, keepError, dismiss } = useEditConflict(
    parseAnnotationVersion,
    (yours: string, version: number) =>
      update.mutateAsync({ id: annotation.id, body: yours, version }),
  );
  const can = useAbilities();
  // Words are their author's: only they edit them; editors and the owner may remove anyone's (POLICY).
  const mine = annotation.userId === useSession().data?.id;
  const place = pdfPlaceOf(annotation.highlights);
  const quotes = place
    ? [place.quote]
    : rangesOf(annotation)
        .map((range) => range.text)
        .filter(Boolean);
  const hex = ANNOTATION_COLORS.find((color) => color.id === annotation.color)?.hex;
  const finish = () => {
    draft.discard();
    setEditing(false);
  };
  const save = submitWith(form, { allAt: 'body' }, async ({ body }) => {
    if (await attempt(body, startedFrom)) finish();
  });
  const cancel = () => {
    form.reset({ body: annotation.body });
    finish();
  };
  const startEditing = () => {
    setStartedFrom(annotation.version);
    setEditing(true);
  };
  return (
    <li className="annotation annotation-colored" style={{ ['--annotation-color' as string]: hex }}>
      {(place || quotes.length > 0) && (
        <p className="annotation-where muted">
          {colorName(annotation.color)}
          {place && (
            <>
              {' · '}
              {/* A PDF annotation opens the viewer at its page. */}
              <Link
                to={`/workspaces/${encodeURIComponent(workspaceId)}/resources/${encodeURIComponent(annotation.resourceId)}/pdf?page=${place.page}`}
              >
                {pagesLabel(place)}
              </Link>
            </>
          )}
        </p>
      )}
      {quotes.map((quote, index) => (
        <blockquote key={index} className="annotation-quote">
          <mark>{quote}</mark>
        </blockquote>
      ))}
      <ConflictDialog
        open={conflict !== null}
        fields={
          conflict
            ? [{ label: 'Annotation', theirs: conflict.theirs.body, yours: conflict.yours }]
            : []
        }
        pending={update.isPending}
        error={keepError}
        onKeepMine={() => void keepMine().then((saved) => saved && finish())}
        onUseTheirs={() => {
          dismiss();
          if (conflict) form.reset({ body: conflict.theirs.body });
          finish();
        }}
        onDismiss={dismiss}
      />
      {editing ? (
        <form className="form" onSubmit={(event) => void save(event)}>
          <MarkdownField
            label="Edit annotation"
            required
            limit={ANNOTATION_MAX}
            value={form.watch('body')}
            length={form.watch('body').length}
            rows={3}
            {...form.register('body', { onChange: keepDraft(draft) })}
            error={errors.body?.message}
          />
          <div className="row-actions">
            <SubmitButton pending={isSubmitting} pendingLabel="Saving…" disabled={!isValid} small>
              Save annotation
            </SubmitButton>
            <button type="button" className="button button-small" onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          {/* A highlight kept without a note has the quote as its text: shown once. */}
          {!(quotes.length === 1 && annotation.body === `“${quotes[0]}”`) && (
            <Markdown className="annotation-body" text={annotation.body} />
          )}
          {annotation.authorName && (
            <p className="muted annotation-author">by {annotation.authorName}</p>
          )}
          <div className="row-actions">
            {mine && (
              <button type="button" className="button button-small" onClick={startEditing}>
                Edit
              </button>
            )}
            {(mine || can.removeAnyAnnotation) && (
              <button
                type="button"
                className="button button-danger button-small"
                aria-label="Delete annotation"
                disabled={remove.isPending}
                onClick={() => remove.mutate({ id: annotation.id, version: annotation.version })}
              >
                Delete
              </button>
            )}
          </div>
          {remove.error && (
            <p className="field-error" role="alert">
              {describeError(remove.error)}
            </p>
          )}
        </>
      )}
    </li>
  );
}

export function ResourceItem({
  resource,
  workspaceId,
}: {
  resource: Resource;
  workspaceId: string;
}) {
  const headingId = useId();
  const abstractRef = useRef<HTMLParagraphElement>(null);
  const [selection, setSelection] = useState<HighlightRange | null>(null);
  const noteDraft = useDraftField(`annotation:new:${resource.id}`, '');
  const noteForm = useZodForm(AnnotationForm, { defaultValues: { body: noteDraft.value } });
  const noteState = noteForm.formState;
  const notesKept = useHasDraft(notesDraftKey(resource.id));
  const tagsKept = useHasDraft(tagsDraftKey(resource.id));
  const [editingNotes, setEditingNotes] = useState(notesKept || tagsKept);
  const editNotesRef = useRef<HTMLButtonElement>(null);
  const wasEditingNotes = useRef(false);
  const [editingAbstract, setEditingAbstract] = useState(false);
  const editAbstractRef = useRef<HTMLButtonElement>(null);
  const wasEditingAbstract = useRef(false);
  const create = useCreateAnnotation(workspaceId);
  const removeResource = useRemoveResource(workspaceId);
  const can = useAbilities();
  const abstract = resource.abstract ?? '';
  // The record's issue date as `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (what the date formatter reads).
  const published = resource.issued?.year
    ? [resource.issued.year, resource.issued.month, resource.issued.month && resource.issued.day]
        .filter((part): part is number => typeof part === 'number' && part > 0)
        .map((part, index) => String(part).padStart(index === 0 ? 4 : 2, '0'))
        .join('-')
    : null;
  const language = useReaderLocale();
  const allRanges = resource.annotations.flatMap(rangesOf);

  // The last selection made inside the abstract (the button press that uses it may clear the page's selection).
  useEffect(() => {
    const follow = () => {
      const element = abstractRef.current;
      if (!element) return;
      const found = selectionWithin(element, document.getSelection());
      if (found) setSelection(found);
    };
    document.addEventListener('selectionchange', follow);
    return () => document.removeEventListener('selectionchange', follow);
  }, []);

  // Focus goes back to `Edit notes` when its form closes (saved or cancelled), not to the page's start.
  useEffect(() => {
    if (wasEditingNotes.current && !editingNotes) editNotesRef.current?.focus();
    wasEditingNotes.current = editingNotes;
  }, [editingNotes]);

  // The same for the abstract's box closed by Enter or Esc (left for another control: the focus stays there).
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (wasEditingAbstract.current && !editingAbstract && lost) editAbstractRef.current?.focus();
    wasEditingAbstract.current = editingAbstract;
  }, [editingAbstract]);

  const noteSent = () => {
    noteForm.reset({ body: '' });
    noteDraft.discard();
  };
  const add = submitWith(noteForm, { allAt: 'body' }, async ({ body }) => {
    await create.mutateAsync({ resourceId: resource.id, body });
    noteSent();
  });
  // A highlight goes with the note as typed, or alone (its quote is its text): not through the note's check.
  const highlight = async () => {
    if (!selection) return;
    const note = noteForm.getValues('body').trim();
    try {
      await create.mutateAsync({
        resourceId: resource.id,
        body: note || `“${selection.text ?? ''}”`.slice(0, ANNOTATION_MAX),
        ranges: [selection],
      });
      noteSent();
      setSelection(null);
      document.getSelection()?.removeAllRanges();
    } catch (error) {
      showApiError(noteForm, error, { allAt: 'body' });
    }
  };

  return (
    <article className="card resource" aria-labelledby={headingId}>
      <h2 id={headingId} className="result-title">
        {resource.url ? (
          <a href={resource.url} target="_blank" rel="noreferrer noopener">
            {resource.title}
          </a>
        ) : (
          resource.title
        )}
      </h2>
      {resource.authors.length > 0 && (
        <p className="result-authors">{shortAuthors(resource.authors)}</p>
      )}
      <p className="result-facts">
        {published && <time dateTime={published}>{formatIsoDate(published, language)}</time>}
        {resource.type && <span>{typeLabel(resource.type)}</span>}
        <span>Added {formatDay(resource.addedAt, language)}</span>
      </p>
      <ItemPane resource={resource} workspaceId={workspaceId} />
      {editingNotes ? (
        <ResourceNotesForm
          resource={resource}
          workspaceId={workspaceId}
          onDone={() => setEditingNotes(false)}
        />
      ) : (
        <>
          {resource.tags.length > 0 && (
            <ul className="badges" aria-label="Tags">
              {resource.tags.map((tag) => (
                <li key={tag} className="badge">
                  {tag}
                </li>
              ))}
            </ul>
          )}
          {resource.notes && (
            <div className="resource-notes">
              <strong>Notes:</strong>
              <Markdown text={resource.notes} />
            </div>
          )}
          {can.edit && (
            <div className="row-actions">
              <button
                ref={editNotesRef}
                type="button"
                className="button button-small"
                onClick={() => setEditingNotes(true)}
              >
                Edit notes
              </button>
            </div>
          )}
        </>
      )}
      {(abstract || can.edit) && (
        <div className="resource-abstract">
          <h3>Abstract</h3>
          {editingAbstract ? (
            <dl className="item-fields">
              <EditableValue
                resource={resource}
                workspaceId={workspaceId}
                label="Abstract"
                text={abstract}
                changes={(typed) => fieldChange('abstract', typed)}
                theirs={(current) => current.abstract ?? ''}
                canEdit
                long
                startOpen
                onClosed={() => setEditingAbstract(false)}
              />
            </dl>
          ) : (
            <>
              {abstract && (
                <>
                  <p ref={abstractRef} data-testid="abstract">
                    {segments(abstract, allRanges).map((piece, index) =>
                      piece.marked ? (
                        <mark key={index}>{piece.text}</mark>
                      ) : (
                        <span key={index}>{piece.text}</span>
                      ),
                    )}
                  </p>
                  <p className="muted">
                    Select text of the abstract, then press Highlight selection (the note below, if
                    any, goes with it).
                  </p>
                </>
              )}
              {can.edit && (
                <button
                  ref={editAbstractRef}
                  type="button"
                  className="button button-small"
                  onClick={() => setEditingAbstract(true)}
                >
                  {abstract ? 'Edit abstract' : 'Add abstract'}
                </button>
              )}
            </>
          )}
        </div>
      )}
      <section aria-label={`Annotations on ${resource.title}`}>
        <h3>Annotations ({resource.annotations.length})</h3>
        {resource.annotations.length > 0 && (
          <ul className="annotations">
            {resource.annotations.map((annotation) => (
              <AnnotationItem
                key={annotation.id}
                annotation={annotation}
                workspaceId={workspaceId}
              />
            ))}
          </ul>
        )}
        <form className="form" onSubmit={(event) => void add(event)}>
          <MarkdownField
            label="Annotation"
            limit={ANNOTATION_MAX}
            value={noteForm.watch('body')}
            length={noteForm.watch('body').length}
            rows={2}
            {...noteForm.register('body', { onChange: keepDraft(noteDraft) })}
            error={noteState.errors.body?.message}
          />
          <div className="row-actions">
            <button
              type="submit"
              className="button button-primary"
              disabled={create.isPending || !noteState.isValid}
            >
              Add annotation
            </button>
            {abstract && (
              <button
                type="button"
                className="button"
                disabled={create.isPending || !selection}
                onClick={() => void highlight()}
              >
                Highlight selection
              </button>
            )}
          </div>
        </form>
      </section>
      {can.edit && (
        <div className="row-actions resource-actions">
          <button
            type="button"
            className="button button-danger"
            disabled={removeResource.isPending}
            onClick={() =>
              removeResource.mutate({ resourceId: resource.id, version: resource.version })
            }
          >
            Remove from workspace
          </button>
          {removeResource.error && (
            <p className="field-error" role="alert">
              {describeError(removeResource.error)}
            </p>
          )}
        </div>
      )}
    </article>
  );
}
