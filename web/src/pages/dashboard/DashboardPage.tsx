import { Page } from '../../components/Page';

/** Placeholder for the search page (query box, provider chips, results, Summarize and Save). */
export function DashboardPage() {
  return (
    <Page title="Search">
      <p>This page is being built.</p>
    </Page>
  );
}
