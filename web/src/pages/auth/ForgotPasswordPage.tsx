import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { FormAlert, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { errorsByField } from './useFieldErrors';
import { SubmitButton } from '../../components/SubmitButton';

/** Asks for a reset mail; its link (set by the server) lands on /auth/update-password?token=…. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const request = useMutation({ mutationFn: (body: { email: string }) => unwrap(api.POST('/api/auth/reset-password', { body })) });
  const errors = errorsByField(request.error, ['email'] as const);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate({ email });
  };
  return (
    <Page title="Reset your password" narrow>
      {request.isSuccess ? (
        <p className="form-notice" role="status">
          {request.data.message} The link is valid for one hour.
        </p>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <p>Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
          <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} error={errors.field.email} />
          {errors.form && <FormAlert>{errors.form}</FormAlert>}
          <SubmitButton pending={request.isPending} pendingLabel="Sending…">
            Send reset link
          </SubmitButton>
        </form>
      )}
      <p className="form-links">
        <Link to="/auth/signin">Back to sign in</Link>
      </p>
    </Page>
  );
}
