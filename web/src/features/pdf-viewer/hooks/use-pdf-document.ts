/**
 * The resource's PDF opened with pdf.js. The file is read from our API by ranges as pages need it
 * (the session cookie goes with it: same origin); a 401 renews the session once and opens it again.
 * pdf.js parses in a worker bundled with the app and served from our own origin (the page's CSP allows
 * workers from 'self' only); eval is off, as that CSP forbids it.
 */
import {
  getDocument,
  GlobalWorkerOptions,
  ResponseException,
  type PDFDocumentProxy,
} from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useState } from 'react';
import { refreshSession } from '../../../api/client';

GlobalWorkerOptions.workerSrc = workerUrl;

export interface PdfDocumentState {
  document: PDFDocumentProxy | null;
  /** The page's width over its height at scale 1, from page 1 (until a page is drawn, every page is given it). */
  aspect: number;
  /** Page 1's width at 100 % in CSS pixels (pdf.js's scale 1 is 72 points an inch, a CSS inch 96 pixels). */
  naturalWidth: number;
  /** The PDF's own title, else the name it was uploaded with. */
  title: string | null;
  failure: 'missing' | 'unreadable' | null;
}

const LOADING: PdfDocumentState = {
  document: null,
  aspect: 1 / Math.SQRT2,
  naturalWidth: 816,
  title: null,
  failure: null,
};

async function open(url: string, renewed = false): Promise<PDFDocumentProxy> {
  try {
    return await getDocument({ url, isEvalSupported: false }).promise;
  } catch (error) {
    if (
      !renewed &&
      error instanceof ResponseException &&
      error.status === 401 &&
      (await refreshSession())
    )
      return open(url, true);
    throw error;
  }
}

async function titleOf(document: PDFDocumentProxy): Promise<string | null> {
  // pdf.js also gives the reply's Content-Disposition name, which its types leave out.
  const {
    info,
    contentDispositionFilename,
  }: { info: unknown; contentDispositionFilename?: string | null } = await document
    .getMetadata()
    .catch(() => ({ info: null }));
  const title =
    info && typeof info === 'object' && 'Title' in info && typeof info.Title === 'string'
      ? info.Title.trim()
      : '';
  const found = title || contentDispositionFilename;
  // The PDF's own metadata, written by whatever made the file: shortened to a title's length.
  return found ? found.slice(0, 200) : null;
}

export function usePdfDocument(url: string): PdfDocumentState {
  const [state, setState] = useState<PdfDocumentState>(LOADING);
  useEffect(() => {
    let current = true;
    let opened: PDFDocumentProxy | null = null;
    setState(LOADING);
    open(url)
      .then(async (document) => {
        opened = document;
        if (!current) return void document.destroy();
        const [first, title] = await Promise.all([document.getPage(1), titleOf(document)]);
        const { width, height } = first.getViewport({ scale: 1 });
        if (current)
          setState({
            document,
            aspect: width / height,
            naturalWidth: (width * 96) / 72,
            title,
            failure: null,
          });
      })
      .catch((error: unknown) => {
        if (current)
          setState({
            ...LOADING,
            failure:
              error instanceof ResponseException && error.status === 404 ? 'missing' : 'unreadable',
          });
      });
    return () => {
      current = false;
      void opened?.destroy();
    };
  }, [url]);
  return state;
}
