import { useState } from 'react';
import { keyStore } from '../api.ts';
import { CopyButton } from './CopyButton.tsx';

/** Offers the key as a small text file, named so it is found again. */
export function downloadKey(key: string, email: string) {
  const text = `Postkit API key for ${email}\n${key}\n\nKeep this file private: anyone with the key can post as you.\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'postkit-api-key.txt';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copy and Download for a new key; either marks it saved (this browser no longer holds the only copy). */
export function SaveKeyButtons({
  apiKey,
  email,
  onSaved,
}: {
  apiKey: string;
  email: string;
  onSaved: () => void;
}) {
  return (
    <div className="row wrap">
      <CopyButton text={apiKey} label="Copy" onCopied={onSaved} />
      <button
        type="button"
        onClick={() => {
          downloadKey(apiKey, email);
          onSaved();
        }}
      >
        Download the key
      </button>
    </div>
  );
}

/**
 * Shown on every page while the account's key lives only in this browser (signed up, not yet
 * copied or downloaded): what losing it means and the two ways to keep it, once.
 */
export function UnsavedKeyNotice() {
  const [email, setEmail] = useState(keyStore.unsaved);
  const apiKey = keyStore.get();
  if (!email || !apiKey) return null;
  const saved = () => {
    keyStore.markSaved();
    setEmail(null);
  };
  return (
    <div className="notice warn" role="alert" aria-label="Your API key is not saved yet">
      <p>
        <strong>Save your API key.</strong> Only this browser holds it so far: you stay signed in here, but if
        you sign out or clear this browser's data without a copy, the key is gone, and with it the way into
        this account. Copy it or download it, then keep it somewhere safe, such as a password manager.
      </p>
      <SaveKeyButtons apiKey={apiKey} email={email} onSaved={saved} />
    </div>
  );
}
