/**
 * Share links of a workspace: create one with an expiry, copy its address, see when each expires and
 * whether one may join through it, resume a paused one, revoke. The owner alone makes, sees and turns
 * the links one joins through (editable ones, read-only ones open to joining); an editor gets the
 * read-only links only from the service.
 */
import { useState } from 'react';
import { describeError } from '../../../api/errors';
import { useReaderLocale } from '../../../lib/profile';
import { ErrorState, LoadingState } from '../../../components/States';
import { useToast } from '../../../components/Toasts';
import { useAbilities } from '../../../lib/workspace-role';
import {
  useCreateShareLink,
  useResumeShareLink,
  useRevokeShareLink,
  useSetShareLinkJoin,
  useShareLinks,
  type ShareLink,
} from '../hooks/use-workspaces';
import { SubmitButton } from '../../../components/SubmitButton';
import { formatDateTime } from '../../../lib/dates';
import { formError, submitWith, useZodForm } from '../../../lib/form';
import { SHARE_EXPIRIES, ShareLinkForm } from '../schemas';

const ACCESS_LABELS = { view: 'Can view', edit: 'Can edit' } as const;

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function ShareLinkRow({ link, workspaceId }: { link: ShareLink; workspaceId: string }) {
  const revoke = useRevokeShareLink(workspaceId);
  const resume = useResumeShareLink(workspaceId);
  const setJoin = useSetShareLinkJoin(workspaceId);
  // Revoking and resuming are the owner's (POLICY workspace.manageShares); an editor creates and copies.
  const can = useAbilities();
  const toast = useToast();
  const language = useReaderLocale();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const expires = new Date(link.expiresAt);
  const paused = link.pausedAt !== null;
  return (
    <li className="share-link">
      <span className="badge share-access">
        {link.readOnly ? ACCESS_LABELS.view : ACCESS_LABELS.edit}
      </span>{' '}
      {link.url ? (
        <a href={link.url} target="_blank" rel="noreferrer noopener" className="share-url">
          {link.url}
        </a>
      ) : (
        <span className="muted">No address (the service secret changed)</span>
      )}
      <p className="muted">
        {expires > new Date() ? 'Expires' : 'Expired'}{' '}
        <time dateTime={link.expiresAt}>{formatDateTime(link.expiresAt, language)}</time>
      </p>
      <p className="muted share-joining">
        {!link.readOnly
          ? 'Whoever signs in through it joins as an editor.'
          : link.allowJoin
            ? 'Whoever signs in through it may join as a viewer.'
            : 'Read only: nobody joins through it.'}
      </p>
      {paused && (
        <p className="form-notice">
          Paused: this link was made before your address was proven (by a password reset or a Google
          or GitHub sign-in), so it could have been made by someone else who signed up with your
          address. Resume it only if you made it; it keeps its address.
        </p>
      )}
      <div className="row-actions">
        {paused && can.manageShares && (
          <button
            type="button"
            className="button button-small"
            disabled={resume.isPending}
            onClick={() => resume.mutate(link.id, { onSuccess: () => toast('Link resumed') })}
          >
            {resume.isPending ? 'Resuming…' : 'Resume'}
          </button>
        )}
        {link.url && link.active && (
          <button
            type="button"
            className="button button-small"
            onClick={() =>
              void copyText(link.url!).then((ok) => {
                setCopied(ok ? 'yes' : 'no');
                if (ok) toast('Link copied');
              })
            }
          >
            Copy link
          </button>
        )}
        {link.readOnly && can.manageShares && (
          <button
            type="button"
            className="button button-small"
            disabled={setJoin.isPending}
            onClick={() =>
              setJoin.mutate(
                { shareId: link.id, allowJoin: !link.allowJoin },
                {
                  onSuccess: (updated) =>
                    toast(updated.allowJoin ? 'Joining allowed' : 'Joining stopped'),
                },
              )
            }
          >
            {link.allowJoin ? 'Stop joining' : 'Allow joining'}
          </button>
        )}
        {can.manageShares && (
          <button
            type="button"
            className="button button-danger button-small"
            disabled={revoke.isPending}
            onClick={() => revoke.mutate(link.id)}
          >
            {revoke.isPending ? 'Revoking…' : 'Revoke'}
          </button>
        )}
      </div>
      <span role="status" className="muted">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'no'
            ? 'The clipboard is not available here: copy the address above.'
            : ''}
      </span>
      {(revoke.error ?? resume.error ?? setJoin.error) && (
        <p className="field-error" role="alert">
          {describeError(revoke.error ?? resume.error ?? setJoin.error)}
        </p>
      )}
    </li>
  );
}

