import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { useMeta } from '../lib/hooks.ts';

/**
 * Configuring a language model: what this server runs (from /v1/meta) and the variables that
 * change it. The offline-engine notices link here. The same commands are in docs/intelligence.md.
 */
const EXAMPLES: { title: string; command: string }[] = [
  { title: 'OpenAI', command: 'LLM_PROVIDER=openai LLM_API_KEY=sk-... LLM_MODEL=gpt-4o-mini npm start' },
  {
    title: 'Anthropic',
    command: 'LLM_PROVIDER=anthropic LLM_API_KEY=sk-ant-... LLM_MODEL=claude-3-5-haiku-latest npm start',
  },
  {
    title: 'A local OpenAI-compatible server, e.g. Ollama (ollama pull llama3.1 first)',
    command:
      'LLM_PROVIDER=openai-compatible LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.1 npm start',
  },
];

export function ModelPage() {
  const meta = useMeta();
  const c = meta.data?.capabilities;
  return (
    <div>
      <h1>Language model</h1>
      {meta.isPending && <Working label="Asking the server…" />}
      <ErrorBox error={meta.error} />
      {c && (
        <section className="card" aria-label="This server">
          <p>
            <strong>
              {c.offline
                ? 'This server runs the offline engine: no language model is configured.'
                : `This server uses the language model ${c.model ?? ''} (${c.scoringEngine}).`}
            </strong>
          </p>
          <p className="muted">{c.engineNote}</p>
        </section>
      )}
      <h2>Configuring a model</h2>
      <p>
        Set these variables in the environment of the API process, then restart it. Every page works the same
        either way; scores, rewrites, drafts and plans say which engine made them.
      </p>
      {EXAMPLES.map((e) => (
        <div key={e.title}>
          <h3>{e.title}</h3>
          <pre className="command">{e.command}</pre>
        </div>
      ))}
      <p className="muted">
        Every variable, with its default, is in <code>docs/configuration.md</code> (Intelligence); how each
        engine scores and writes is in <code>docs/intelligence.md</code> (Engines), in the Postkit repository.
        A provider missing a required variable stops the API at startup with a message naming it.
      </p>
    </div>
  );
}
