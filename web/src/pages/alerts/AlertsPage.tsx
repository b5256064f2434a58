/**
 * The Alerts page (`/alerts`): the searches the user follows, each with its last and next runs and its
 * actions (features/alerts AlertCard); deleting asks first. Without any, it says what an alert is and
 * where one is made (Follow this search, on the search page).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Page } from '../../components/Page';
import { EmptyState, ErrorState, LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import { searchFiltersOf, type Alert } from '../../features/alerts/api/alerts';
import { AlertCard } from '../../features/alerts/components/AlertCard';
import { useAlerts, useDeleteAlert } from '../../features/alerts/hooks/use-alerts';
import '../../features/alerts/alerts.css';
import { searchParamsOf } from '../../features/search/search-state';
import '../../features/features.css';
import { isProviderId, type ProviderId } from '../../lib/search-words';

function providersOf(alert: Alert): ProviderId[] | null {
  const known = (alert.providers ?? []).filter(isProviderId);
  return known.length > 0 ? known : null;
}

/** The search page showing what the alert searches for. */
function searchHrefOf(alert: Alert): string {
  const params = searchParamsOf({
    q: alert.query,
    sort: 'relevance',
    page: 1,
    providers: providersOf(alert),
    filters: searchFiltersOf(alert.filters),
  });
  return `/dashboard?${params.toString()}`;
}

export function AlertsPage() {
  const alerts = useAlerts();
  const remove = useDeleteAlert();
  const toast = useToast();
  const [deleting, setDeleting] = useState<Alert | null>(null);
  return (
    <Page title="Alerts">
      <p className="muted">
        Each alert runs its search daily or weekly and e-mails you the results you have not seen
        before; every e-mail has a link to stop it.
      </p>
      {alerts.isPending && <LoadingState label="Loading your alerts…" />}
      {alerts.isError && (
        <ErrorState
          title="Your alerts could not be loaded"
          error={alerts.error}
          onRetry={() => void alerts.refetch()}
        />
      )}
      {alerts.data?.length === 0 && (
        <EmptyState title="No alerts yet">
          <p>
            An alert follows a search for you: it runs the search daily or weekly and e-mails you
            what is new, so that you hear of a new paper on your topic without searching again. To
            make one, <Link to="/dashboard">search</Link>, then choose “Follow this search”.
          </p>
        </EmptyState>
      )}
      {alerts.data && alerts.data.length > 0 && (
        <ul className="alert-list" aria-label="Your alerts">
          {alerts.data.map((alert) => (
            <AlertCard
              key={alert.id}
              alert={alert}
              searchHref={searchHrefOf(alert)}
              onDelete={setDeleting}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the alert for “${deleting?.query ?? ''}”?`}
        pending={remove.isPending}
        error={remove.error}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast(`Deleted the alert for “${deleting.query}”`);
              setDeleting(null);
            },
          })
        }
      >
        Its search no longer runs and its runs are forgotten; no more e-mails come for it. The
        papers you saved stay.
      </ConfirmDialog>
    </Page>
  );
}
