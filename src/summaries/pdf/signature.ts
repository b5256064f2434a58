/** True when the bytes carry the `%PDF-` header (PDF readers accept it within the first 1 KiB). */
export function hasPdfSignature(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  return head.indexOf('%PDF-', 0, 'latin1') !== -1;
}
