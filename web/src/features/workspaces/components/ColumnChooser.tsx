/**
 * `Columns`: which of the library table's columns are shown (Title always is), and `Reset columns`
 * (shown and widths back to the defaults). A disclosure: it takes no room until opened.
 */
import { useId, useState } from 'react';
import {
  COLUMNS,
  DEFAULT_COLUMNS,
  withColumnShown,
  type ColumnSettings,
  type SizedColumnId,
} from '../library-columns';

export function ColumnChooser({
  settings,
  onChange,
}: {
  settings: ColumnSettings;
  onChange: (change: (settings: ColumnSettings) => ColumnSettings) => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="column-chooser">
      <button
        type="button"
        className="button button-small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
      >
        Columns
      </button>
      <fieldset id={panelId} hidden={!open} className="column-choices">
        <legend>Columns shown</legend>
        {COLUMNS.map((column) => {
          if (column.id === 'title')
            return (
              <label key={column.id}>
                <input type="checkbox" checked disabled /> {column.label}
              </label>
            );
          const id: SizedColumnId = column.id;
          return (
            <label key={id}>
              <input
                type="checkbox"
                checked={!settings.hidden.includes(id)}
                onChange={(event) =>
                  onChange((was) => withColumnShown(was, id, event.target.checked))
                }
              />{' '}
              {column.label}
            </label>
          );
        })}
        <button
          type="button"
          className="button button-small"
          onClick={() => onChange(() => DEFAULT_COLUMNS)}
        >
          Reset columns
        </button>
      </fieldset>
    </div>
  );
}
