/** "Sort by" and its choices, applied as soon as one is chosen (a list's sort, kept by the page in the address). */
export function SortSelect<S extends string>({
  id,
  value,
  sorts,
  labels,
  onChange,
}: {
  id: string;
  value: S;
  sorts: readonly S[];
  labels: Record<S, string>;
  onChange: (sort: S) => void;
}) {
  return (
    <>
      <label htmlFor={id}>Sort by</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(sorts.find((sort) => sort === event.target.value) ?? value)}
      >
        {sorts.map((sort) => (
          <option key={sort} value={sort}>
            {labels[sort]}
          </option>
        ))}
      </select>
    </>
  );
}
