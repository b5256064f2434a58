import { DEFAULT_PREFERENCES, type ProfileRow } from './store.js';

export function presentProfile(row: ProfileRow) {
  return {
    id: row.id,
    displayName: row.displayName,
    bio: row.bio,
    avatarUrl: row.avatarUrl,
    preferences: { ...DEFAULT_PREFERENCES, ...row.preferences },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
