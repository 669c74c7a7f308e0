/** Escapes text for HTML content and quoted attributes: model output is untrusted and must never become markup. */
export function esc(text: string | number | null | undefined): string {
  return String(text ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A value as indented JSON, escaped for a `<pre>`. */
export function escJson(value: unknown): string {
  return esc(JSON.stringify(value, null, 2) ?? 'undefined');
}

/** An id safe in `id="…"` and a URL fragment, one for one: any character but letters, digits, `-` and `.` becomes `_hex_`. */
export function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9.-]/gu, (c) => `_${c.codePointAt(0)!.toString(16)}_`);
}
