import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, sessionEndCode, unwrap, type SessionEndCode } from '../../api/client';
import { FormAlert, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { safeNext, SESSION_KEY, useSession } from '../../lib/session';
import { OAuthButtons } from './OAuthButtons';
import { SubmitButton } from '../../components/SubmitButton';
import { formError, submitWith, useZodForm } from '../../lib/form';
import { SignInForm } from './schemas';

/**
 * Why the session ended, for `?ended=` (set by the app's guard when a request found it ended: see
 * lib/session.tsx). Only these codes are read; any other value says nothing.
 */
const ENDED: Record<SessionEndCode, string> = {
  signed_out: 'You were signed out, in this tab or another one. Sign in again to continue.',
  password_changed:
    'Your session ended because your password was changed. Sign in with the new password.',
  reused:
    'Your session was ended to keep your account safe: a sign-in token was used twice. Sign in again.',
  expired: 'Your session expired. Sign in again to continue.',
  cookies:
    'You were signed out: this browser no longer holds your session (its cookies were cleared). Sign in again.',
  unknown: 'Your session ended. Sign in again to continue.',
};

/** What the server's redirects to /auth/signin?error=… mean. */
const NOTICES: Record<string, string> = {
  oauth_denied: 'Sign-in was cancelled at the provider.',
  oauth_state_mismatch:
    'That sign-in link expired or was opened in another browser. Please try again.',
  oauth_not_configured: 'That sign-in provider is not configured on this server.',
  oauth_account_exists: 'An account with this e-mail already exists. Sign in with your password.',
  oauth_failed: 'Signing in with the provider failed. Please try again.',
};

export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(SignInForm, { defaultValues: { email: '', password: '' } });
  const signIn = useMutation({
    mutationFn: (body: { email: string; password: string }) =>
      unwrap(api.POST('/api/auth/signin', { body })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      await navigate(next, { replace: true });
    },
  });
  if (session.data && !signIn.isPending && !signIn.isSuccess) return <Navigate to={next} replace />;

  const { errors, isSubmitting } = form.formState;
  const error = params.get('error');
  const notice = error ? (NOTICES[error] ?? 'Signing in failed. Please try again.') : null;
  const ended = sessionEndCode(params.get('ended'));
  const submit = submitWith(form, ['email', 'password'], (body) => signIn.mutateAsync(body));
  return (
    <Page title="Sign in" narrow>
      {ended && (
        <p className="form-notice" role="status">
          {ENDED[ended]}
        </p>
      )}
      {params.get('reset') === '1' && (
        <p className="form-notice">Your password was changed. Sign in with the new one.</p>
      )}
      {notice && <FormAlert>{notice}</FormAlert>}
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...form.register('email')}
          error={errors.email?.message}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          {...form.register('password')}
          error={errors.password?.message}
        />
        {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
        <SubmitButton pending={isSubmitting} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
      <p className="form-links">
        <Link to="/auth/forgot-password">Forgot your password?</Link>
        <span>
          New here?{' '}
          <Link to={`/auth/signup${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>
            Create an account
          </Link>
        </span>
      </p>
      <OAuthButtons next={next} />
    </Page>
  );
}
