import { type ReactNode, useState } from 'react';

export function CopyButton({
  text,
  label = 'Copy',
  onCopied,
}: {
  text: string;
  label?: string;
  onCopied?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API refused (non-secure origin): fall back to a selection copy.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    onCopied?.();
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" onClick={copy}>
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A secret shown once, with a copy button (or the buttons given instead). */
export function SecretOnce({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children?: ReactNode;
}) {
  return (
    <div className="secret">
      <p>
        <strong>{label}</strong> It is shown only this once: copy it now and keep it somewhere safe.
      </p>
      <div className="row wrap">
        <code className="secret-value">{value}</code>
        {children ?? <CopyButton text={value} />}
      </div>
    </div>
  );
}
