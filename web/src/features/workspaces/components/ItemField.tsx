/**
 * One field of a resource's record in the item pane, edited in place: its value is a button (click
 * it, or Enter) that becomes a text box; Enter or leaving the box saves (PATCH with If-Match), Esc
 * cancels. The API's refusal (a 400 naming the field) shows under the box, which stays open; a 412
 * (someone else saved the resource meanwhile) shows the value saved now and leaves the user's text
 * in the box, to save over it (Enter) or keep theirs (Esc).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { describeError, isStale } from '../../../api/errors';
import { useUpdateResource, type Resource } from '../hooks/use-workspaces';
import {
  fieldChange,
  fieldText,
  isDateField,
  isLongField,
  type FieldKey,
  type ResourceChanges,
} from '../record-fields';

/** The version the 412's `current` is at, and that object as a record (it is the resource saved now). */
function currentOf(error: unknown): { version: number; record: Resource } | null {
  if (!isStale(error)) return null;
  const record = error.current as Resource;
  return typeof record.version === 'number' ? { version: record.version, record } : null;
}

interface EditableProps {
  resource: Resource;
  workspaceId: string;
  label: string;
  /** The text shown and edited. */
  text: string;
  /** The PATCH body for what was typed. */
  changes: (typed: string) => ResourceChanges;
  /** The value saved now, as text, in a 412's resource. */
  theirs: (record: Resource) => string;
  canEdit: boolean;
  long?: boolean;
  hint?: string;
  /** Opens in its box (a field just added from "More fields"). */
  startOpen?: boolean;
  onClosed?: () => void;
}

/** A `dt`/`dd` pair: the label, and the value or its box. */
export function EditableValue({
  resource,
  workspaceId,
  label,
  text,
  changes,
  theirs,
  canEdit,
  long = false,
  hint,
  startOpen = false,
  onClosed,
}: EditableProps) {
  const id = useId();
  const update = useUpdateResource(workspaceId);
  const [editing, setEditing] = useState(startOpen);
  const [typed, setTyped] = useState(text);
  const [startedFrom, setStartedFrom] = useState(resource.version);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const valueRef = useRef<HTMLButtonElement>(null);
  // Enter and Esc close the box themselves: the blur that follows must not save again.
  const closing = useRef(false);
  const refocusValue = useRef(false);

  const open = () => {
    closing.current = false;
    setTyped(text);
    setStartedFrom(resource.version);
    setError(null);
    setStale(null);
    setEditing(true);
  };
  const close = (refocus: boolean) => {
    closing.current = true;
    setEditing(false);
    setError(null);
    setStale(null);
    onClosed?.();
    refocusValue.current = refocus;
  };
  // Closed by Enter or Esc: the focus goes back to the value once it is drawn again (not after a
  // blur: the focus is where the user moved it).
  useEffect(() => {
    if (!editing && refocusValue.current) {
      refocusValue.current = false;
      valueRef.current?.focus();
    }
  }, [editing]);
  const save = async (refocus: boolean) => {
    if (update.isPending) return;
    if (typed.trim() === text.trim() && stale === null) return close(refocus);
    try {
      await update.mutateAsync({
        resourceId: resource.id,
        version: startedFrom,
        ...changes(typed),
      });
      close(refocus);
    } catch (caught) {
      const current = currentOf(caught);
      if (current) {
        setStartedFrom(current.version);
        setStale(theirs(current.record));
        setError(null);
      } else {
        setError(describeError(caught));
      }
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      closing.current = true;
      void save(true).finally(() => {
        closing.current = false;
      });
    }
  };
  const onBlur = () => {
    // A stale edit waits for the user's choice; a box closing by Enter or Esc has said it already.
    if (closing.current || stale !== null) return;
    void save(false);
  };

  const described =
    [`${id}-hint`, error ? `${id}-error` : null, stale !== null ? `${id}-stale` : null]
      .filter(Boolean)
      .join(' ') || undefined;
  const boxProps = {
    id: `${id}-box`,
    value: typed,
    'aria-labelledby': `${id}-label`,
    'aria-describedby': described,
    'aria-invalid': error ? true : undefined,
    autoFocus: true,
    onChange: (event: { target: { value: string } }) => setTyped(event.target.value),
    onKeyDown,
    onBlur,
  };
  return (
    <div className={`item-field${error ? ' field-invalid' : ''}`}>
      <dt id={`${id}-label`}>{label}</dt>
      <dd>
        {editing ? (
          <>
            {long ? <textarea rows={4} {...boxProps} /> : <input type="text" {...boxProps} />}
            <p id={`${id}-hint`} className="field-hint">
              {hint ? `${hint}. ` : ''}Enter saves, Esc cancels
              {long ? ', Shift+Enter starts a new line' : ''}.
            </p>
            {error && (
              <p id={`${id}-error`} className="field-error" role="alert">
                {error}
              </p>
            )}
            {stale !== null && (
              <p id={`${id}-stale`} className="form-alert" role="alert">
                Someone else changed this resource meanwhile: {label} is now “{stale || 'empty'}”.
                Press Enter to save yours over it, or Esc to keep theirs.
              </p>
            )}
          </>
        ) : canEdit ? (
          <button
            ref={valueRef}
            type="button"
            className={`item-value${long ? ' item-value-long' : ''}${text ? '' : ' item-value-empty'}`}
            aria-label={`${label}: ${text || 'empty'}`}
            onClick={open}
          >
            {text || '—'}
          </button>
        ) : (
          <span className={`item-text${long ? ' item-value-long' : ''}`}>{text || '—'}</span>
        )}
      </dd>
    </div>
  );
}

/** A field of the record (a text, a date, or the URL). */
export function ItemField({
  resource,
  workspaceId,
  field,
  label,
  canEdit,
  startOpen,
  onClosed,
}: {
  resource: Resource;
  workspaceId: string;
  field: FieldKey;
  label: string;
  canEdit: boolean;
  startOpen?: boolean;
  onClosed?: () => void;
}) {
  const read = (record: Resource) =>
    field === 'url' ? (record.url ?? '') : fieldText(record, field);
  return (
    <EditableValue
      resource={resource}
      workspaceId={workspaceId}
      label={label}
      text={read(resource)}
      changes={(typed) => fieldChange(field, typed)}
      theirs={read}
      canEdit={canEdit}
      long={isLongField(field)}
      hint={isDateField(field) ? 'As 2017, 2017-06 or 2017-06-12' : undefined}
      startOpen={startOpen}
      onClosed={onClosed}
    />
  );
}
