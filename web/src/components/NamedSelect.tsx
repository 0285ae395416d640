/**
 * A labelled select of the account's brands or voices (anything with an id and a name), with an
 * empty first option: "no brand" is a choice, not a missing value.
 */
export function NamedSelect({
  label,
  value,
  onChange,
  items,
  none = 'None',
}: {
  label: string;
  value: string;
  onChange: (id: string) => void;
  items: readonly { id: string; name: string }[] | undefined;
  none?: string;
}) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{none}</option>
        {items?.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
    </label>
  );
}
