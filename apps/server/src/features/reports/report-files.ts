import { Readable } from 'node:stream';
import { REPORT_TITLES, formatDateTime, type ReportRow, type ReportTable } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { csvCell } from '../../base/http/csv';
import { REPORT_COLUMNS, reportNotes, reportPages, type ReportContext } from './reports.service';

// A report as a file. The CSV is streamed: a page of rows is read (a keyset page of events, a slice
// of locks), written as lines, and the next page is read only when the reply has taken the last
// (Readable.from pulls on demand), so 100,000 rows never sit in memory. The PDF streams too, and
// holds at most PDF_MAX_ROWS table rows (beyond that a page of a PDF is no way to read a report):
// past them it says how many more there are and that the CSV has them all.

/** Table rows a PDF holds; the CSV has every row. */
export const PDF_MAX_ROWS = 2000;

/** The report as CSV lines (RFC 4180, formula-safe cells: base/http/csv.ts), pulled page by page. */
export function reportCsv(db: Database, portalId: string, context: ReportContext): Readable {
  const columns = REPORT_COLUMNS[context.kind];
  async function* lines() {
    yield `${columns.map((column) => csvCell(column.label)).join(',')}\r\n`;
    for await (const rows of reportPages(db, portalId, context)) {
      let chunk = '';
      for (const row of rows) chunk += `${columns.map((column) => csvCell(row[column.key])).join(',')}\r\n`;
      yield chunk;
    }
  }
  return Readable.from(lines(), { objectMode: false, highWaterMark: 64 * 1024 });
}

/** Column widths in proportion to what they hold (times and names wider than counts). */
const WIDE = new Set(['time', 'lock', 'person', 'holder', 'email', 'lastSeen', 'expired', 'problem', 'sync']);

function filterLine(context: ReportContext): string {
  const parts = [
    context.filters.locks.length ? `Locks: ${context.filters.locks.map((x) => x.name).join(', ')}` : null,
    context.filters.groups.length ? `Groups: ${context.filters.groups.map((x) => x.name).join(', ')}` : null,
    context.filters.people.length ? `People: ${context.filters.people.map((x) => x.name).join(', ')}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'None: every lock and person of the portal';
}

/**
 * The report as a PDF (pdfkit, built-in Helvetica, A4 landscape): its title, the portal, the
 * period and its zone, the zones of the times, the filters, notes, summaries, then the table.
 * Answers the document stream at once; the rows are written as they are read.
 */
export async function reportPdf(
  db: Database,
  portalId: string,
  context: ReportContext,
  extra: { summaries?: ReportTable[] } = {},
): Promise<Readable> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 36,
    bufferPages: false,
    info: { Title: `${REPORT_TITLES[context.kind]}, ${context.period.label}`, Author: context.portal.name },
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom - 14;

  const write = async () => {
    doc.font('Helvetica-Bold').fontSize(16).text(REPORT_TITLES[context.kind], left, 36, { width });
    doc.font('Helvetica').fontSize(9);
    doc.text(`Portal: ${context.portal.name}`);
    doc.text(`Period: ${context.period.label} (days on the portal's clock, ${context.portal.timeZone})`);
    doc.text(`Filters: ${filterLine(context)}`, { width });
    doc.text(`Made: ${formatDateTime(context.now, context.portal.timeZone, { zone: true })}`);
    for (const note of reportNotes(context)) doc.fillColor('#444444').text(note, { width });
    doc.fillColor('#000000');

    for (const table of extra.summaries ?? []) {
      doc.moveDown(0.6).font('Helvetica-Bold').fontSize(10).text(table.title, left);
      drawRows(table.columns, table.rows, true);
    }

    const columns = REPORT_COLUMNS[context.kind];
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(10).text('Rows', left);
    const zones = new Set<string>();
    let written = 0;
    let more = 0;
    for await (const rows of reportPages(db, portalId, context)) {
      for (const row of rows) if (typeof row.zone === 'string') zones.add(row.zone);
      const room = PDF_MAX_ROWS - written;
      if (room <= 0) {
        more += rows.length;
        continue;
      }
      drawRows(columns, rows.slice(0, room), written === 0);
      written += Math.min(room, rows.length);
      more += Math.max(0, rows.length - room);
    }
    doc.font('Helvetica').fontSize(9).moveDown(0.5);
    if (written === 0) doc.text('No rows for this period and these filters.', left);
    if (more > 0) {
      doc.text(`${more} more rows are not in this PDF: the CSV download has every row.`, left, undefined, {
        width,
      });
    }
    if (zones.size > 0) {
      doc.text(`Times are on each lock's clock: ${[...zones].sort().join(', ')}.`, left, undefined, {
        width,
      });
    }
    doc.end();
  };

  function drawRows(columns: { key: string; label: string }[], rows: ReportRow[], header: boolean) {
    const weights = columns.map((column) => (WIDE.has(column.key) ? 2 : 1));
    const unit = width / weights.reduce((a, b) => a + b, 0);
    const xs: number[] = [];
    let x = left;
    for (const weight of weights) {
      xs.push(x);
      x += weight * unit;
    }
    const line = (cells: string[], bold: boolean) => {
      if (doc.y > bottom()) doc.addPage();
      const top = doc.y;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(7.5);
      let lowest = top;
      cells.forEach((cell, i) => {
        doc.text(cell, xs[i]!, top, { width: weights[i]! * unit - 4, height: 30, ellipsis: true });
        lowest = Math.max(lowest, doc.y);
      });
      doc.y = lowest + 1.5;
      doc.x = left;
    };
    if (header)
      line(
        columns.map((column) => column.label),
        true,
      );
    for (const row of rows)
      line(
        columns.map((column) => String(row[column.key] ?? '')),
        false,
      );
  }

  // Written after the caller has the stream, so the reply starts before the last row is read.
  setImmediate(() => {
    write().catch((error: unknown) => doc.destroy(error as Error));
  });
  return doc as unknown as Readable;
}
