/**
 * One CSV cell (RFC 4180 quoting). A cell a spreadsheet would run as a formula (=, +, -, @, tab or
 * carriage return first) gets a leading apostrophe, so a name someone typed cannot execute when an
 * operator opens the export.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: a header line, then one line per row, CRLF-terminated (RFC 4180). */
export function csvDocument(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const line = (cells: readonly unknown[]) =>
    cells.map((cell) => csvCell(cell as string | number | boolean | null | undefined)).join(',');
  return `${[line(header), ...rows.map(line)].join('\r\n')}\r\n`;
}