export function ShareLinks({ workspaceId }: { workspaceId: string }) {
  const links = useShareLinks(workspaceId);
  const create = useCreateShareLink(workspaceId);
  const toast = useToast();
  // An editable link lets whoever opens it join as editor: only the owner is offered one (POLICY workspace.shareEditable).
  const can = useAbilities();
  const form = useZodForm(ShareLinkForm, {
    defaultValues: { expiresInDays: 7, access: 'view', allowJoin: false },
  });
  const access = form.watch('access');
  // The focus stays on Share (SubmitButton is never disabled under it); the toast announces the new link.
  const submit = submitWith(form, [], async ({ expiresInDays, access, allowJoin }) => {
    const readOnly = !(can.shareEditable && access === 'edit');
    await create.mutateAsync({
      expiresInDays,
      readOnly,
      allowJoin: readOnly && can.shareJoinable && allowJoin,
    });
    toast(
      `${readOnly ? 'Share link' : 'Editable share link'} created, valid ` +
        `for ${expiresInDays} day${expiresInDays === 1 ? '' : 's'}: copy it from the list below`,
    );
  });
  const failed = formError(form);
  return (
    <section aria-labelledby="share-heading" className="card">
      <h2 id="share-heading">Share links</h2>
      <p className="muted">
        Anyone with a link can read this workspace, without signing in, until it expires or is
        revoked.{' '}
        {can.shareJoinable ? (
          <>
            Someone signed in may join through it: as an editor through a &ldquo;Can edit&rdquo;
            link, and as a viewer through a &ldquo;Can view&rdquo; link only if you allow joining
            (off by default). Revoking a link stops new joins; who joined stays a member.
          </>
        ) : (
          <>Nobody joins the workspace through the links you make: the owner invites members.</>
        )}
      </p>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        {can.shareEditable && (
          <div className="field field-inline">
            <label htmlFor="share-access">Access</label>
            <select id="share-access" {...form.register('access')}>
              {(['view', 'edit'] as const).map((value) => (
                <option key={value} value={value}>
                  {ACCESS_LABELS[value]}
                </option>
              ))}
            </select>
          </div>
        )}
        {can.shareJoinable && access === 'view' && (
          <div className="field share-allow-join">
            <input id="share-allow-join" type="checkbox" {...form.register('allowJoin')} />
            <label htmlFor="share-allow-join">Let people who sign in join as viewers</label>
          </div>
        )}
        <div className="field field-inline">
          <label htmlFor="share-expiry">Expires in</label>
          <select id="share-expiry" {...form.register('expiresInDays', { valueAsNumber: true })}>
            {SHARE_EXPIRIES.map((value) => (
              <option key={value} value={value}>
                {value} day{value === 1 ? '' : 's'}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton pending={form.formState.isSubmitting} pendingLabel="Sharing…">
          Share
        </SubmitButton>
      </form>
      {failed && (
        <p className="form-alert" role="alert">
          {failed}
        </p>
      )}
      {links.isPending && <LoadingState label="Loading share links…" />}
      {links.isError && <ErrorState error={links.error} onRetry={() => void links.refetch()} />}
      {links.data && links.data.length === 0 && <p>No share links yet.</p>}
      {links.data && links.data.length > 0 && (
        <ul className="share-links" aria-label="Share links">
          {links.data.map((link) => (
            <ShareLinkRow key={link.id} link={link} workspaceId={workspaceId} />
          ))}
        </ul>
      )}
    </section>
  );
}
