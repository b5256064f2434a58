/**
 * Profile: display name and bio with their limits counted while typing, the avatar (preview, the
 * 2 MB and image-only rules), and preferences saved as they change (theme applied at once, language,
 * the two e-mail toggles).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { api, multipartBody, unwrap } from '../../api/client';
import { ApiError, describeError } from '../../api/errors';
import type { components } from '../../api/schema';
import { useDraft } from '../../app/drafts';
import { PROFILE_KEY, useProfile, type Preferences, type Profile } from '../../app/profile';
import { SESSION_KEY } from '../../app/session';
import { isTheme, THEMES, useTheme } from '../../app/theme';
import { FormAlert, TextAreaField, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { ErrorState, LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import { errorsByField } from '../auth/useFieldErrors';
import { SubmitButton } from '../../components/SubmitButton';

export const DISPLAY_NAME_MAX = 50;
export const BIO_MAX = 500;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const THEME_LABELS = { system: 'System (follows your device)', light: 'Light', dark: 'Dark' } as const;
const LANGUAGES = [{ value: 'en-IN', label: 'English (India)' }] as const;

type ProfileUpdate = components['schemas']['ProfileUpdateInput'];

function counter(length: number, max: number): string {
  return length > max ? `${length} / ${max} characters: ${length - max} too many` : `${length} / ${max} characters`;
}

function DetailsForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  // Drafts (app/drafts.ts): a session ending before Save profile does not lose them.
  const [displayName, setDisplayName, discardDisplayName] = useDraft('profile:displayName', profile.displayName ?? '');
  const [bio, setBio, discardBio] = useDraft('profile:bio', profile.bio ?? '');
  const save = useMutation({
    mutationFn: (body: ProfileUpdate) => unwrap(api.PUT('/api/profile', { body })),
    onSuccess: (reply) => {
      discardDisplayName();
      discardBio();
      queryClient.setQueryData(PROFILE_KEY, reply.profile);
      toast('Profile saved');
    },
  });
  const errors = errorsByField(save.error, ['displayName', 'bio'] as const);
  const nameTooLong = displayName.trim().length > DISPLAY_NAME_MAX;
  const bioTooLong = bio.length > BIO_MAX;
  const nameMissing = displayName.trim().length === 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (nameTooLong || bioTooLong || nameMissing) return;
    save.mutate({ displayName: displayName.trim(), bio: bio.trim() === '' ? null : bio });
  };
  return (
    <form className="form card" onSubmit={submit} noValidate aria-labelledby="profile-details">
      <h2 id="profile-details">Details</h2>
      <TextField
        label="Display name"
        name="displayName"
        autoComplete="nickname"
        value={displayName}
        onChange={(event) => setDisplayName(event.target.value)}
        hint={<span aria-live="polite">{counter(displayName.trim().length, DISPLAY_NAME_MAX)}</span>}
        error={errors.field.displayName ?? (nameTooLong ? `At most ${DISPLAY_NAME_MAX} characters.` : nameMissing ? 'A display name is required.' : null)}
      />
      <TextAreaField
        label="Bio"
        name="bio"
        rows={5}
        value={bio}
        onChange={(event) => setBio(event.target.value)}
        hint={<span aria-live="polite">{counter(bio.length, BIO_MAX)}</span>}
        error={errors.field.bio ?? (bioTooLong ? `At most ${BIO_MAX} characters.` : null)}
      />
      {errors.form && <FormAlert>{errors.form}</FormAlert>}
      <div>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={nameTooLong || bioTooLong || nameMissing}>
          Save profile
        </SubmitButton>
      </div>
    </form>
  );
}

/** Why a chosen file cannot be an avatar, before it is sent (the server checks again). */
export function avatarProblem(file: { size: number; type: string }): string | null {
  if (file.type && !file.type.startsWith('image/')) return 'Only image files can be an avatar (JPG, PNG, WebP…).';
  if (file.size > AVATAR_MAX_BYTES) return 'The image is larger than 2 MB. Choose a smaller one.';
  if (file.size === 0) return 'The file is empty.';
  return null;
}

function AvatarForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const upload = useMutation({
    mutationFn: async (chosen: File) =>
      unwrap(api.POST('/api/profile/avatar', { body: { file: chosen }, bodySerializer: multipartBody })),
    onSuccess: async (reply) => {
      queryClient.setQueryData(PROFILE_KEY, reply.profile);
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      setFile(null);
      setPreview(null);
      toast('Avatar updated');
    },
  });
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    upload.reset();
    const chosen = event.target.files?.[0] ?? null;
    setFile(null);
    setPreview(null);
    setProblem(null);
    if (!chosen) return;
    const reason = avatarProblem(chosen);
    if (reason) {
      setProblem(reason);
      return;
    }
    setFile(chosen);
    setPreview(URL.createObjectURL(chosen));
  };
  const serverError = upload.error instanceof ApiError && (upload.error.field === 'file' || upload.error.status === 413) ? upload.error.message : upload.error ? describeError(upload.error) : null;
  const error = problem ?? serverError;
  const shown = preview ?? profile.avatarUrl;
  return (
    <form
      className="form card"
      aria-labelledby="profile-avatar"
      onSubmit={(event) => {
        event.preventDefault();
        if (file) upload.mutate(file);
      }}
    >
      <h2 id="profile-avatar">Profile picture</h2>
      <div className="avatar-row">
        {shown ? (
          <img className="avatar" src={shown} alt={preview ? 'Preview of the new avatar' : 'Your avatar'} width={96} height={96} />
        ) : (
          <div className="avatar avatar-empty" aria-hidden="true">
            {(profile.displayName ?? '?').slice(0, 1).toUpperCase()}
          </div>
        )}
        <div className={`field${error ? ' field-invalid' : ''}`}>
          <label htmlFor={inputId}>Avatar</label>
          <input id={inputId} type="file" name="file" accept="image/*" onChange={choose} aria-invalid={error ? true : undefined} aria-describedby={`${inputId}-hint${error ? ` ${inputId}-error` : ''}`} />
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
        <SubmitButton pending={upload.isPending} pendingLabel="Uploading…" disabled={!file}>
          Upload avatar
        </SubmitButton>
      </div>
    </form>
  );
}

function PreferencesForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const { setTheme } = useTheme();
  const themeId = useId();
  const languageId = useId();
  const [status, setStatus] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (preferences: Partial<Preferences>) => unwrap(api.PUT('/api/profile', { body: { preferences } })),
    onMutate: () => setStatus('Saving…'),
    onSuccess: (reply) => {
      queryClient.setQueryData(PROFILE_KEY, reply.profile);
      setStatus('Preferences saved.');
    },
    onError: () => setStatus(null),
  });
  const preferences = profile.preferences;
  return (
    <form className="form card" aria-labelledby="profile-preferences" onSubmit={(event) => event.preventDefault()}>
      <h2 id="profile-preferences">Preferences</h2>
      <div className="field">
        <label htmlFor={themeId}>Theme</label>
        <select
          id={themeId}
          value={preferences.theme}
          onChange={(event) => {
            const theme = event.target.value;
            if (!isTheme(theme)) return;
            setTheme(theme);
            queryClient.setQueryData<Profile>(PROFILE_KEY, { ...profile, preferences: { ...preferences, theme } });
            save.mutate({ theme });
          }}
        >
          {THEMES.map((theme) => (
            <option key={theme} value={theme}>
              {THEME_LABELS[theme]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={languageId}>Language</label>
        <select id={languageId} value={preferences.language} onChange={() => save.mutate({ language: 'en-IN' })}>
          {LANGUAGES.map((language) => (
            <option key={language.value} value={language.value}>
              {language.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="fieldset">
        <legend>E-mail</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={preferences.emailNotifications}
            onChange={(event) => {
              queryClient.setQueryData<Profile>(PROFILE_KEY, { ...profile, preferences: { ...preferences, emailNotifications: event.target.checked } });
              save.mutate({ emailNotifications: event.target.checked });
            }}
          />
          E-mail notifications
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={preferences.marketingEmails}
            onChange={(event) => {
              queryClient.setQueryData<Profile>(PROFILE_KEY, { ...profile, preferences: { ...preferences, marketingEmails: event.target.checked } });
              save.mutate({ marketingEmails: event.target.checked });
            }}
          />
          News and product e-mails
        </label>
      </fieldset>
      <p className="field-hint" role="status" aria-live="polite">
        {status}
      </p>
      {save.isError && (
        <FormAlert>
          {describeError(save.error)}{' '}
          <button type="button" className="button" onClick={() => void queryClient.invalidateQueries({ queryKey: PROFILE_KEY })}>
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
        </div>
      )}
    </Page>
  );
}
