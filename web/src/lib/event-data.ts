/** An event's JSON data (server-sent events); null for anything else (a connection failure is a plain Event, with none). */
export function eventData(event: Event): unknown {
  if (!(event instanceof MessageEvent) || typeof event.data !== 'string') return null;
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    return null;
  }
}
