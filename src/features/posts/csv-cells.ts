/**
 * Spreadsheet formula injection, both ways. A cell that starts with `=`, `+`, `-`, `@` (or a
 * tab or carriage return) is run as a formula by Excel, LibreOffice and Sheets. Postkit keeps
 * such text as text: an export prefixes the cell with `'` (the spreadsheet's own "this is
 * text" mark, which it hides), and an import drops that one mark again, so exporting and
 * importing a post gives back its text unchanged. Cells already starting with quotes before a
 * formula character get one more quote, which keeps the two directions exact inverses.
 */

const FORMULA_START = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;

/** A cell as written to an exported CSV: formula-looking text gets a leading `'`. */
export function escapeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell as read from an imported CSV: the `'` an export (or a spreadsheet) added is dropped. */
export function unescapeCell(value: string): string {
  return ESCAPED_FORMULA.test(value) ? value.slice(1) : value;
}

/** One CSV record (RFC 4180): every field quoted when it holds a quote, comma or line break. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(',')}\r\n`;
}
