/** "1 resource", "2 resources", "1,200 entries": a count and its noun (`many` when the plural is not `one` + s). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
