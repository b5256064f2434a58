import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { FormAlert, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { safeNext, SESSION_KEY, useSession } from '../../app/session';
import { OAuthButtons } from './OAuthButtons';
import { errorsByField } from './useFieldErrors';

import { PASSWORD_RULES } from './password-rules';
import { SubmitButton } from '../../components/SubmitButton';

export function SignUpPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // The account is created, then signed in with the same credentials (sign-up starts no session).
  const signUp = useMutation({
    mutationFn: async (body: { name: string; email: string; password: string }) => {
      await unwrap(api.POST('/api/auth/signup', { body: { ...body, name: body.name.trim() || undefined } }));
      await unwrap(api.POST('/api/auth/signin', { body: { email: body.email, password: body.password } }));
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      await navigate(next, { replace: true });
    },
  });
  if (session.data && !signUp.isPending && !signUp.isSuccess) return <Navigate to={next} replace />;

  const errors = errorsByField(signUp.error, ['name', 'email', 'password'] as const);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signUp.mutate({ name, email, password });
  };
  return (
    <Page title="Create your account" narrow>
      <form className="form" onSubmit={submit} noValidate>
        <TextField label="Name" name="name" autoComplete="name" maxLength={100} value={name} onChange={(event) => setName(event.target.value)} error={errors.field.name} />
        <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} error={errors.field.email} />
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
        {errors.form && <FormAlert>{errors.form}</FormAlert>}
        <SubmitButton pending={signUp.isPending} pendingLabel="Creating your account…">
          Sign up
        </SubmitButton>
      </form>
      <p className="form-links">
        <span>
          Already have an account? <Link to={`/auth/signin${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>Sign in</Link>
        </span>
      </p>
      <OAuthButtons next={next} />
    </Page>
  );
}
