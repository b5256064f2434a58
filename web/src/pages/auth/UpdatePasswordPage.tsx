import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { FormAlert, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { errorsByField } from './useFieldErrors';
import { PASSWORD_RULES } from './password-rules';
import { SubmitButton } from '../../components/SubmitButton';

/** The reset mail's link lands here with ?token=…; the new password is set with it, then the user signs in. */
export function UpdatePasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const update = useMutation({
    mutationFn: (body: { token: string; password: string }) => unwrap(api.POST('/api/auth/update-password', { body })),
    onSuccess: () => navigate('/auth/signin?reset=1', { replace: true }),
  });
  const errors = errorsByField(update.error, ['password', 'token'] as const);
  if (!token) {
    return (
      <Page title="Choose a new password" narrow>
        <FormAlert>This page needs the link from the password reset e-mail.</FormAlert>
        <p className="form-links">
          <Link to="/auth/forgot-password">Send a new reset link</Link>
        </p>
      </Page>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ token, password });
  };
  return (
    <Page title="Choose a new password" narrow>
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          hint={PASSWORD_RULES}
          error={errors.field.password}
        />
        {(errors.form ?? errors.field.token) && (
          <FormAlert>
            {errors.form ?? errors.field.token} <Link to="/auth/forgot-password">Send a new reset link</Link>
          </FormAlert>
        )}
        <SubmitButton pending={update.isPending} pendingLabel="Saving…">
          Set new password
        </SubmitButton>
      </form>
    </Page>
  );
}
