import { type Engine, type EngineWork, engineLine } from '../lib/engine.ts';
import { Link } from '../router.tsx';

/** Says which engine made a result; offline, plainly and with the way to configure a model. */
export function EngineNotice({ engine, work }: { engine: Engine | null | undefined; work: EngineWork }) {
  const line = engineLine(engine, work);
  if (!line) return null;
  if (!line.offline) return <p className="engine-note muted">{line.text}</p>;
  return (
    <p className="engine-note offline" role="note">
      <strong>Offline engine.</strong> {line.text} <Link to="/model">How to configure a model</Link>
    </p>
  );
}
