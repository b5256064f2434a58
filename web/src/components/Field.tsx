/**
 * A labelled form field: the label names the control, a hint and the error are tied to it by
 * aria-describedby, and a field with an error (its schema's, or the API's for the field it named) is
 * marked invalid. The control takes a form library's `register(name)` as it is, ref included.
 */
import { useId, type ComponentProps, type ReactNode } from 'react';

interface Common {
  label: string;
  hint?: ReactNode;
  error?: string | null;
}

/** The label, hint and error around one control; `control` gets the id and ARIA attributes to spread. */
function FieldFrame({
  label,
  hint,
  error,
  className,
  control,
}: Common & { className?: string; control: (aria: ControlAria) => ReactNode }) {
  const id = useId();
  const describedBy =
    [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

interface ControlAria {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export function TextField({
  label,
  hint,
  error,
  className,
  ...input
}: Common & ComponentProps<'input'>) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      className={className}
      control={(aria) => <input {...aria} {...input} />}
    />
  );
}

/**
 * A long text. With `limit` (and the text's `length`), it says how many characters it holds of how many
 * it may as one types, and how many too many past it: nothing is cut (a paste keeps all of it, no
 * `maxLength`), and the form's own check refuses it on submit.
 */
export function TextAreaField({
  label,
  hint,
  error,
  limit,
  length = 0,
  ...input
}: Common & ComponentProps<'textarea'> & { limit?: number; length?: number }) {
  const over = limit !== undefined && length > limit;
  const count =
    limit === undefined ? null : (
      <span
        className={over ? 'field-count field-count-over' : 'field-count'}
        aria-live={over ? 'polite' : 'off'}
      >
        {length.toLocaleString('en-US')} / {limit.toLocaleString('en-US')} characters
        {over ? `: ${(length - limit).toLocaleString('en-US')} too many` : ''}
      </span>
    );
  const hints =
    hint && count ? (
      <>
        {hint} {count}
      </>
    ) : (
      (hint ?? count)
    );
  return (
    <FieldFrame
      label={label}
      hint={hints}
      error={error}
      control={(aria) => <textarea {...aria} {...input} />}
    />
  );
}

/** A form-level message (role=alert so that it is announced). */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div className="form-alert" role="alert">
      {children}
    </div>
  );
}
