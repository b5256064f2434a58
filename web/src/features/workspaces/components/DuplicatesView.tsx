/**
 * A workspace's likely duplicates (Zotero's "Duplicate Items" is the model): each group with why its
 * resources look alike (the same DOI, arXiv id, PMID, or title with year and first author), the
 * version to keep (radios, the oldest at first), what the kept one will hold after the merge (its
 * fields, each one it lacks marked with the item it comes from; notes joined, tags united,
 * annotations and a PDF moved), and `Merge N items`. The merge names the versions the page showed:
 * when one changed or went meanwhile (409) nothing is merged, the page says so and shows the groups
 * as they are now. Viewers see the groups; editors and the owner merge (the service's policy).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../../api/errors';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States';
import { formatDay } from '../../../lib/dates';
import { plural } from '../../../lib/plural';
import { useReaderLocale } from '../../../lib/profile';
import { useAbilities } from '../../../lib/workspace-role';
import {
  isChangedMeanwhile,
  useDuplicates,
  useMergeDuplicates,
  type DuplicateGroup,
  type DuplicateReason,
} from '../hooks/use-duplicates';
import type { Resource } from '../hooks/use-workspaces';
import { mergePreview } from '../merge-preview';
import { firstAuthor, typeLabel } from '../record-fields';

const REASONS: Record<DuplicateReason, string> = {
  doi: 'Same DOI',
  arxiv: 'Same arXiv ID',
  pmid: 'Same PMID',
  title: 'Same title, year and first author',
};

/** "Same DOI: 10.1000/x": the reason, and the identifier they share. */
function reasonText(group: DuplicateGroup): string {
  const first = group.resources[0];
  const shared =
    group.reason === 'doi'
      ? first?.doi
      : group.reason === 'arxiv'
        ? first?.arxivId
        : group.reason === 'pmid'
          ? first?.pmid
          : undefined;
  return shared ? `${REASONS[group.reason]}: ${shared}` : REASONS[group.reason];
}

/** A group's identity: its resources, whatever their versions. */
const groupKey = (group: DuplicateGroup) => group.resources.map((resource) => resource.id).join();

