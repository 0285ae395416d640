import { explainError } from '../lib/errors.ts';

/** An API error in words: what happened, the API's message, what to do. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const e = explainError(error);
  return (
    <div className="error" role="alert">
      <strong>{e.title}.</strong> {e.message} <span className="action">{e.action}</span>
    </div>
  );
}

/** A long operation under way, announced to screen readers. */
export function Working({ label, hint }: { label: string; hint?: string }) {
  return (
    <div className="working" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
      {hint && <span className="hint"> {hint}</span>}
    </div>
  );
}

export function Notice({
  children,
  kind = 'info',
}: {
  children: React.ReactNode;
  kind?: 'info' | 'success';
}) {
  return (
    <div className={`notice ${kind}`} role="status">
      {children}
    </div>
  );
}
