/**
 * PDFs made inside the tests (pdfkit, standard fonts): a plain text PDF, a two-column page, an
 * image-only "scan" and an encrypted file, so extraction is tested on known content.
 */
import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';

type PdfOptions = ConstructorParameters<typeof PDFDocument>[0];

async function render(
  draw: (doc: PDFKit.PDFDocument) => void,
  options: PdfOptions = {},
): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, compress: true, ...options });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  return done;
}

/** One flowing text, one or more pages (pdfkit breaks pages when the text overflows). */
export function makeTextPdf(paragraphs: string[], options: PdfOptions = {}): Promise<Buffer> {
  return render((doc) => {
    doc.font('Helvetica').fontSize(11);
    for (const paragraph of paragraphs) {
      doc.text(paragraph, { align: 'left' });
      doc.moveDown();
    }
  }, options);
}

/** A full-width title over two columns of text that sit side by side on the page. */
export function makeTwoColumnPdf(title: string, left: string[], right: string[]): Promise<Buffer> {
  return render((doc) => {
    doc.font('Helvetica-Bold').fontSize(16).text(title, 50, 60, { width: 495, align: 'center' });
    doc.font('Helvetica').fontSize(10);
    doc.text(left.join('\n\n'), 50, 120, { width: 230 });
    doc.text(right.join('\n\n'), 315, 120, { width: 230 });
  });
}

/** A grey-striped 8-bit greyscale PNG, made without any image library. */
function makePng(width: number, height: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width + 1);
    row[0] = 0; // filter: none
    for (let x = 0; x < width; x++) row[x + 1] = (y >> 3) % 2 === 0 ? 255 : (x * 7 + y) % 256;
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A page that is only a picture: what a scan without a text layer looks like. */
export function makeImageOnlyPdf(): Promise<Buffer> {
  const png = makePng(400, 560);
  return render((doc) => {
    doc.image(png, 50, 50, { width: 495 });
  });
}

/** A text PDF that needs a password to open. */
export function makeEncryptedPdf(text: string): Promise<Buffer> {
  return makeTextPdf([text], { userPassword: 'secret', ownerPassword: 'owner', pdfVersion: '1.7' });
}

/** One text per page, in order, with the information dictionary's Title and Author when given. */
export function makePagedPdf(
  pages: string[],
  info: { Title?: string; Author?: string } = {},
): Promise<Buffer> {
  return render(
    (doc) => {
      doc.font('Helvetica').fontSize(12);
      pages.forEach((text, index) => {
        if (index > 0) doc.addPage();
        doc.text(text, { align: 'left' });
      });
    },
    { info },
  );
}

/**
 * A compression bomb: about 100 KB on disk, one FlateDecode content stream of `expandedMb` MB of zero
 * bytes (whitespace to a PDF parser) that each of `pages` pages draws, so a reader decompresses and
 * scans `expandedMb × pages` MB (100 × 20: tens of seconds of pdftotext on an idle machine).
 * Written by hand, since a PDF library would not share one stream between pages.
 */
export function makeCompressionBombPdf(expandedMb = 100, pages = 20): Buffer {
  const stream = deflateSync(Buffer.alloc(expandedMb * 1024 * 1024), { level: 9 });
  const kids = Array.from({ length: pages }, (_, index) => `${4 + index} 0 R`).join(' ');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`),
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
      stream,
      Buffer.from('\nendstream'),
    ]),
    ...Array.from({ length: pages }, () =>
      Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>'),
    ),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`),
      body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(object);
    length += object.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(xref)]);
}
