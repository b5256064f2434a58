import { Link } from 'react-router';
import { Page } from '../components/Page';

/** Nothing here: an unknown address, or (with its own words) an object the API answered 404 for. */
export function NotFoundPage({
  title = 'Page not found',
  message = 'There is nothing at this address.',
  back = { to: '/dashboard', label: 'Go to search' },
}: {
  title?: string;
  message?: string;
  back?: { to: string; label: string };
}) {
  return (
    <Page title={title}>
      <p>{message}</p>
      <p>
        <Link to={back.to}>{back.label}</Link>
      </p>
    </Page>
  );
}
