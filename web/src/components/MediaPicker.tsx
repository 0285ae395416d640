import { useQuery } from '@tanstack/react-query';
import { api, type Media, ok } from '../api.ts';
import { Link } from '../router.tsx';
import { MediaThumb } from './Preview.tsx';

/** Attach media from the library (upload happens on the Media page). */
export function MediaPicker({
  selected,
  onChange,
}: {
  selected: Media[];
  onChange: (media: Media[]) => void;
}) {
  const library = useQuery({
    queryKey: ['media'],
    queryFn: () => ok(api.GET('/v1/media', { params: { query: { limit: 100 } } })),
  });
  const items = library.data?.media ?? [];
  const toggle = (m: Media) =>
    onChange(selected.some((s) => s.id === m.id) ? selected.filter((s) => s.id !== m.id) : [...selected, m]);
  return (
    <details className="picker">
      <summary>Media {selected.length > 0 ? `(${selected.length} attached)` : '(none attached)'}</summary>
      {items.length === 0 ? (
        <p className="hint">
          The library is empty: <Link to="/media">upload images, a PDF or a video</Link> first.
        </p>
      ) : (
        <ul className="pick-grid">
          {items.map((m) => {
            const on = selected.some((s) => s.id === m.id);
            return (
              <li key={m.id}>
                <label className={on ? 'on' : ''}>
                  <input type="checkbox" checked={on} onChange={() => toggle(m)} />
                  <MediaThumb media={m} />
                  <span>{m.filename ?? m.id}</span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </details>
  );
}
