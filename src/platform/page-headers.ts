/**
 * The security headers of every HTML page the server sends itself (the web app, the API reference at
 * /api/docs): no framing by another origin, no content sniffing, and a policy allowing only our own
 * scripts, styles, images and API. Inline style attributes are allowed (the dialog and chart libraries,
 * and Swagger UI, position elements with them); inline scripts are not. `blob:` images are the avatar
 * preview before upload. Workers (pdf.js's, in the PDF viewer) come from our own origin only.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  // The PDF viewer's pdf.js runs in a worker, a file of our build on our own origin (never a blob:).
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_SECURITY_HEADERS = {
  'content-security-policy': PAGE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;
