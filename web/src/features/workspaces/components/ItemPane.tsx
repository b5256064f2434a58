/**
 * The item pane (Zotero's is the model): a resource's whole record, every field editable in place.
 * Its type (a select: changing it saves at once), title, creators (CreatorsEditor), the fields of its
 * type (record-fields.ts), every other field it holds, and "More fields" to fill any other field of
 * the record (the abstract is edited in its own section of the panel, ResourceItem), and "Update from
 * source" for a resource with a DOI, arXiv id or PMID (UpdateFromSource). Viewers see the same, read
 * only.
 */
import { useId, useState } from 'react';
import { describeError, isStale } from '../../../api/errors';
import { useAbilities } from '../../../lib/workspace-role';
import { useUpdateResource, type Resource } from '../hooks/use-workspaces';
import {
  fieldLabel,
  fieldsFor,
  ITEM_TYPES,
  PANE_FIELDS,
  TYPE_LABELS,
  TYPE_NOTES,
  typeLabel,
  type FieldKey,
  type ItemType,
} from '../record-fields';
import { canRefresh } from '../refresh';
import { CreatorsEditor } from './CreatorsEditor';
import { UpdateFromSource } from './UpdateFromSource';
import { EditableValue, ItemField } from './ItemField';

function TypeSelect({ resource, workspaceId }: { resource: Resource; workspaceId: string }) {
  const id = useId();
  const update = useUpdateResource(workspaceId);
  const [message, setMessage] = useState<string | null>(null);
  const choose = async (type: ItemType) => {
    setMessage(null);
    try {
      await update.mutateAsync({ resourceId: resource.id, version: resource.version, type });
    } catch (caught) {
      setMessage(
        isStale(caught)
          ? `Someone else changed this resource meanwhile: it is now a ${typeLabel(
              (caught.current as Resource).type,
            ).toLowerCase()}. Choose again to change it.`
          : describeError(caught),
      );
    }
  };
  return (
    <div className={`field item-type${message ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>Item type</label>
      <select
        id={id}
        value={resource.type}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(event) => void choose(event.target.value as ItemType)}
      >
        {ITEM_TYPES.map((type) => (
          <option key={type} value={type}>
            {TYPE_LABELS[type]}
          </option>
        ))}
      </select>
      {message && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

export function ItemPane({ resource, workspaceId }: { resource: Resource; workspaceId: string }) {
  const id = useId();
  const can = useAbilities();
  // Fields chosen in "More fields" to fill (shown until the pane closes, filled or not), and the one
  // just chosen, which opens in its box.
  const [added, setAdded] = useState<FieldKey[]>([]);
  const [opening, setOpening] = useState<FieldKey | null>(null);
  const record = resource as unknown as Partial<Record<FieldKey, unknown>>;
  const shown = fieldsFor(resource.type, { ...record, url: resource.url }, added);
  const more = PANE_FIELDS.filter((field) => !shown.includes(field));
  const [choice, setChoice] = useState<FieldKey | ''>('');
  const chosen = choice && more.includes(choice) ? choice : (more[0] ?? '');

  return (
    <section className="item-pane" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Info</h3>
      {can.edit ? (
        <TypeSelect resource={resource} workspaceId={workspaceId} />
      ) : (
        <p>
          <strong>Item type:</strong> {typeLabel(resource.type)}
        </p>
      )}
      <dl className="item-fields">
        <EditableValue
          resource={resource}
          workspaceId={workspaceId}
          label="Title"
          text={resource.title}
          changes={(typed) => ({ title: typed.trim() })}
          theirs={(current) => current.title}
          canEdit={can.edit}
        />
        <EditableValue
          resource={resource}
          workspaceId={workspaceId}
          label="Citation key"
          text={resource.citationKey}
          changes={(typed) => ({ citationKey: typed.trim() })}
          theirs={(current) => current.citationKey}
          canEdit={can.edit}
          hint="How documents cite it: \cite{key} or [@key]. letters, digits and : / - _ . are safe"
        />
      </dl>
      <CreatorsEditor
        resource={resource}
        workspaceId={workspaceId}
        canEdit={can.edit}
        note={TYPE_NOTES[resource.type]}
      />
      <dl className="item-fields">
        {shown.map((field) => (
          <ItemField
            key={field}
            resource={resource}
            workspaceId={workspaceId}
            field={field}
            label={fieldLabel(field, resource.type)}
            canEdit={can.edit}
            startOpen={opening === field}
            onClosed={() => setOpening(null)}
          />
        ))}
      </dl>
      {can.edit && more.length > 0 && (
        <div className="item-more">
          <div className="field-inline">
            <label htmlFor={`${id}-more`}>More fields</label>
            <select
              id={`${id}-more`}
              value={chosen}
              onChange={(event) => setChoice(event.target.value as FieldKey)}
            >
              {more.map((field) => (
                <option key={field} value={field}>
                  {fieldLabel(field, resource.type)}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="button button-small"
            disabled={!chosen}
            onClick={() => {
              if (!chosen) return;
              setAdded((list) => [...list, chosen]);
              setOpening(chosen);
              setChoice('');
            }}
          >
            Add field
          </button>
        </div>
      )}
      {can.edit && canRefresh(resource) && (
        <UpdateFromSource resource={resource} workspaceId={workspaceId} />
      )}
    </section>
  );
}
