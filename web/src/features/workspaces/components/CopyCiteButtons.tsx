/**
 * The selection's citation keys copied as a document cites them (`\cite{a,b}`, `\citep{…}`,
 * `[@a; @b]`), in the order the list shows them; what was copied is said aloud (a status).
 */
import { useState } from 'react';
import { CITE_FORM_LABELS, CITE_FORMS, citeCommand, type CiteForm } from '../cite-keys';

export function CopyCiteButtons({ keys }: { keys: string[] }) {
  const [said, setSaid] = useState('');
  const copy = async (form: CiteForm) => {
    const text = citeCommand(form, keys);
    try {
      await navigator.clipboard.writeText(text);
      setSaid(`Copied ${text}`);
    } catch {
      setSaid(`The clipboard is not available here: ${text}`);
    }
  };
  return (
    <>
      {CITE_FORMS.map((form) => (
        <button
          key={form}
          type="button"
          className="button button-small"
          disabled={keys.length === 0}
          onClick={() => void copy(form)}
        >
          {CITE_FORM_LABELS[form]}
        </button>
      ))}
      <span role="status" className="muted copied-cite">
        {said}
      </span>
    </>
  );
}
