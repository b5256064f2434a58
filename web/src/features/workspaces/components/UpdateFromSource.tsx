/**
 * "Update from source" in the item pane (Zotero's is the model): the resource's DOI (else arXiv id,
 * else PMID) is looked up now, and each field the source says differently is listed, what the
 * resource holds beside what the source says, with a checkbox to accept it (all are at first).
 * `Apply selected` sends the accepted ones in one PATCH, If-Match the version the proposal was made
 * from: a change saved meanwhile is a 412, said as the pane says it, and the user looks up again.
 * Nothing found, the sources down, too many lookups: each is said in its own words. Editors and the
 * owner only (the lookup is made on their behalf).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { describeError, isStale } from '../../../api/errors';
import {
  useRefreshProposal,
  useUpdateResource,
  type RefreshProposal,
  type Resource,
} from '../hooks/use-workspaces';
import { recordFieldLabel, valueText } from '../record-fields';
import { plural } from '../../../lib/plural';
import { providerName, proposalChanges, refreshErrorText, type RefreshChange } from '../refresh';

export function UpdateFromSource({
  resource,
  workspaceId,
}: {
  resource: Resource;
  workspaceId: string;
}) {
  const id = useId();
  const lookup = useRefreshProposal(workspaceId);
  const update = useUpdateResource(workspaceId);
  const [proposal, setProposal] = useState<RefreshProposal | null>(null);
  const [accepted, setAccepted] = useState<Set<string>>(new Set());
  const [said, setSaid] = useState<{ text: string; alert: boolean } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusButton = useRef(false);

  useEffect(() => {
    if (focusButton.current && !proposal) {
      focusButton.current = false;
      buttonRef.current?.focus();
    }
  }, [proposal]);
  // The proposal's first checkbox takes the focus once it shows.
  useEffect(() => {
    if (proposal && proposal.changes.length > 0)
      formRef.current?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.focus();
  }, [proposal]);

  const look = async () => {
    if (lookup.isPending) return;
    setSaid(null);
    setProposal(null);
    try {
      const found = await lookup.mutateAsync(resource.id);
      if (found.changes.length === 0) {
        setSaid({
          text: `Nothing to update: this resource already says what ${providerName(found.source.provider)} says.`,
          alert: false,
        });
        return;
      }
      setAccepted(new Set(found.changes.map((change) => change.field)));
      setProposal(found);
    } catch (caught) {
      setSaid({ text: refreshErrorText(caught, resource), alert: true });
    }
  };
  const close = () => {
    focusButton.current = true;
    setProposal(null);
  };
  const apply = async () => {
    if (!proposal || update.isPending) return;
    const chosen = proposal.changes.filter((change) => accepted.has(change.field));
    if (chosen.length === 0) {
      setSaid({ text: 'Choose at least one change to apply, or cancel.', alert: true });
      return;
    }
    try {
      await update.mutateAsync({
        resourceId: resource.id,
        version: proposal.version,
        ...proposalChanges(chosen),
      });
      setSaid({
        text: `Updated ${plural(chosen.length, 'field')} from ${providerName(proposal.source.provider)}.`,
        alert: false,
      });
      close();
    } catch (caught) {
      if (isStale(caught)) {
        setSaid({
          text: 'Someone else changed this resource meanwhile, so nothing was applied. Update from source again to see what the source changes now.',
          alert: true,
        });
        close();
        return;
      }
      setSaid({ text: describeError(caught), alert: true });
    }
  };
  const toggle = (change: RefreshChange, on: boolean) =>
    setAccepted((was) => {
      const next = new Set(was);
      if (on) next.add(change.field);
      else next.delete(change.field);
      return next;
    });

  return (
    <div className="item-refresh">
      {!proposal && (
        <button
          ref={buttonRef}
          type="button"
          className="button button-small"
          aria-disabled={lookup.isPending || undefined}
          onClick={() => void look()}
        >
          {lookup.isPending ? 'Looking up…' : 'Update from source'}
        </button>
      )}
      <p role="status" className="muted">
        {said && !said.alert ? said.text : ''}
      </p>
      {said?.alert && (
        <p className="field-error" role="alert">
          {said.text}
        </p>
      )}
      {proposal && (
        <form
          ref={formRef}
          className="refresh-form"
          aria-labelledby={`${id}-heading`}
          onSubmit={(event) => {
            event.preventDefault();
            void apply();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
        >
          <h4 id={`${id}-heading`}>
            Update from {providerName(proposal.source.provider)}:{' '}
            {plural(proposal.changes.length, 'change')}
          </h4>
          <ul className="refresh-changes">
            {proposal.changes.map((change) => {
              const label = recordFieldLabel(change.field, resource.type);
              const now = valueText(change.field, change.current);
              return (
                <li key={change.field}>
                  <div className="check">
                    <input
                      id={`${id}-${change.field}`}
                      type="checkbox"
                      checked={accepted.has(change.field)}
                      aria-describedby={`${id}-${change.field}-values`}
                      onChange={(event) => toggle(change, event.target.checked)}
                    />
                    <label htmlFor={`${id}-${change.field}`}>{label}</label>
                  </div>
                  <dl id={`${id}-${change.field}-values`} className="refresh-values">
                    <dt>Now</dt>
                    <dd className={now ? undefined : 'muted'}>{now || 'empty'}</dd>
                    <dt>Source</dt>
                    <dd>{valueText(change.field, change.proposed)}</dd>
                  </dl>
                </li>
              );
            })}
          </ul>
          <div className="row-actions">
            <button
              type="submit"
              className="button button-primary button-small"
              aria-disabled={update.isPending || undefined}
            >
              {update.isPending ? 'Applying…' : 'Apply selected'}
            </button>
            <button type="button" className="button button-small" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
