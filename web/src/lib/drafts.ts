/**
 * Drafts: what a user typed in a form, kept in sessionStorage until it is sent, so that a session
 * ending under an open page (redirect to sign-in and back) does not lose it. A draft is keyed by the
 * page's path and the form's own key (`/workspaces/abc` + `annotation:new:<resource id>`), never by
 * user; it remembers whose it is and is given back only to that user, so that after a session ended
 * on a shared computer the next person to sign in does not see it. Sign-out clears every draft.
 *
 * Bounded: text fields only (never passwords), at most DRAFT_MAX_CHARS each, DRAFTS_MAX in all (the
 * oldest goes first), forgotten after DRAFT_MAX_AGE_MS. A browser without sessionStorage (or with it
 * full) keeps no drafts; the forms work without them.
 */
import { useCallback, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { useSession } from './session';

const PREFIX = 'rw-draft:';
export const DRAFT_MAX_CHARS = 10_000;
export const DRAFTS_MAX = 30;
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Form keys that must never be kept (a caller passing one is a bug). */
const SECRET_KEY = /password|secret|token/i;

interface StoredDraft {
  /** The user who typed it. */
  owner: string;
  value: string;
  savedAt: number;
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

function parse(raw: string | null): StoredDraft | null {
  if (!raw) return null;
  try {
    const draft = JSON.parse(raw) as Partial<StoredDraft>;
    if (
      typeof draft.owner !== 'string' ||
      typeof draft.value !== 'string' ||
      typeof draft.savedAt !== 'number'
    )
      return null;
    return { owner: draft.owner, value: draft.value, savedAt: draft.savedAt };
  } catch {
    return null;
  }
}

function draftKeys(store: Storage): string[] {
  const keys: string[] = [];
  for (let index = 0; index < store.length; index += 1) {
    const key = store.key(index);
    if (key?.startsWith(PREFIX)) keys.push(key);
  }
  return keys;
}

/** The storage key of one form field's draft on one page. */
export function draftStorageKey(pathname: string, formKey: string): string {
  return `${PREFIX}${pathname}#${formKey}`;
}

/** The draft kept for `owner`, or null; another user's or a stale one is removed on the way. */
export function readDraft(
  storageKey: string,
  owner: string | null,
  now = Date.now(),
): string | null {
  const store = storage();
  if (!store || !owner) return null;
  const draft = parse(store.getItem(storageKey));
  if (!draft) return null;
  if (draft.owner !== owner || now - draft.savedAt > DRAFT_MAX_AGE_MS) {
    store.removeItem(storageKey);
    return null;
  }
  return draft.value;
}

/** Keeps `value` (the field left as it was is no draft: removed instead), evicting the oldest past DRAFTS_MAX. */
export function writeDraft(
  storageKey: string,
  owner: string | null,
  value: string,
  unchanged: string,
  now = Date.now(),
): void {
  const store = storage();
  if (!store || !owner) return;
  if (value === unchanged) {
    store.removeItem(storageKey);
    return;
  }
  const draft: StoredDraft = { owner, value: value.slice(0, DRAFT_MAX_CHARS), savedAt: now };
  try {
    store.setItem(storageKey, JSON.stringify(draft));
  } catch {
    // Full (or refused): this field keeps no draft.
    return;
  }
  const others = draftKeys(store).filter((key) => key !== storageKey);
  if (others.length < DRAFTS_MAX) return;
  const byAge = others
    .map((key) => ({ key, savedAt: parse(store.getItem(key))?.savedAt ?? 0 }))
    .sort((a, b) => a.savedAt - b.savedAt);
  for (const { key } of byAge.slice(0, others.length - DRAFTS_MAX + 1)) store.removeItem(key);
}

export function removeDraft(storageKey: string): void {
  storage()?.removeItem(storageKey);
}

/** Forgets every draft in this tab: on sign-out, so the next person at this computer sees none. */
export function clearAllDrafts(): void {
  const store = storage();
  if (!store) return;
  for (const key of draftKeys(store)) store.removeItem(key);
}

function useDraftKey(formKey: string): { storageKey: string; owner: string | null } {
  if (SECRET_KEY.test(formKey)) throw new Error(`A draft must never hold a secret (${formKey})`);
  const { pathname } = useLocation();
  const owner = useSession().data?.id ?? null;
  return { storageKey: draftStorageKey(pathname, formKey), owner };
}

/** One text field's draft, for a form library that holds the value itself. */
export interface DraftField {
  /** What the field starts with: the kept draft, else the initial value. */
  value: string;
  /** Keeps `value` (call it on every change the user makes). */
  keep: (value: string) => void;
  /** Forgets the draft (call it when the form is sent successfully or cancelled). */
  discard: () => void;
}

/** A text field's draft that survives the page going away: the value to start from and what to call as it changes. */
export function useDraftField(formKey: string, initial: string): DraftField {
  const { storageKey, owner } = useDraftKey(formKey);
  const [value] = useState(() => readDraft(storageKey, owner) ?? initial);
  const keep = useCallback(
    (next: string) => writeDraft(storageKey, owner, next, initial),
    [storageKey, owner, initial],
  );
  const discard = useCallback(() => removeDraft(storageKey), [storageKey]);
  return useMemo(() => ({ value, keep, discard }), [value, keep, discard]);
}

/** Whether a draft is kept for this form (read once, on mount): a form that was open reopens with it. */
export function useHasDraft(formKey: string): boolean {
  const { storageKey, owner } = useDraftKey(formKey);
  const [kept] = useState(() => readDraft(storageKey, owner) !== null);
  return kept;
}
