import { Page } from '../../components/Page';

export function AnalyticsPage() {
  return (
    <Page title="Analytics">
      <p>This page is being built.</p>
    </Page>
  );
}
