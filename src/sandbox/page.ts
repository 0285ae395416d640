import { escapeHtml } from './http.ts';

/** The HTML shell of every sandbox page (consent pages, post pages, the index), whichever platform's. */
export function page(title: string, body: string, options: { refreshSeconds?: number } = {}): string {
  const refresh = options.refreshSeconds
    ? `<meta http-equiv="refresh" content="${options.refreshSeconds}">`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${refresh}<title>${escapeHtml(title)} · Postkit sandbox</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d2226}
button{font-size:1rem;padding:.4rem 1.2rem;margin-right:.5rem}.error{color:#b00020}.muted{color:#666;font-size:.9rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;margin:0;font:inherit}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
