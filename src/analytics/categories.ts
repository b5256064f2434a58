/**
 * Top categories of saved resources: a resource counts under its type; one without a type counts under
 * each of its tags. Categories compare without case; the most frequent come first.
 */
export function topCategories(
  resources: Array<{ type: string | null; tags: string[] }>,
  max = 10,
): Array<{ category: string; count: number }> {
  const counts = new Map<string, number>();
  for (const { type, tags } of resources) {
    const categories = type?.trim() ? [type] : tags;
    for (const category of new Set(
      categories.map((value) => value.trim().toLowerCase()).filter(Boolean),
    )) {
      counts.set(category, (counts.get(category) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort(([a, left], [b, right]) => right - left || a.localeCompare(b))
    .slice(0, max)
    .map(([category, count]) => ({ category, count }));
}
