import type { SearchResult } from '@latchkey/shared';
import { paths } from '@/config/paths';

/** The screen a search result opens. */
export function resultPath(result: SearchResult): string {
  switch (result.kind) {
    case 'person':
      return paths.app.member.href(result._id);
    case 'lock':
      return paths.app.device.href(result._id);
    case 'card':
      // A card has no screen of its own: its holder's page lists it, the card list otherwise.
      return result.ref ? paths.app.member.href(result.ref) : paths.app.cards.href({ search: result.title });
    case 'listing':
      return paths.app.listing.href(result._id);
    case 'stay':
      return result.ref ? paths.app.stay.href(result.ref, result._id) : paths.app.listings.href();
    case 'bill': {
      const [year, month] = (result.ref ?? '').split('-');
      return year && month ? paths.app.monthBill.href(year, String(Number(month))) : paths.app.billing.href();
    }
  }
}

export const KIND_LABELS: Record<SearchResult['kind'], string> = {
  person: 'People',
  lock: 'Locks',
  card: 'Cards',
  listing: 'Listings',
  stay: 'Stays',
  bill: 'Bills',
};
