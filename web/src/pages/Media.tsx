import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api, type Media, ok, uploadMedia } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { MediaThumb } from '../components/Preview.tsx';
import { formatWhen } from '../lib/time.ts';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,video/mp4,application/pdf';

interface Upload {
  name: string;
  progress: number;
  error?: unknown;
}

function size(bytes: number) {
  return bytes > 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Upload by drag and drop (or the file picker) with progress; previews; delete. */
export function MediaPage() {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const library = useQuery({
    queryKey: ['media'],
    queryFn: () => ok(api.GET('/v1/media', { params: { query: { limit: 100 } } })),
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/v1/media/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['media'] }),
  });

  const start = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const update = (patch: Partial<Upload>) =>
        setUploads((list) => list.map((u) => (u.name === file.name ? { ...u, ...patch } : u)));
      setUploads((list) => [...list.filter((u) => u.name !== file.name), { name: file.name, progress: 0 }]);
      uploadMedia(file, (progress) => update({ progress }))
        .then(() => {
          setUploads((list) => list.filter((u) => u.name !== file.name));
          queryClient.invalidateQueries({ queryKey: ['media'] });
        })
        .catch((error) => update({ error }));
    }
  };

  return (
    <div>
      <h1>Media library</h1>
      <p className="muted">Images, PDFs and videos you can attach to posts in Compose.</p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is the mouse shortcut; the button inside does the same from the keyboard */}
      <div
        className={`dropzone ${over ? 'over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          start(e.dataTransfer.files);
        }}
      >
        <p>Drop images, a PDF or an MP4 video here</p>
        <button type="button" onClick={() => input.current?.click()}>
          Choose files…
        </button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          multiple
          hidden
          aria-label="Choose files to upload"
          onChange={(e) => {
            start(e.target.files);
            e.target.value = '';
          }}
        />
        <p className="hint">PNG, JPEG, GIF, WebP, MP4 or PDF. The type must match the file's contents.</p>
      </div>
      <ul className="uploads" aria-live="polite">
        {uploads.map((u) => (
          <li key={u.name}>
            <span>{u.name}</span>{' '}
            {u.error ? (
              <ErrorBox error={u.error} />
            ) : (
              <>
                <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />{' '}
                {Math.round(u.progress * 100)}%
              </>
            )}
          </li>
        ))}
      </ul>
      {library.isPending && <Working label="Loading the library…" />}
      <ErrorBox error={library.error ?? remove.error} />
      {library.data?.media.length === 0 && <p className="muted">Nothing uploaded yet.</p>}
      <ul className="media-list">
        {library.data?.media.map((m: Media) => (
          <li key={m.id} className="card">
            <MediaThumb media={m} className="tile" />
            <p>
              <strong>{m.filename ?? m.id}</strong>
              <br />
              <span className="muted">
                {m.contentType} · {size(m.size)} · {formatWhen(m.createdAt)}
              </span>
            </p>
            <button
              type="button"
              className="danger"
              onClick={() => window.confirm(`Delete ${m.filename ?? 'this file'}?`) && remove.mutate(m.id)}
              aria-label={`Delete ${m.filename ?? m.id}`}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
