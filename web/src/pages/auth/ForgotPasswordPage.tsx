import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { FormAlert, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { SubmitButton } from '../../components/SubmitButton';
import { formError, submitWith, useZodForm } from '../../lib/form';
import { ForgotPasswordForm } from './schemas';

/** Asks for a reset mail; its link (set by the server) lands on /auth/update-password?token=…. */
export function ForgotPasswordPage() {
  const form = useZodForm(ForgotPasswordForm, { defaultValues: { email: '' } });
  const request = useMutation({
    mutationFn: (body: { email: string }) => unwrap(api.POST('/api/auth/reset-password', { body })),
  });
  const { errors, isSubmitting } = form.formState;
  const submit = submitWith(form, ['email'], (body) => request.mutateAsync(body));
  return (
    <Page title="Reset your password" narrow>
      {request.isSuccess ? (
        <p className="form-notice" role="status">
          {request.data.message} The link is valid for one hour.
        </p>
      ) : (
        <form className="form" onSubmit={(event) => void submit(event)} noValidate>
          <p>
            Enter the e-mail address of your account and we will send you a link to choose a new
            password.
          </p>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.register('email')}
            error={errors.email?.message}
          />
          {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
          <SubmitButton pending={isSubmitting} pendingLabel="Sending…">
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
