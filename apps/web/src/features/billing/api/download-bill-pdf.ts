import type { Bill } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { billPath } from './query-keys';

/** The file name the server gives the PDF (the invoice number). */
export function pdfFileName(bill: Pick<Bill, 'invoiceNumber' | 'year' | 'month'>): string {
  return `${bill.invoiceNumber ?? `bill-${bill.year}-${String(bill.month).padStart(2, '0')}`}.pdf`;
}

/** GET portal/billing/bill/{id}/pdf (admin): the invoice as a PDF made on the server, saved as a file. */
export async function downloadBillPdf(bill: Bill): Promise<void> {
  const bytes = await api.get<unknown>(`${billPath(bill._id!)}/pdf`, { cacheKey: 'pdf' });
  if (!(bytes instanceof ArrayBuffer)) throw new Error('The server did not answer a PDF');
  downloadFile(bytes, pdfFileName(bill), 'application/pdf');
}

export function useDownloadBillPdf() {
  return useMutation({ mutationFn: downloadBillPdf });
}
