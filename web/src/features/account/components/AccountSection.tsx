/**
 * The account on the profile page: change the password (or, for an account made through Google or
 * GitHub, have a link mailed to set one), download all of one's data (JSON, BibTeX), and delete the
 * account after saying what goes with it, counted.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { downloadReply } from '../../../api/download';
import { describeError, type ApiError } from '../../../api/errors';
import type { components } from '../../../api/schema';
import { DownloadButtons } from '../../../components/DownloadButtons';
import { FormAlert, TextField } from '../../../components/Field';
import { ErrorState, LoadingState } from '../../../components/States';
import { SubmitButton } from '../../../components/SubmitButton';
import { useToast } from '../../../components/Toasts';
import { formError, submitWith, useZodForm } from '../../../lib/form';
import { plural } from '../../../lib/plural';
import {
  ChangePasswordForm,
  DeleteWithPasswordForm,
  deleteWithEmailForm,
  sentence,
} from '../schemas';

type Account = components['schemas']['AccountSummary'];
const ACCOUNT_KEY = ['account'] as const;
const asSentence = (error: ApiError) => sentence(describeError(error));

function ChangePassword({ account }: { account: Account }) {
  const toast = useToast();
  const form = useZodForm(ChangePasswordForm, {
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const change = useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      unwrap(api.POST('/api/auth/change-password', { body })),
    onSuccess: () => {
      form.reset();
      toast('Password changed. Every other device was signed out.');
    },
  });
  const submit = submitWith(
    form,
    ['currentPassword', 'newPassword'],
    ({ currentPassword, newPassword }) => change.mutateAsync({ currentPassword, newPassword }),
    asSentence,
  );
  const { errors, isSubmitting } = form.formState;
  if (!account.hasPassword) return <SetPasswordByMail email={account.email} />;
  return (
    <form
      className="form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby="account-password"
    >
      <h3 id="account-password">Change password</h3>
      <p className="field-hint">
        Every other device where you are signed in is signed out; this one stays signed in.
      </p>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        {...form.register('currentPassword')}
        error={errors.currentPassword?.message}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        {...form.register('newPassword')}
        hint="At least 8 characters; common passwords are refused."
        error={errors.newPassword?.message}
      />
      <TextField
        label="New password again"
        type="password"
        autoComplete="new-password"
        {...form.register('confirmPassword')}
        error={errors.confirmPassword?.message}
      />
      {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
      <div>
        <SubmitButton pending={isSubmitting} pendingLabel="Changing…">
          Change password
        </SubmitButton>
      </div>
    </form>
  );
}

/** An account made through Google or GitHub has no password to change: a reset link sets one, proving the mailbox. */
function SetPasswordByMail({ email }: { email: string }) {
  const send = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/reset-password', { body: { email } })),
  });
  return (
    <div className="form" aria-labelledby="account-password" role="group">
      <h3 id="account-password">Password</h3>
      <p>
        You sign in with Google or GitHub, so this account has no password. To set one, we mail a
        link to {<strong className="break-anywhere">{email}</strong>}.
      </p>
      <div>
        <button
          type="button"
          className="button"
          disabled={send.isPending}
          onClick={() => send.mutate()}
        >
          {send.isPending ? 'Sending…' : 'Mail me a link to set a password'}
        </button>
      </div>
      <p role="status" className={send.isError ? 'field-error' : 'muted'}>
        {send.isSuccess
          ? `We sent the link to ${email}. It works once, for one hour.`
          : send.isError
            ? sentence(describeError(send.error))
            : ''}
      </p>
    </div>
  );
}

const DOWNLOADS = [
  { key: 'json', label: 'Download my data (JSON)', what: 'JSON' },
  { key: 'bibtex', label: 'Download my references (BibTeX)', what: 'BibTeX' },
] as const;
type DownloadFormat = (typeof DOWNLOADS)[number]['key'];

function downloadData(format: DownloadFormat): Promise<void> {
  return downloadReply(
    api.GET('/api/account/export', { params: { query: { format } }, parseAs: 'blob' }),
    `research-workspace.${format === 'json' ? 'json' : 'bib'}`,
  );
}

function DownloadData() {
  return (
    <div className="form" role="group" aria-labelledby="account-download">
      <h3 id="account-download">Download my data</h3>
      <p className="field-hint">
        Everything you keep here: your profile, workspaces with their resources, notes, tags and
        annotations, share links (without their secret addresses) and your search history. BibTeX
        holds every resource as a reference. The archive holds both and every PDF you stored, in a
        folder per workspace.
      </p>
      <DownloadButtons
        choices={DOWNLOADS}
        download={downloadData}
        failure={(error) => `Your data could not be downloaded: ${sentence(describeError(error))}`}
      />
      {/* A plain link: the browser saves the streamed archive to disk as it comes, however large. */}
      <p>
        <a className="button" href="/api/account/export?format=zip" download>
          Download everything with the PDFs (ZIP)
        </a>
      </p>
    </div>
  );
}

