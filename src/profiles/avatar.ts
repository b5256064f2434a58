/**
 * The avatar pipeline: the upload is judged by its bytes (sharp must decode it as an image), then
 * re-encoded so that metadata and anything hidden in the file are dropped, and bounded in size.
 */
import { validationError } from '../platform/errors.js';
import { ownValue } from '../platform/own-key.js';

/**
 * sharp (libvips) is loaded on the first upload, not at start: about 12 MB of resident memory that a
 * process serving no uploads never needs.
 */
let loadingSharp: Promise<(typeof import('sharp'))['default']> | undefined;
const loadSharp = () =>
  (loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache keeps up to 50 MB of decoded images for operations repeated on the same
    // input; every avatar is processed once, so the cache would only hold memory.
    sharp.cache(false);
    return sharp;
  }));

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
const MAX_INPUT_PIXELS = 40_000_000;
const AVATAR_SIZE = 512;

const OUTPUT: Record<string, { format: 'png' | 'webp' | 'jpeg'; ext: string; type: string }> = {
  png: { format: 'png', ext: 'png', type: 'image/png' },
  gif: { format: 'png', ext: 'png', type: 'image/png' },
  svg: { format: 'png', ext: 'png', type: 'image/png' },
  webp: { format: 'webp', ext: 'webp', type: 'image/webp' },
  jpeg: { format: 'jpeg', ext: 'jpg', type: 'image/jpeg' },
};

export interface ProcessedAvatar {
  data: Buffer;
  ext: string;
  contentType: string;
}

/** Decodes, strips and re-encodes an uploaded image; a file that is not an image is a 400. */
export async function processAvatar(upload: Buffer): Promise<ProcessedAvatar> {
  const sharp = await loadSharp();
  let format: string | undefined;
  try {
    const metadata = await sharp(upload, {
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'error',
    }).metadata();
    format = metadata.format;
  } catch {
    throw validationError('file', 'not_an_image', 'The file is not an image');
  }
  // SVG can carry scripts; it is rasterised like any other non-photo format.
  const output = ownValue(OUTPUT, format ?? '') ?? OUTPUT.jpeg!;
  try {
    const pipeline = sharp(upload, {
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'error',
      animated: false,
    })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', withoutEnlargement: true });
    const data =
      output.format === 'png'
        ? await pipeline.png({ compressionLevel: 9 }).toBuffer()
        : output.format === 'webp'
          ? await pipeline.webp({ quality: 85 }).toBuffer()
          : await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    return { data, ext: output.ext, contentType: output.type };
  } catch {
    throw validationError('file', 'not_an_image', 'The image could not be decoded');
  }
}
