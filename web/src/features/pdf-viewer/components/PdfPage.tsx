/**
 * One page of the PDF: a box of the page's shape at once, and its drawing (canvas) and text (pdf.js's
 * text layer, transparent text over the canvas, so that it can be selected) once it scrolls near the
 * view. The marks of annotations on the page, and what `children` adds (the selection's tools), lie
 * over it, placed by fractions of the page, so they fit it at any width.
 */
import { TextLayer, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { ANNOTATION_COLORS, type AnnotationColor } from '../../../lib/annotations';
import type { PageRect } from '../anchors';
import type { PageText } from '../find';

export interface PageMark {
  annotationId: string;
  color: AnnotationColor;
  rects: PageRect[];
}

/** Pages start drawing this far (a view's height) before they scroll into view. */
const NEAR = '100% 0px';

const colorHex = (color: AnnotationColor) =>
  ANNOTATION_COLORS.find((entry) => entry.id === color)?.hex ?? '#ffd400';

const percent = (fraction: number) => `${(fraction * 100).toFixed(4)}%`;

export function PdfPage({
  document,
  number,
  width,
  aspect,
  marks,
  activeId,
  onText,
  children,
}: {
  document: PDFDocumentProxy;
  number: number;
  /** The page's width on screen in CSS pixels. */
  width: number;
  /** Width over height, until the page itself is read. */
  aspect: number;
  marks: PageMark[];
  activeId: string | null;
  /** The page's text layer once drawn, null when it goes (find marks its matches in it). */
  onText?: (page: number, text: PageText | null) => void;
  children?: ReactNode;
}) {
  const pageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  /** The page's own size at scale 1, once read. */
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);

  useEffect(() => {
    const element = pageRef.current;
    if (!element || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const text = textRef.current;
    if (!near || width <= 0 || !canvas || !text) return;
    let current = true;
    let render: RenderTask | null = null;
    let layer: TextLayer | null = null;
    void document.getPage(number).then(async (page) => {
      if (!current) return;
      const unscaled = page.getViewport({ scale: 1 });
      const scale = width / unscaled.width;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      setNatural({ width: unscaled.width, height: unscaled.height });
      render = page.render({
        canvas,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      text.replaceChildren();
      // As pdf.js's viewer reads it (TextLayerBuilder), so that its find controller's offsets fit the text layer.
      const drawn = new TextLayer({
        textContentSource: page.streamTextContent({
          includeMarkedContent: true,
          disableNormalization: true,
        }),
        container: text,
        viewport,
      });
      layer = drawn;
      // A render cancelled by a newer one (the width changed, the page left) rejects: nothing to report.
      await Promise.all([
        render.promise,
        drawn.render().then(() => {
          if (current)
            onText?.(number, {
              textDivs: drawn.textDivs,
              textContentItemsStr: drawn.textContentItemsStr,
            });
        }),
      ]).catch(() => undefined);
    });
    return () => {
      current = false;
      render?.cancel();
      layer?.cancel();
      onText?.(number, null);
    };
  }, [document, number, width, near, onText]);

  // The text layer is sized by this factor: from the width now, not the last drawing's, so that it never outgrows the page.
  const style = {
    width: width > 0 ? `${width}px` : '100%',
    aspectRatio: String(natural ? natural.width / natural.height : aspect),
    '--total-scale-factor': String(natural && width > 0 ? width / natural.width : 1),
  } as CSSProperties;
  return (
    <div
      ref={pageRef}
      className="pdf-page"
      data-page-number={number}
      role="group"
      aria-label={`Page ${number}`}
      style={style}
    >
      <canvas ref={canvasRef} className="pdf-canvas" aria-hidden="true" />
      <div className="pdf-marks" aria-hidden="true">
        {marks.flatMap((mark) =>
          mark.rects.map((rect, index) => (
            <span
              key={`${mark.annotationId}-${index}`}
              className={mark.annotationId === activeId ? 'pdf-mark pdf-mark-active' : 'pdf-mark'}
              data-annotation-id={mark.annotationId}
              data-color={mark.color}
              style={{
                ['--mark' as string]: colorHex(mark.color),
                left: percent(rect.x),
                top: percent(rect.y),
                width: percent(rect.width),
                height: percent(rect.height),
              }}
            />
          )),
        )}
      </div>
      <div ref={textRef} className="textLayer" />
      {children}
    </div>
  );
}