/** What deleting the account deletes, counted. */
function consequences(account: Account): string {
  const {
    workspaces,
    resources,
    pdfs,
    annotations,
    activeShareLinks,
    sharedWorkspaces,
    memberships,
  } = account.holdings;
  const left =
    memberships === 0
      ? ''
      : ` You leave ${plural(memberships, 'workspace')} of other ` +
        `people; ${memberships === 1 ? 'it stays' : 'they stay'} ` +
        `with ${memberships === 1 ? 'its' : 'their'} owners.`;
  if (workspaces === 0)
    return `You have no workspaces of your own.${left} Your profile, avatar, search history and sign-in are deleted.`;
  const shared =
    sharedWorkspaces === 0
      ? ''
      : ` ${sharedWorkspaces === 1 ? 'One of them is' : `${sharedWorkspaces} of them are`} ` +
        `shared with other members, who ` +
        `lose ${sharedWorkspaces === 1 ? 'it' : 'them'}: to ` +
        `keep ${sharedWorkspaces === 1 ? 'it' : 'them'}, make one of them the ` +
        `owner first (the workspace's members).`;
  const links =
    activeShareLinks === 0
      ? 'No share link is open now.'
      : `${plural(activeShareLinks, 'share link')} stop${activeShareLinks === 1 ? 's' : ''} ` +
        `working: whoever has ${activeShareLinks === 1 ? 'it' : 'them'} sees “not found”.`;
  return (
    `${plural(workspaces, 'workspace')} you ` +
    `own ${workspaces === 1 ? 'is' : 'are'} deleted ` +
    `with ${plural(resources, 'resource')}, ${plural(pdfs, 'PDF')} ` +
    `and ${plural(annotations, 'annotation')}.${shared} ` +
    `${links}${left} ` +
    'Your profile, avatar, search history and sign-in are deleted too.'
  );
}

function DeleteForm({ account, onDeleted }: { account: Account; onDeleted: () => Promise<void> }) {
  const passwordForm = useZodForm(DeleteWithPasswordForm, { defaultValues: { password: '' } });
  const emailForm = useZodForm(deleteWithEmailForm(account.email), {
    defaultValues: { email: '' },
  });
  const remove = useMutation({
    mutationFn: (body: { password?: string; email?: string }) =>
      unwrap(api.DELETE('/api/account', { body })),
    onSuccess: onDeleted,
  });
  const submitPassword = submitWith(
    passwordForm,
    ['password'],
    (body) => remove.mutateAsync(body),
    asSentence,
  );
  const submitEmail = submitWith(
    emailForm,
    ['email'],
    (body) => remove.mutateAsync(body),
    asSentence,
  );
  const actions = (pending: boolean) => (
    <div className="dialog-actions">
      <button
        type="submit"
        className="button button-danger"
        disabled={pending}
        aria-busy={pending || undefined}
      >
        {pending ? 'Deleting…' : 'Delete my account'}
      </button>
      <Dialog.Close className="button">Cancel</Dialog.Close>
    </div>
  );
  if (account.hasPassword) {
    const form = passwordForm;
    return (
      <form className="form" onSubmit={(event) => void submitPassword(event)} noValidate>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...form.register('password')}
          error={form.formState.errors.password?.message}
        />
        {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
        {actions(form.formState.isSubmitting)}
      </form>
    );
  }
  const form = emailForm;
  return (
    <form className="form" onSubmit={(event) => void submitEmail(event)} noValidate>
      <TextField
        label="Your e-mail address"
        type="email"
        autoComplete="off"
        hint={<span className="break-anywhere">Type {account.email} to confirm.</span>}
        {...form.register('email')}
        error={form.formState.errors.email?.message}
      />
      {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
      {actions(form.formState.isSubmitting)}
    </form>
  );
}

function DeleteAccount({ account }: { account: Account }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  // The page it lands on forgets the session (were it forgotten here, this signed-in page's guard
  // would send the visitor to sign in first, saying nothing).
  const deleted = async () => {
    await navigate('/auth/account-deleted', { replace: true, state: { deleted: true } });
  };
  return (
    <div className="form danger-zone" role="group" aria-labelledby="account-delete">
      <h3 id="account-delete">Delete account</h3>
      <p>
        {consequences(account)} This cannot be undone; download your data first if you want to keep
        it.
      </p>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <div>
          <Dialog.Trigger className="button button-danger">Delete my account…</Dialog.Trigger>
        </div>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title>Delete your account?</Dialog.Title>
            <Dialog.Description>
              {consequences(account)} This cannot be undone.{' '}
              {account.hasPassword
                ? 'Enter your current password to confirm.'
                : 'Type your e-mail address to confirm.'}
            </Dialog.Description>
            <DeleteForm account={account} onDeleted={deleted} />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}

export function AccountSection() {
  const account = useQuery({
    queryKey: ACCOUNT_KEY,
    queryFn: () => unwrap(api.GET('/api/account')),
  });
  return (
    <section className="card account-section" aria-labelledby="account-heading">
      <h2 id="account-heading">Account</h2>
      {account.isPending ? (
        <LoadingState label="Loading your account…" />
      ) : account.isError ? (
        <ErrorState error={account.error} onRetry={() => void account.refetch()} />
      ) : (
        <>
          <ChangePassword account={account.data} />
          <DownloadData />
          <DeleteAccount account={account.data} />
        </>
      )}
    </section>
  );
}
