/**
 * The library table's columns as this user chose them (library-columns.ts), kept in localStorage under
 * their id: read when the user is known, written on every change. Storage that refuses (private mode, a
 * full quota) leaves the choice for this page only.
 */
import { useCallback, useState } from 'react';
import { useSession } from '../../../lib/session';
import {
  columnSettingsKey,
  DEFAULT_COLUMNS,
  parseColumnSettings,
  type ColumnSettings,
} from '../library-columns';

function readStored(key: string | null): ColumnSettings {
  if (!key) return DEFAULT_COLUMNS;
  try {
    return parseColumnSettings(window.localStorage.getItem(key));
  } catch {
    return DEFAULT_COLUMNS;
  }
}

export function useLibraryColumns() {
  const session = useSession();
  const key = session.data ? columnSettingsKey(session.data.id) : null;
  // Read again when the user changes (another account signed in on this tab).
  const [state, setState] = useState(() => ({ key, settings: readStored(key) }));
  const settings = state.key === key ? state.settings : readStored(key);
  if (state.key !== key) setState({ key, settings });

  const update = useCallback(
    (change: (settings: ColumnSettings) => ColumnSettings) => {
      setState((was) => {
        const next = change(was.key === key ? was.settings : readStored(key));
        if (key)
          try {
            window.localStorage.setItem(key, JSON.stringify(next));
          } catch {
            // Not stored: the choice holds until the page is left.
          }
        return { key, settings: next };
      });
    },
    [key],
  );
  return { settings, update };
}