/** What tells one version from the others: who, when, where, what it holds, when it was added. */
function ResourceFacts({ resource, language }: { resource: Resource; language?: string }) {
  const author = firstAuthor(resource.creators, resource.authors);
  const held = [
    resource.notes.trim() ? 'notes' : '',
    resource.tags.length ? plural(resource.tags.length, 'tag') : '',
    resource.annotations.length ? plural(resource.annotations.length, 'annotation') : '',
    resource.pdf ? 'PDF' : '',
  ].filter(Boolean);
  return (
    <>
      <span className="duplicate-title">{resource.title}</span>
      <span className="muted duplicate-facts">
        {[
          typeLabel(resource.type),
          author,
          resource.year ? String(resource.year) : '',
          resource.venue ?? '',
          `added ${formatDay(resource.createdAt, language)}`,
          held.length ? `has ${held.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join(' · ')}
      </span>
    </>
  );
}

function GroupCard({
  group,
  workspaceId,
  canMerge,
  onMerged,
  onChanged,
}: {
  group: DuplicateGroup;
  workspaceId: string;
  canMerge: boolean;
  onMerged: (resource: Resource, count: number) => void;
  onChanged: () => void;
}) {
  const id = useId();
  const language = useReaderLocale();
  const merge = useMergeDuplicates(workspaceId);
  const [keepId, setKeepId] = useState(group.resources[0]?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const keep = group.resources.some((resource) => resource.id === keepId)
    ? keepId
    : (group.resources[0]?.id ?? '');
  const preview = mergePreview(group.resources, keep);
  const count = group.resources.length;
  const title = group.resources[0]?.title ?? 'Untitled';

  const run = async () => {
    if (merge.isPending) return;
    setError(null);
    try {
      const reply = await merge.mutateAsync({
        keep,
        merge: preview.merge.map((resource) => resource.id),
        versions: Object.fromEntries(
          group.resources.map((resource) => [resource.id, resource.version]),
        ),
      });
      onMerged(reply.resource, count);
    } catch (caught) {
      if (isChangedMeanwhile(caught)) onChanged();
      else setError(describeError(caught));
    }
  };

  return (
    <section className="card duplicate-group" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      <p className="duplicate-reason">
        {reasonText(group)} · {plural(count, 'item')}
      </p>
      {canMerge ? (
        <fieldset className="duplicate-keep">
          <legend>Version to keep</legend>
          {group.resources.map((resource, at) => (
            <div className="duplicate-option" key={resource.id}>
              <input
                type="radio"
                id={`${id}-${resource.id}`}
                name={`${id}-keep`}
                value={resource.id}
                checked={resource.id === keep}
                onChange={() => setKeepId(resource.id)}
              />
              <label htmlFor={`${id}-${resource.id}`}>
                <span className="muted">Item {at + 1}: </span>
                <ResourceFacts resource={resource} language={language} />
              </label>
            </div>
          ))}
        </fieldset>
      ) : (
        <ol className="duplicate-items">
          {group.resources.map((resource) => (
            <li key={resource.id}>
              <ResourceFacts resource={resource} language={language} />
            </li>
          ))}
        </ol>
      )}
      {canMerge && (
        <>
          <h3 id={`${id}-after`}>After the merge</h3>
          <dl className="duplicate-preview" aria-labelledby={`${id}-after`}>
            {preview.rows.map((row) => (
              <div key={row.field} className="duplicate-row">
                <dt>{row.label}</dt>
                <dd>
                  {row.text}
                  {row.from !== null && (
                    <span className="duplicate-added"> (added from item {row.from + 1})</span>
                  )}
                </dd>
              </div>
            ))}
            {preview.tags.length > 0 && (
              <div className="duplicate-row">
                <dt>Tags</dt>
                <dd>{preview.tags.join(', ')}</dd>
              </div>
            )}
            {preview.notes && (
              <div className="duplicate-row">
                <dt>Notes</dt>
                <dd className="duplicate-notes">{preview.notes}</dd>
              </div>
            )}
            {preview.annotations > 0 && (
              <div className="duplicate-row">
                <dt>Annotations</dt>
                <dd>{plural(preview.annotations, 'annotation')}, all kept</dd>
              </div>
            )}
            {preview.pdfFrom !== null && (
              <div className="duplicate-row">
                <dt>PDF</dt>
                <dd>
                  {preview.pdfFrom === group.resources.findIndex((each) => each.id === keep)
                    ? 'its own'
                    : `item ${preview.pdfFrom + 1}’s`}
                </dd>
              </div>
            )}
          </dl>
          <p className="muted">
            {count === 2
              ? 'The other item is removed; its notes, tags, annotations and PDF (when the kept one has none) move to the kept one.'
              : `The other ${count - 1} items are removed; their notes, tags, annotations and a PDF (when the kept one has none) move to the kept one.`}
          </p>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <button
            type="button"
            className="button button-primary"
            aria-disabled={merge.isPending || undefined}
            onClick={() => void run()}
          >
            {merge.isPending ? 'Merging…' : `Merge ${count} items`}
          </button>
        </>
      )}
    </section>
  );
}

export function DuplicatesView({ workspaceId }: { workspaceId: string }) {
  const duplicates = useDuplicates(workspaceId);
  const can = useAbilities();
  const [notice, setNotice] = useState<{
    text: string;
    alert: boolean;
    resource?: Resource;
  } | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  // A merge (or its refusal) may take the group away: the focus goes to what the page says of it.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  if (duplicates.isPending) return <LoadingState label="Looking for duplicates…" />;
  if (duplicates.isError)
    return <ErrorState error={duplicates.error} onRetry={() => void duplicates.refetch()} />;
  const groups = duplicates.data.groups;
  return (
    <div className="duplicates">
      <div
        ref={noticeRef}
        tabIndex={-1}
        className={notice ? (notice.alert ? 'form-alert' : 'form-notice') : undefined}
        role={notice?.alert ? 'alert' : 'status'}
      >
        {notice && (
          <>
            {notice.text}
            {notice.resource && (
              <>
                {' '}
                <Link to={`/workspaces/${workspaceId}?resource=${notice.resource.id}`}>
                  Open it in the library
                </Link>
              </>
            )}
          </>
        )}
      </div>
      {groups.length === 0 ? (
        <EmptyState title="No duplicates found">
          <p>
            No two resources here share a DOI, an arXiv ID or a PMID, or have the same title, year
            and first author.
          </p>
        </EmptyState>
      ) : (
        <>
          <p className="muted">
            {plural(groups.length, 'group')} of likely duplicates
            {can.edit ? '' : '. Only editors and the owner can merge them.'}
          </p>
          {groups.map((group) => (
            <GroupCard
              key={groupKey(group)}
              group={group}
              workspaceId={workspaceId}
              canMerge={can.edit}
              onMerged={(resource, count) =>
                setNotice({
                  text: `Merged ${count} items into “${resource.title}”.`,
                  alert: false,
                  resource,
                })
              }
              onChanged={() =>
                setNotice({
                  text:
                    'Nothing was merged: one of these items was changed or merged by someone ' +
                    'else meanwhile. The duplicates are shown as they are now; check the group ' +
                    'and merge again.',
                  alert: true,
                })
              }
            />
          ))}
        </>
      )}
    </div>
  );
}
