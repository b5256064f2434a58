/**
 * A resource's creators in the item pane: read as a list, and edited as one draft (`Edit creators`):
 * add, remove, move up and down (buttons: the keyboard does all of it), switch a name between two
 * fields (family, given) and one (an organisation), change its role; a two-field name's particles and
 * suffix ("van" of van Gogh, "Jr.") under its `More` disclosure. `Save creators` sends them all
 * (`creators` replaces the list; If-Match); the API's refusal names the creator and the part
 * (`creators.2.family`) and shows at that row. A 412 shows the creators saved now and keeps the
 * draft, to save over them or cancel.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { ApiError, describeError, isStale } from '../../../api/errors';
import { useUpdateResource, type Resource } from '../hooks/use-workspaces';
import {
  creatorLine,
  creatorName,
  creatorsOf,
  draftOf,
  fieldOfError,
  moveCreator,
  NAME_PARTS,
  newDraft,
  ROLE_LABELS,
  ROLES,
  switchFields,
  type Creator,
  type CreatorDraft,
  type NamePart,
} from '../record-fields';

const PART_LABELS: Record<NamePart, string> = {
  nonDroppingParticle: 'Family name particle',
  droppingParticle: 'Given name particle',
  suffix: 'Suffix',
};

/** "Lovelace, Ada (editor)" for each, in order. */
function CreatorList({ creators }: { creators: Creator[] }) {
  if (creators.length === 0) return <p className="muted">No creators yet.</p>;
  return (
    <ol className="creator-list">
      {creators.map((creator, index) => (
        <li key={index}>{creatorLine(creator)}</li>
      ))}
    </ol>
  );
}

