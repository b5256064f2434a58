/**
 * Profile: display name and bio with their limits counted while typing, the avatar (preview, the
 * 2 MB and image-only rules), and preferences saved as they change (theme applied at once, language,
 * the two e-mail toggles); and the account: change the password, download all data, delete it
 * (features/account).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { api, multipartBody, unwrap } from '../../api/client';
import { describeError } from '../../api/errors';
import type { components } from '../../api/schema';
import { useDraftField } from '../../lib/drafts';
import { PROFILE_KEY, useProfile, type Profile } from '../../lib/profile';
import { SESSION_KEY } from '../../lib/session';
import { THEMES, useTheme } from '../../lib/theme';
import { Avatar } from '../../components/Avatar';
import { AccountSection } from '../../features/account/components/AccountSection';
import { FormAlert, TextAreaField, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { ErrorState, LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import { SubmitButton } from '../../components/SubmitButton';
import { formError, keepDraft, submitWith, useZodForm } from '../../lib/form';
import {
  AvatarForm as AvatarSchema,
  avatarProblem,
  PreferencesForm as PreferencesSchema,
  PROFILE_LIMITS,
  ProfileDetailsForm,
} from './schemas';

const THEME_LABELS = {
  system: 'System (follows your device)',
  light: 'Light',
  dark: 'Dark',
} as const;
/** The browser's language by its name in that language ("English (United States)"), and its tag. */
function browserLanguage(): { name: string; tag: string } {
  const tag = navigator.language || 'en';
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language', languageDisplay: 'standard' }).of(
      tag,
    );
    return { name: name ?? tag, tag };
  } catch {
    return { name: tag, tag };
  }
}

type ProfileUpdate = components['schemas']['ProfileUpdateInput'];

function counter(length: number, max: number): string {
  return length > max
    ? `${length} / ${max} characters: ${length - max} too many`
    : `${length} / ${max} characters`;
}

function DetailsForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  // Drafts (lib/drafts.ts): a session ending before Save profile does not lose them.
  const displayNameDraft = useDraftField('profile:displayName', profile.displayName ?? '');
  const bioDraft = useDraftField('profile:bio', profile.bio ?? '');
  // Checked while typing: the counters and the button follow each keystroke.
  const form = useZodForm(ProfileDetailsForm, {
    mode: 'onChange',
    defaultValues: { displayName: displayNameDraft.value, bio: bioDraft.value },
  });
  const [displayName, bio] = useWatch({ control: form.control, name: ['displayName', 'bio'] });
  const { errors, isSubmitting, isValid } = form.formState;
  const save = useMutation({
    mutationFn: (body: ProfileUpdate) => unwrap(api.PUT('/api/profile', { body })),
    onSuccess: (reply) => {
      displayNameDraft.discard();
      bioDraft.discard();
      queryClient.setQueryData(PROFILE_KEY, reply.profile);
      toast('Profile saved');
    },
  });
  const submit = submitWith(form, ['displayName', 'bio'], (body) => save.mutateAsync(body));
  return (
    <form
      className="form card"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby="profile-details"
    >
      <h2 id="profile-details">Details</h2>
      <TextField
        label="Display name"
        autoComplete="nickname"
        {...form.register('displayName', { onChange: keepDraft(displayNameDraft) })}
        hint={
          <span aria-live="polite">
            {counter(displayName.trim().length, PROFILE_LIMITS.displayName)}
          </span>
        }
        error={errors.displayName?.message}
      />
      <TextAreaField
        label="Bio"
        rows={5}
        {...form.register('bio', { onChange: keepDraft(bioDraft) })}
        hint={<span aria-live="polite">{counter(bio.length, PROFILE_LIMITS.bio)}</span>}
        error={errors.bio?.message}
      />
      {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
      <div>
        <SubmitButton pending={isSubmitting} pendingLabel="Saving…" disabled={!isValid}>
          Save profile
        </SubmitButton>
      </div>
    </form>
  );
}

function AvatarForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const inputId = useId();
  // Checked as soon as a file is chosen: a wrong one is named before anything is sent.
  const form = useZodForm(AvatarSchema, { mode: 'onChange' });
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  // The file chosen last: a slower decode of an earlier one must not show its preview.
  const chosenLast = useRef<File | null>(null);
  const upload = useMutation({
    mutationFn: async (chosen: File) =>
      unwrap(
        api.POST('/api/profile/avatar', { body: { file: chosen }, bodySerializer: multipartBody }),
      ),
    // Refused by the server: the previous avatar stays, the reason is at the field (submitWith).
    onError: () => setPreview(null),
    onSuccess: async (reply) => {
      queryClient.setQueryData(PROFILE_KEY, reply.profile);
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      form.reset();
      setPreview(null);
      toast('Avatar updated');
    },
  });
  // A preview only of an image the browser could draw: a file that claims to be a PNG and is not would
  // show a broken picture, so it is refused here, saying why, and the current avatar stays.
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    chosenLast.current = chosen;
    setPreview(null);
    if (!chosen || avatarProblem(chosen)) return;
    const url = URL.createObjectURL(chosen);
    const image = new Image();
    image.src = url;
    image.decode().then(
      () => {
        if (chosenLast.current === chosen) setPreview(url);
        else URL.revokeObjectURL(url);
      },
      () => {
        URL.revokeObjectURL(url);
        if (chosenLast.current === chosen)
          form.setError('file', {
            type: 'decode',
            message: 'This file could not be read as an image. Choose a JPG, PNG or WebP picture.',
          });
      },
    );
  };
  const submit = submitWith(form, { allAt: 'file' }, ({ file }) => upload.mutateAsync(file));
  const error = form.formState.errors.file?.message;
  const shown = preview ?? profile.avatarUrl;
  return (
    <form
      className="form card"
      aria-labelledby="profile-avatar"
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="profile-avatar">Profile picture</h2>
      <div className="avatar-row">
        <Avatar
          src={shown}
          name={profile.displayName}
          alt={preview ? 'Preview of the new avatar' : 'Your avatar'}
          size="large"
          decorative={!shown}
        />
        <div className={`field${error ? ' field-invalid' : ''}`}>
          <label htmlFor={inputId}>Avatar</label>
          <input
            id={inputId}
            type="file"
            accept="image/*"
            {...form.register('file', { onChange: choose })}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${inputId}-hint${error ? ` ${inputId}-error` : ''}`}
          />
          <p id={`${inputId}-hint`} className="field-hint">
            An image (JPG, PNG, WebP…) of at most 2 MB.
          </p>
          {error && (
            <p id={`${inputId}-error`} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
      </div>
      <div>
        <SubmitButton
          pending={form.formState.isSubmitting}
          pendingLabel="Uploading…"
          disabled={!preview}
        >
          Upload avatar
        </SubmitButton>
      </div>
    </form>
  );
}

/** Saved as they change: each change sends the form as its schema accepted it. */
function PreferencesForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const { setTheme } = useTheme();
  const themeId = useId();
  const languageId = useId();
  const language = browserLanguage();
  const [status, setStatus] = useState<string | null>(null);
  const form = useZodForm(PreferencesSchema, { values: profile.preferences });
  const save = useMutation({
    mutationFn: (preferences: ProfileUpdate['preferences']) =>
      unwrap(api.PUT('/api/profile', { body: { preferences } })),
    onMutate: () => setStatus('Saving…'),
    onSuccess: (reply) => {
      queryClient.setQueryData(PROFILE_KEY, reply.profile);
      setStatus('Preferences saved.');
    },
    onError: () => setStatus(null),
  });
  const submit = form.handleSubmit((preferences) => {
    setTheme(preferences.theme);
    // Shown at once; the reply (or a reload after a failure) settles it.
    queryClient.setQueryData<Profile>(PROFILE_KEY, { ...profile, preferences });
    save.mutate(preferences);
  });
  const changed = { onChange: () => void submit() };
  return (
    <form
      className="form card"
      aria-labelledby="profile-preferences"
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="profile-preferences">Preferences</h2>
      <div className="field">
        <label htmlFor={themeId}>Theme</label>
        <select id={themeId} {...form.register('theme', changed)}>
          {THEMES.map((theme) => (
            <option key={theme} value={theme}>
              {THEME_LABELS[theme]}
            </option>
          ))}
        </select>
      </div>
      <div className="field" role="group" aria-labelledby={languageId}>
        <span id={languageId} className="field-label">
          Language
        </span>
        <p className="field-hint">
          Dates and numbers are written as your browser writes them:{' '}
          <strong lang={language.tag}>{language.name}</strong> ({language.tag}). Change the
          browser’s language to change them.
        </p>
      </div>
      <fieldset className="fieldset">
        <legend>E-mail</legend>
        <label className="check">
          <input type="checkbox" {...form.register('emailNotifications', changed)} />
          E-mail notifications
        </label>
        <label className="check">
          <input type="checkbox" {...form.register('marketingEmails', changed)} />
          News and product e-mails
        </label>
      </fieldset>
      <p className="field-hint" role="status" aria-live="polite">
        {status}
      </p>
      {save.isError && (
        <FormAlert>
          {describeError(save.error)}{' '}
          <button
            type="button"
            className="button"
            onClick={() => void queryClient.invalidateQueries({ queryKey: PROFILE_KEY })}
          >
            Reload preferences
          </button>
        </FormAlert>
      )}
    </form>
  );
}

export function ProfilePage() {
  const profile = useProfile();
  return (
    <Page title="Profile">
      {profile.isPending ? (
        <LoadingState label="Loading your profile…" />
      ) : profile.isError ? (
        <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />
      ) : (
        <div className="profile-grid">
          <DetailsForm profile={profile.data} />
          <AvatarForm profile={profile.data} />
          <PreferencesForm profile={profile.data} />
          <AccountSection />
        </div>
      )}
    </Page>
  );
}
