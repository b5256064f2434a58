/**
 * What the workspace page does with a work it shows but does not hold (a saved resource's references,
 * citations and similar works; the workspace's suggestions): summarize it, save it through the save
 * dialog (this workspace chosen first), or save it here in one click. A saved work says "In your
 * library" in every related-works list that holds it.
 */
import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import type { SearchResult } from '../../api/types';
import { useMarkSaved } from '../../features/search/hooks/use-search';
import { resourceFromResult, useAddResource } from '../../features/workspaces/hooks/use-workspaces';

const SummaryDialog = lazy(() =>
  import('../../features/summary/components/SummaryDialog').then((module) => ({
    default: module.SummaryDialog,
  })),
);
const SaveDialog = lazy(() =>
  import('../../features/workspaces/components/SaveDialog').then((module) => ({
    default: module.SaveDialog,
  })),
);

interface WorkDialogs {
  onSummarize: (result: SearchResult) => void;
  onSave: (result: SearchResult) => void;
  saveHere: (result: SearchResult) => Promise<void>;
  dialogs: ReactNode;
}

export function useWorkDialogs(workspaceId: string, workspaceName: string): WorkDialogs {
  const [summarizing, setSummarizing] = useState<SearchResult | null>(null);
  const [saving, setSaving] = useState<SearchResult | null>(null);
  const [summaryError, setSummaryError] = useState<string | null>(null);
  const markSaved = useMarkSaved();
  const { mutateAsync } = useAddResource();

  const onServerError = useCallback((message: string) => {
    setSummarizing(null);
    setSummaryError(message);
  }, []);
  const saveHere = useCallback(
    async (result: SearchResult) => {
      const saved = await mutateAsync({ workspaceId, resource: resourceFromResult(result) });
      markSaved(result, { workspaceId, workspaceName, resourceId: saved.id });
    },
    [mutateAsync, markSaved, workspaceId, workspaceName],
  );

  const dialogs = (
    <>
      {summaryError && (
        <div className="state state-error" role="alert">
          <p>The summary failed: {summaryError}</p>
          <button
            type="button"
            className="button button-small"
            onClick={() => setSummaryError(null)}
          >
            Dismiss
          </button>
        </div>
      )}
      <Suspense fallback={null}>
        <SummaryDialog
          result={summarizing}
          onClose={() => setSummarizing(null)}
          onServerError={onServerError}
        />
        <SaveDialog
          result={saving}
          onClose={() => setSaving(null)}
          onSaved={markSaved}
          preferWorkspaceId={workspaceId}
        />
      </Suspense>
    </>
  );
  return { onSummarize: setSummarizing, onSave: setSaving, saveHere, dialogs };
}
