/**
 * "New item…": a resource typed by hand, of any type (POST …/resources with its title, type and the
 * fields of that type; no URL needed). The fields follow the type chosen, as in the item pane; what
 * is left empty is not sent. The API's refusal shows at the field it names. Once made, the item
 * opens in the pane, where its creators and any other field are filled in.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError, describeError } from '../../../api/errors';
import { FormAlert, TextAreaField, TextField } from '../../../components/Field';
import { useDialogFocusReturn } from '../../../components/dialog-focus';
import { SubmitButton } from '../../../components/SubmitButton';
import { useToast } from '../../../components/Toasts';
import { useAddResource, type NewResource } from '../hooks/use-workspaces';
import {
  fieldChange,
  fieldLabel,
  fieldsFor,
  isDateField,
  isLongField,
  ITEM_TYPES,
  TYPE_LABELS,
  type FieldKey,
  type ItemType,
} from '../record-fields';

const TITLE_MAX = 300;

export function NewItemDialog({
  open,
  workspaceId,
  onClose,
  onCreated,
}: {
  open: boolean;
  workspaceId: string;
  onClose: () => void;
  onCreated: (resourceId: string) => void;
}) {
  const id = useId();
  const add = useAddResource();
  const toast = useToast();
  const returnFocus = useDialogFocusReturn();
  const [type, setType] = useState<ItemType>('article-journal');
  const [title, setTitle] = useState('');
  const [values, setValues] = useState<Partial<Record<FieldKey, string>>>({});
  const [errors, setErrors] = useState<{ field: string; message: string } | null>(null);
  const fields = fieldsFor(type, {});

  useEffect(() => {
    if (!open) return;
    setType('article-journal');
    setTitle('');
    setValues({});
    setErrors(null);
  }, [open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const trimmed = title.trim();
    if (!trimmed) return setErrors({ field: 'title', message: 'Enter a title.' });
    if (trimmed.length > TITLE_MAX)
      return setErrors({ field: 'title', message: `At most ${TITLE_MAX} characters.` });
    setErrors(null);
    // Only the fields of the type chosen (a value typed under another type is not sent), and not empty.
    const record = Object.assign(
      {},
      ...fields
        .filter((field) => (values[field] ?? '').trim() !== '')
        .map((field) => fieldChange(field, values[field] ?? '')),
    ) as Omit<NewResource, 'title' | 'type'>;
    try {
      const made = await add.mutateAsync({
        workspaceId,
        resource: { ...record, title: trimmed, type },
      });
      toast(`Added “${made.title}”`);
      onCreated(made.id);
    } catch (caught) {
      const field = caught instanceof ApiError ? (caught.field?.split('.')[0] ?? '') : '';
      setErrors({ field, message: describeError(caught) });
    }
  };
  const errorAt = (field: string) => (errors?.field === field ? errors.message : undefined);
  const elsewhere =
    errors && errors.field !== 'title' && !fields.includes(errors.field as FieldKey)
      ? errors.message
      : null;

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={`${id}-about`} {...returnFocus}>
          <Dialog.Title>New item</Dialog.Title>
          <p id={`${id}-about`} className="muted">
            A reference typed by hand. Add its creators and any other field in the item pane once it
            is made.
          </p>
          <form className="form" noValidate onSubmit={(event) => void submit(event)}>
            <div className="field">
              <label htmlFor={`${id}-type`}>Item type</label>
              <select
                id={`${id}-type`}
                value={type}
                onChange={(event) => setType(event.target.value as ItemType)}
              >
                {ITEM_TYPES.map((each) => (
                  <option key={each} value={each}>
                    {TYPE_LABELS[each]}
                  </option>
                ))}
              </select>
            </div>
            <TextField
              label="Title"
              required
              value={title}
              onChange={(event) => {
                setTitle(event.target.value);
                // "Enter a title." goes once there is one.
                if (errors?.field === 'title' && event.target.value.trim()) setErrors(null);
              }}
              error={errorAt('title')}
            />
            {fields.map((field) => {
              const common = {
                label: fieldLabel(field, type),
                value: values[field] ?? '',
                error: errorAt(field),
                hint: isDateField(field) ? 'As 2017, 2017-06 or 2017-06-12' : undefined,
              };
              const set = (value: string) => setValues((was) => ({ ...was, [field]: value }));
              return isLongField(field) ? (
                <TextAreaField
                  key={field}
                  {...common}
                  rows={3}
                  onChange={(event) => set(event.target.value)}
                />
              ) : (
                <TextField key={field} {...common} onChange={(event) => set(event.target.value)} />
              );
            })}
            {elsewhere && <FormAlert>{elsewhere}</FormAlert>}
            <div className="dialog-actions">
              <SubmitButton pending={add.isPending} pendingLabel="Adding…">
                Add item
              </SubmitButton>
              <Dialog.Close className="button">Cancel</Dialog.Close>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
