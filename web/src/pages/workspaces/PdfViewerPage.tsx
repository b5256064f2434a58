/** A resource's PDF, read and annotated in the app (`?page=N` opens at page N); pdf.js loads with this page only. */
import { useCallback, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Page } from '../../components/Page';
import { PdfViewer } from '../../features/pdf-viewer/components/PdfViewer';
import '../../features/features.css';

/** `?page=` as a page number from 1; anything else is page 1. */
function pageParam(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function PdfViewerPage() {
  const { id = '', resourceId = '' } = useParams();
  const [params] = useSearchParams();
  const [title, setTitle] = useState('PDF');
  const onTitle = useCallback((found: string) => setTitle(found), []);
  return (
    <Page title={title}>
      <p>
        <Link to={`/workspaces/${encodeURIComponent(id)}`}>← Back to the workspace</Link>
      </p>
      <PdfViewer
        key={resourceId}
        workspaceId={id}
        resourceId={resourceId}
        initialPage={pageParam(params.get('page'))}
        onTitle={onTitle}
      />
    </Page>
  );
}
