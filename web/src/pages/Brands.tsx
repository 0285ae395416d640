import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { NamedSelect } from '../components/NamedSelect.tsx';
import { useBrands, useVoices } from '../lib/hooks.ts';

type Brand = Schemas['Brand'];
type Voice = Schemas['Voice'];

const list = (s: string) =>
  s
    .split(/\n|,/)
    .map((x) => x.trim())
    .filter(Boolean);

/** Samples pasted into one box, separated by a line holding only --- (or a blank line pair). */
export function splitSamples(text: string): string[] {
  return text
    .split(/\n\s*---\s*\n|\n\s*\n\s*\n/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function BrandsPage() {
  const brands = useBrands();
  const voices = useVoices();
  const [editing, setEditing] = useState<Brand | 'new' | null>(null);
  const [editingVoice, setEditingVoice] = useState<Voice | null>(null);
  return (
    <div>
      <h1>Brands & voices</h1>
      <p className="muted">Brands give generate and plan their context; voices make drafts sound like you.</p>
      <section>
        <div className="row">
          <h2>Brands</h2>
          <button type="button" onClick={() => setEditing('new')}>
            New brand
          </button>
        </div>
        {editing && <BrandForm brand={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
        <ErrorBox error={brands.error} />
        {brands.data?.brands.length === 0 && !editing && (
          <p className="muted">
            No brands yet. A brand names an audience, themes and tone; pick it in Generate or Plan.
          </p>
        )}
        <ul className="cards">
          {brands.data?.brands.map((b) => (
            <li key={b.id} className="card">
              <h3>{b.name}</h3>
              {b.description && <p>{b.description}</p>}
              {b.audience && <p className="muted">Audience: {b.audience}</p>}
              {b.themes.length > 0 && <p className="muted">Themes: {b.themes.join(', ')}</p>}
              <button type="button" onClick={() => setEditing(b)}>
                Edit {b.name}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2>Voices</h2>
        <VoiceBuilder brands={brands.data?.brands ?? []} />
        {editingVoice && <VoiceForm voice={editingVoice} onDone={() => setEditingVoice(null)} />}
        <ErrorBox error={voices.error} />
        {voices.data?.voices.length === 0 && (
          <p className="muted">No voices yet: build one above from posts you wrote.</p>
        )}
        <ul className="cards">
          {voices.data?.voices.map((v) => (
            <li key={v.id} className="card">
              <h3>{v.name}</h3>
              <p className="muted">Imitate: {v.traits.join('; ') || '—'}</p>
              <p className="muted">Avoid: {v.doNot.join('; ') || '—'}</p>
              <button type="button" onClick={() => setEditingVoice(v)}>
                Edit {v.name}
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function BrandForm({ brand, onDone }: { brand: Brand | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(brand?.name ?? '');
  const [description, setDescription] = useState(brand?.description ?? '');
  const [audience, setAudience] = useState(brand?.audience ?? '');
  const [themes, setThemes] = useState(brand?.themes.join(', ') ?? '');
  const [linkPolicy, setLinkPolicy] = useState(brand?.linkPolicy ?? '');
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name,
        description: description || null,
        audience: audience || null,
        themes: list(themes),
        linkPolicy: linkPolicy || null,
      };
      return brand
        ? ok(api.PATCH('/v1/brands/{id}', { params: { path: { id: brand.id } }, body }))
        : ok(api.POST('/v1/brands', { body }));
    },
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['brands'] });
      onDone();
    },
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/v1/brands/{id}', { params: { path: { id: brand!.id } } })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['brands'] });
      onDone();
    },
  });
  return (
    <form
      className="card form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h3>{brand ? `Edit ${brand.name}` : 'New brand'}</h3>
      <label>
        Name <input required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Description <textarea rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <label>
        Audience <input value={audience} onChange={(e) => setAudience(e.target.value)} />
      </label>
      <label>
        Themes (comma-separated) <input value={themes} onChange={(e) => setThemes(e.target.value)} />
      </label>
      <label>
        Link policy{' '}
        <input
          value={linkPolicy}
          onChange={(e) => setLinkPolicy(e.target.value)}
          placeholder="e.g. links in the first comment"
        />
      </label>
      <div className="row wrap">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Close
        </button>
        {brand && (
          <button
            type="button"
            className="danger"
            onClick={() => window.confirm(`Delete ${brand.name}? Its voices are kept.`) && remove.mutate()}
          >
            Delete
          </button>
        )}
      </div>
      <ErrorBox error={save.error ?? remove.error} />
    </form>
  );
}

function VoiceBuilder({ brands }: { brands: Brand[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [brandId, setBrandId] = useState('');
  const [samples, setSamples] = useState('');
  const parsed = splitSamples(samples);
  const build = useMutation({
    mutationFn: () =>
      ok(api.POST('/v1/voices/build', { body: { name, samples: parsed, ...(brandId ? { brandId } : {}) } })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['voices'] });
      setName('');
      setSamples('');
    },
  });
  return (
    <form
      className="card form"
      onSubmit={(e) => {
        e.preventDefault();
        build.mutate();
      }}
    >
      <h3>Build a voice from your posts</h3>
      <label>
        Name <input required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <NamedSelect label="Brand" value={brandId} onChange={setBrandId} items={brands} />
      <label>
        Sample posts (1 to 12, separated by a line with ---)
        <textarea rows={6} value={samples} onChange={(e) => setSamples(e.target.value)} />
      </label>
      <p className="hint">
        {parsed.length} sample{parsed.length === 1 ? '' : 's'} found.
      </p>
      <button
        type="submit"
        className="primary"
        disabled={build.isPending || parsed.length < 1 || parsed.length > 12}
      >
        Build voice
      </button>
      {build.isPending && <Working label="Reading your samples…" />}
      <ErrorBox error={build.error} />
    </form>
  );
}

function VoiceForm({ voice, onDone }: { voice: Voice; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(voice.name);
  const [traits, setTraits] = useState(voice.traits.join('\n'));
  const [doNot, setDoNot] = useState(voice.doNot.join('\n'));
  const invalidate = () => {
    queryClient.invalidateQueries({ queryKey: ['voices'] });
    onDone();
  };
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PATCH('/v1/voices/{id}', {
          params: { path: { id: voice.id } },
          body: { name, traits: list(traits), doNot: list(doNot) },
        }),
      ),
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/v1/voices/{id}', { params: { path: { id: voice.id } } })),
    onSuccess: invalidate,
  });
  return (
    <form
      className="card form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h3>Edit {voice.name}</h3>
      <label>
        Name <input required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Traits to imitate (one a line){' '}
        <textarea rows={4} value={traits} onChange={(e) => setTraits(e.target.value)} />
      </label>
      <label>
        Avoid (one a line) <textarea rows={3} value={doNot} onChange={(e) => setDoNot(e.target.value)} />
      </label>
      <div className="row wrap">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Close
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => window.confirm(`Delete ${voice.name}?`) && remove.mutate()}
        >
          Delete
        </button>
      </div>
      <ErrorBox error={save.error ?? remove.error} />
    </form>
  );
}
