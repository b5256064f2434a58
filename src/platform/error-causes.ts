/**
 * One line naming an error and the causes under it ("fetch failed ← invalid content-length header"),
 * for warnings about failures elsewhere: the top message of a network error rarely says what failed.
 */
export function describeError(error: unknown, maxDepth = 5): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < maxDepth; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(
        typeof code === 'string' && !current.message.includes(code)
          ? `${current.message} (${code})`
          : current.message,
      );
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.filter(Boolean).join(' ← ').slice(0, 500);
}
