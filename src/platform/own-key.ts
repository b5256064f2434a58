/**
 * Looking up a key a user's string names (a style id, a content type, a provider alias, a type from an
 * imported file) in a plain object: only the object's own keys count, so that `__proto__`,
 * `constructor`, `toString` and the other names every object inherits find nothing.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
