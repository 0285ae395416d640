import { useState } from 'react';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
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
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" onClick={copy}>
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A secret shown once, with a copy button. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  return (
    <div className="secret">
      <p>
        <strong>{label}</strong> It is shown only this once: copy it now and keep it somewhere safe.
      </p>
      <div className="row">
        <code className="secret-value">{value}</code>
        <CopyButton text={value} />
      </div>
    </div>
  );
}
