import {
  BRANDS,
  DEFAULT_BRAND,
  billDateFact,
  billLockDaysText,
  billPeriodText,
  formatMoney,
  formatMonth,
  formatRate,
  type Bill,
  type BillParty,
  type Brand,
} from '@latchkey/shared';

// The invoice as a PDF (pdfkit, its built-in Helvetica: nothing to download or embed). A4; the
// same content as the print layout (/print/bill/{historyId}): seller, buyer, lines with how each
// was reached, the locks behind them, net, VAT and total.

/** The file name a downloaded invoice gets. */
export function billPdfFileName(bill: Bill): string {
  const month = `${bill.year}-${String(bill.month).padStart(2, '0')}`;
  return `${bill.invoiceNumber ?? `bill-${month}`}.pdf`;
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

function partyLines(party: BillParty): string[] {
  return [
    ...party.addressLines,
    ...(party.country ? [countryNames.of(party.country) ?? party.country] : []),
    ...(party.vatNumber ? [`VAT ID ${party.vatNumber}`] : []),
    ...(party.email ? [party.email] : []),
  ];
}

/**
 * Renders a closed (or running) bill as a PDF document, under the brand the portal's people see
 * (its reseller's choice; Latchkey by default): the brand's name heads the page in its colour.
 */
export async function billPdf(bill: Bill, brand: Brand = BRANDS[DEFAULT_BRAND]): Promise<Buffer> {
  // Loaded on the first PDF: pdfkit (with its fonts) costs about 0.2 s of CPU at every start.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: bill.invoiceNumber
        ? `Invoice ${bill.invoiceNumber}`
        : `Bill ${formatMonth(bill.year, bill.month)}`,
      Author: bill.seller.name,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const money = (minor: number) => formatMoney(minor, bill.currency);
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  // The brand above everything: its colour bar and name (the seller below stays the legal one).
  doc.rect(left, 24, 4, 14).fill(brand.color);
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(brand.color)
    .text(brand.name, left + 10, 26);
  doc.fillColor('black');

  // Seller, top left; the document's title and facts, top right.
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(bill.seller.name, left, 50, { width: width / 2 });
  doc.font('Helvetica').fontSize(9);
  for (const line of partyLines(bill.seller)) doc.text(line, { width: width / 2 });
  const title = bill.invoiceNumber ? 'Invoice' : bill.status === 'closed' ? 'Statement' : 'Running bill';
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(title, left + width / 2, 50, { width: width / 2, align: 'right' });
  doc.font('Helvetica').fontSize(9);
  const facts = [
    ...(bill.invoiceNumber ? [`Invoice number: ${bill.invoiceNumber}`] : []),
    // Dates in the words of the printed page (bill-dates.ts, shared): one invoice, one format.
    `${billDateFact(bill).label}: ${billDateFact(bill).value}`,
    `Period: ${billPeriodText(bill)}`,
    `Portal: ${bill.portalName}`,
  ];
  for (const fact of facts) doc.text(fact, { width: width / 2, align: 'right' });

  // Buyer.
  doc.moveDown(2);
  const buyerTop = Math.max(doc.y, 150);
  doc.font('Helvetica-Bold').fontSize(9).text('Bill to', left, buyerTop);
  doc.font('Helvetica').fontSize(11).text(bill.buyer.name);
  doc.fontSize(9);
  for (const line of partyLines(bill.buyer)) doc.text(line);
  if (!bill.invoiceNumber && bill.status === 'closed') {
    doc.moveDown(0.5).text('Nothing to pay for this month: no invoice number was issued.');
  }

  // Lines.
  doc.moveDown(1.5);
  const columns = {
    description: left,
    lockDays: left + width * 0.52,
    price: left + width * 0.67,
    amount: left + width * 0.82,
  };
  const header = doc.y;
  doc.font('Helvetica-Bold').fontSize(9);
  doc.text('Description', columns.description, header);
  doc.text('Lock-days', columns.lockDays, header, { width: width * 0.14, align: 'right' });
  doc.text('Per lock-month', columns.price, header, { width: width * 0.14, align: 'right' });
  doc.text('Amount', columns.amount, header, { width: width * 0.18, align: 'right' });
  doc
    .moveTo(left, doc.y + 2)
    .lineTo(left + width, doc.y + 2)
    .stroke();
  doc.moveDown(0.5);
  for (const line of bill.lines) {
    if (doc.y > doc.page.height - 200) doc.addPage();
    const top = doc.y;
    doc.font('Helvetica-Bold').fontSize(9);
    doc.text(
      `${line.planName} plan, ${line.planDays} of ${line.daysInMonth} days`,
      columns.description,
      top,
      {
        width: width * 0.5,
      },
    );
    doc.font('Helvetica');
    doc.text(String(line.billableLockDays), columns.lockDays, top, { width: width * 0.14, align: 'right' });
    doc.text(money(line.unitPriceMinor), columns.price, top, { width: width * 0.14, align: 'right' });
    doc.text(money(line.amountMinor), columns.amount, top, { width: width * 0.18, align: 'right' });
    doc.fontSize(8).fillColor('#444444');
    doc.text(line.explanation, columns.description, doc.y + 2, { width: width * 0.78 });
    for (const lock of line.locks) {
      doc.text(
        `${lock.name}${lock.deleted ? ' (deleted since)' : ''}: ${billLockDaysText(lock)}`,
        columns.description + 10,
        undefined,
        { width: width * 0.75 },
      );
    }
    doc.fillColor('#000000').fontSize(9).moveDown(0.6);
  }
  if (bill.lines.length === 0) doc.text('No locks this month.', columns.description);

  // Totals.
  doc.moveDown(0.5);
  doc
    .moveTo(left + width * 0.5, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.4);
  const totals: [string, string, boolean][] = [
    ['Net', money(bill.netMinor), false],
    [`VAT ${formatRate(bill.vat.rateBp)}`, money(bill.vatMinor), false],
    ['Total', money(bill.totalMinor), true],
  ];
  for (const [label, value, bold] of totals) {
    const top = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 9);
    doc.text(label, left + width * 0.5, top, { width: width * 0.3 });
    doc.text(value, columns.amount, top, { width: width * 0.18, align: 'right' });
  }
  doc.font('Helvetica').fontSize(8).moveDown(1);
  doc.text(bill.vat.note, left, undefined, { width });
  doc.moveDown(0.5);
  doc.text(
    'Each lock counts on every UTC day at whose end it existed; each day is priced on the plan in force at its end. Amounts in ' +
      `${bill.currency}, rounded once per line.`,
    left,
    undefined,
    { width },
  );
  doc.end();
  return done;
}
