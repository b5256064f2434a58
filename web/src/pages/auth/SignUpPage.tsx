import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { z } from 'zod/mini';
import { FormAlert, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { safeNext, SESSION_KEY, useSession } from '../../lib/session';
import { OAuthButtons } from './OAuthButtons';
import { SubmitButton } from '../../components/SubmitButton';
import { formError, submitWith, useZodForm } from '../../lib/form';
import { PASSWORD_RULES, SignUpForm } from './schemas';

export function SignUpPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(SignUpForm, { defaultValues: { name: '', email: '', password: '' } });
  // The account is created, then signed in with the same credentials (sign-up starts no session).
  // With confirmation required, the next page says where the link went (then leads on to `next`).
  const signUp = useMutation({
    mutationFn: async (body: z.output<typeof SignUpForm>) => {
      const created = await unwrap(api.POST('/api/auth/signup', { body }));
      await unwrap(
        api.POST('/api/auth/signin', { body: { email: body.email, password: body.password } }),
      );
      return created;
    },
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      await navigate(
        created.confirmationSent ? `/auth/check-inbox?next=${encodeURIComponent(next)}` : next,
        { replace: true },
      );
    },
  });
  if (session.data && !signUp.isPending && !signUp.isSuccess) return <Navigate to={next} replace />;

  const { errors, isSubmitting } = form.formState;
  const submit = submitWith(form, ['name', 'email', 'password'], (body) =>
    signUp.mutateAsync(body),
  );
  return (
    <Page title="Create your account" narrow>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Name"
          autoComplete="name"
          maxLength={100}
          {...form.register('name')}
          error={errors.name?.message}
        />
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
          autoComplete="new-password"
          required
          {...form.register('password')}
          hint={PASSWORD_RULES}
          error={errors.password?.message}
        />
        {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
        <SubmitButton pending={isSubmitting} pendingLabel="Creating your account…">
          Sign up
        </SubmitButton>
      </form>
      <p className="form-links">
        <span>
          Already have an account?{' '}
          <Link to={`/auth/signin${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>
            Sign in
          </Link>
        </span>
      </p>
      <OAuthButtons next={next} />
    </Page>
  );
}