export function CreatorsEditor({
  resource,
  workspaceId,
  canEdit,
  note,
}: {
  resource: Resource;
  workspaceId: string;
  canEdit: boolean;
  /** A word on this type's creators (a chapter's editors). */
  note?: string;
}) {
  const id = useId();
  const update = useUpdateResource(workspaceId);
  const [drafts, setDrafts] = useState<CreatorDraft[] | null>(null);
  const [startedFrom, setStartedFrom] = useState(resource.version);
  const [error, setError] = useState<{ message: string; index?: number } | null>(null);
  const [stale, setStale] = useState<Creator[] | null>(null);
  const [said, setSaid] = useState('');
  const editRef = useRef<HTMLButtonElement>(null);
  // After a move or an add: the control to focus once the rows are drawn again.
  const focusNext = useRef<string | null>(null);
  const wasEditing = useRef(false);

  useEffect(() => {
    if (focusNext.current) {
      document.getElementById(focusNext.current)?.focus();
      focusNext.current = null;
    }
  });
  // Focus goes back to `Edit creators` when the editor closes (saved or cancelled).
  useEffect(() => {
    if (wasEditing.current && drafts === null) editRef.current?.focus();
    wasEditing.current = drafts !== null;
  }, [drafts]);

  const start = () => {
    setDrafts(resource.creators.map(draftOf));
    setStartedFrom(resource.version);
    setError(null);
    setStale(null);
    setSaid('');
  };
  const cancel = () => setDrafts(null);
  const change = (key: number, next: (draft: CreatorDraft) => CreatorDraft) =>
    setDrafts((list) => list?.map((draft) => (draft.key === key ? next(draft) : draft)) ?? null);
  const controlId = (key: number, what: string) => `${id}-${key}-${what}`;

  const move = (index: number, by: -1 | 1) => {
    if (!drafts) return;
    const moved = drafts[index];
    if (!moved) return;
    const to = index + by;
    setDrafts(moveCreator(drafts, index, to));
    // The same button, unless the row reached the end it moved to: then the other one.
    const atEdge = (by === -1 && to === 0) || (by === 1 && to === drafts.length - 1);
    focusNext.current = controlId(moved.key, (by === -1) !== atEdge ? 'up' : 'down');
    setSaid(`${nameOf(moved)} moved to position ${to + 1} of ${drafts.length}.`);
  };
  const remove = (index: number) => {
    if (!drafts) return;
    const gone = drafts[index];
    const rest = drafts.filter((_, place) => place !== index);
    setDrafts(rest);
    const neighbour = rest[Math.min(index, rest.length - 1)];
    focusNext.current = neighbour ? controlId(neighbour.key, 'remove') : `${id}-add`;
    setSaid(`${gone ? nameOf(gone) : 'Creator'} removed.`);
  };
  const add = () => {
    const draft = newDraft();
    setDrafts((list) => [...(list ?? []), draft]);
    focusNext.current = controlId(draft.key, 'family');
  };
  const save = async () => {
    if (!drafts || update.isPending) return;
    try {
      await update.mutateAsync({
        resourceId: resource.id,
        version: startedFrom,
        creators: creatorsOf(drafts),
      });
      setDrafts(null);
      setSaid('Creators saved.');
    } catch (caught) {
      if (isStale(caught)) {
        const current = caught.current as Resource;
        setStartedFrom(current.version);
        setStale(current.creators);
        setError(null);
        return;
      }
      const at = caught instanceof ApiError ? fieldOfError(caught.field) : null;
      const index = at?.field === 'creators' ? at.index : undefined;
      setError({ message: describeError(caught), ...(index === undefined ? {} : { index }) });
    }
  };

  return (
    <section className="item-creators" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Creators</h3>
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
      {note && <p className="muted">{note}</p>}
      {drafts === null ? (
        <>
          <CreatorList creators={resource.creators} />
          {canEdit && (
            <button ref={editRef} type="button" className="button button-small" onClick={start}>
              Edit creators
            </button>
          )}
        </>
      ) : (
        <form
          className="creator-form"
          aria-label="Creators"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              cancel();
            }
          }}
        >
          {drafts.length === 0 && <p className="muted">No creators: add one, or save none.</p>}

          <ol className="creator-rows">
            {drafts.map((draft, index) => {
              const number = index + 1;
              const rowError = error && error.index === index ? error.message : null;
              return (
                <li key={draft.key}>
                  <fieldset
                    className={`creator-row${rowError ? ' field-invalid' : ''}`}
                    aria-describedby={rowError ? controlId(draft.key, 'error') : undefined}
                  >
                    <legend className="visually-hidden">Creator {number}</legend>
                    <div className="field">
                      <label htmlFor={controlId(draft.key, 'role')}>Role</label>
                      <select
                        id={controlId(draft.key, 'role')}
                        value={draft.role}
                        onChange={(event) =>
                          change(draft.key, (was) => ({
                            ...was,
                            role: event.target.value as CreatorDraft['role'],
                          }))
                        }
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>
                            {ROLE_LABELS[role]}
                          </option>
                        ))}
                      </select>
                    </div>
                    {draft.single ? (
                      <div className="field creator-literal">
                        <label htmlFor={controlId(draft.key, 'literal')}>
                          Organisation or name
                        </label>
                        <input
                          id={controlId(draft.key, 'literal')}
                          value={draft.literal}
                          onChange={(event) =>
                            change(draft.key, (was) => ({ ...was, literal: event.target.value }))
                          }
                        />
                      </div>
                    ) : (
                      <>
                        <div className="field">
                          <label htmlFor={controlId(draft.key, 'family')}>Family name</label>
                          <input
                            id={controlId(draft.key, 'family')}
                            value={draft.family}
                            onChange={(event) =>
                              change(draft.key, (was) => ({ ...was, family: event.target.value }))
                            }
                          />
                        </div>
                        <div className="field">
                          <label htmlFor={controlId(draft.key, 'given')}>Given name</label>
                          <input
                            id={controlId(draft.key, 'given')}
                            value={draft.given}
                            onChange={(event) =>
                              change(draft.key, (was) => ({ ...was, given: event.target.value }))
                            }
                          />
                        </div>
                        <button
                          type="button"
                          className="button button-small creator-parts-toggle"
                          aria-expanded={draft.partsOpen}
                          aria-controls={controlId(draft.key, 'parts')}
                          aria-label={`Creator ${number}: particles and suffix`}
                          onClick={() =>
                            change(draft.key, (was) => ({ ...was, partsOpen: !was.partsOpen }))
                          }
                        >
                          {draft.partsOpen ? 'Less' : 'More'}
                        </button>
                        {draft.partsOpen && (
                          <div id={controlId(draft.key, 'parts')} className="creator-parts">
                            <p id={controlId(draft.key, 'parts-hint')} className="muted">
                              A family name particle stays with the family name (“van” of van Gogh,
                              Vincent); a given name particle follows the given name (“van” of
                              Beethoven, Ludwig van); a suffix: Jr., III.
                            </p>
                            {NAME_PARTS.map((part) => (
                              <div className="field" key={part}>
                                <label htmlFor={controlId(draft.key, part)}>
                                  {PART_LABELS[part]}
                                </label>
                                <input
                                  id={controlId(draft.key, part)}
                                  value={draft[part]}
                                  aria-describedby={controlId(draft.key, 'parts-hint')}
                                  onChange={(event) =>
                                    change(draft.key, (was) => ({
                                      ...was,
                                      [part]: event.target.value,
                                    }))
                                  }
                                />
                              </div>
                            ))}
                          </div>
                        )}
                      </>
                    )}
                    <div className="row-actions creator-actions">
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={`Creator ${number}: ${draft.single ? 'use two fields (family, given)' : 'use one field (organisation)'}`}
                        onClick={() => {
                          change(draft.key, switchFields);
                          focusNext.current = controlId(
                            draft.key,
                            draft.single ? 'family' : 'literal',
                          );
                        }}
                      >
                        {draft.single ? 'Two fields' : 'One field'}
                      </button>
                      <button
                        id={controlId(draft.key, 'up')}
                        type="button"
                        className="button button-small"
                        aria-label={`Move creator ${number} up`}
                        disabled={index === 0}
                        onClick={() => move(index, -1)}
                      >
                        ↑ Up
                      </button>
                      <button
                        id={controlId(draft.key, 'down')}
                        type="button"
                        className="button button-small"
                        aria-label={`Move creator ${number} down`}
                        disabled={index === drafts.length - 1}
                        onClick={() => move(index, 1)}
                      >
                        ↓ Down
                      </button>
                      <button
                        id={controlId(draft.key, 'remove')}
                        type="button"
                        className="button button-small button-danger"
                        aria-label={`Remove creator ${number}`}
                        onClick={() => remove(index)}
                      >
                        Remove
                      </button>
                    </div>
                    {rowError && (
                      <p id={controlId(draft.key, 'error')} className="field-error" role="alert">
                        {rowError}
                      </p>
                    )}
                  </fieldset>
                </li>
              );
            })}
          </ol>
          {error && error.index === undefined && (
            <p className="field-error" role="alert">
              {error.message}
            </p>
          )}
          {stale && (
            <div className="form-alert" role="alert">
              Someone else changed this resource meanwhile. Its creators are now:{' '}
              {stale.length === 0 ? 'none' : stale.map(creatorName).join('; ')}. Save yours over
              them, or cancel to keep theirs.
            </div>
          )}
          <div className="row-actions">
            <button id={`${id}-add`} type="button" className="button button-small" onClick={add}>
              Add creator
            </button>
            <button
              type="submit"
              className="button button-primary button-small"
              aria-disabled={update.isPending || undefined}
            >
              {update.isPending ? 'Saving…' : 'Save creators'}
            </button>
            <button type="button" className="button button-small" onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function nameOf(draft: CreatorDraft): string {
  return (draft.single ? draft.literal : [draft.given, draft.family].join(' ')).trim() || 'Creator';
}
