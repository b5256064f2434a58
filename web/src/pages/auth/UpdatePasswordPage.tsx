import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { FormAlert, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { SubmitButton } from '../../components/SubmitButton';
import { formError, submitWith, useZodForm } from '../../lib/form';
import { PASSWORD_RULES, UpdatePasswordForm } from './schemas';

/** The reset mail's link lands here with ?token=…; the new password is set with it, then the user signs in. */
export function UpdatePasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const form = useZodForm(UpdatePasswordForm, { defaultValues: { password: '' } });
  const update = useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      unwrap(api.POST('/api/auth/update-password', { body })),
    onSuccess: () => navigate('/auth/signin?reset=1', { replace: true }),
  });
  const { errors, isSubmitting } = form.formState;
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
  // A refused token names the field `token`, which the form has not: its message is the form's.
  const submit = submitWith(form, ['password'], ({ password }) =>
    update.mutateAsync({ token, password }),
  );
  return (
    <Page title="Choose a new password" narrow>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          {...form.register('password')}
          hint={PASSWORD_RULES}
          error={errors.password?.message}
        />
        {formError(form) && (
          <FormAlert>
            {formError(form)} <Link to="/auth/forgot-password">Send a new reset link</Link>
          </FormAlert>
        )}
        <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
          Set new password
        </SubmitButton>
      </form>
    </Page>
  );
}
