import { Page } from '../../components/Page';

export function ProfilePage() {
  return (
    <Page title="Profile">
      <p>This page is being built.</p>
    </Page>
  );
}
