import { BILLING_CURRENCY, LOCK_MODELS, type LockModel, type ProductKind } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { upsertProduct } from './products.repository';

/** A catalogue entry as the demo data (and tests) put it in the shop. */
export interface CatalogueEntry {
  id: string;
  sku: string;
  name: string;
  kind: ProductKind;
  summary: string;
  description: string;
  /** Gross, in minor units of BILLING_CURRENCY. */
  price: number;
  stock: number;
  packSize?: number;
  lockModel?: LockModel;
}

/** What the portal accepts for the Keypad Code Lock's model: the product text says the same. */
const CODE_LOCK = LOCK_MODELS['generic-codelock'];

/** The demo shop: locks, a keypad, a bridge, cards, fobs and a reader. Pictures: apps/web/public/shop. */
export const DEMO_CATALOGUE: CatalogueEntry[] = [
  {
    id: 'smart-lock',
    sku: 'LK-SL1',
    name: 'Latchkey Smart Lock',
    kind: 'lock',
    summary: 'Retrofit smart lock with keypad, for euro-profile cylinders.',
    description:
      'Fits most euro-profile doors without drilling. Opens by access code, RFID card or fob, the app and a physical key. Runs about a year on four AA batteries and reports its battery and door state.',
    price: 24900,
    stock: 40,
    lockModel: 'generic-smartlock',
  },
  {
    id: 'smart-lock-pro',
    sku: 'LK-SL2',
    name: 'Latchkey Smart Lock Pro',
    kind: 'lock',
    summary: 'Smart lock with keypad and fingerprint reader, for front doors.',
    description:
      'Everything the Smart Lock does, plus a fingerprint reader for up to 100 fingers and a weatherproof keypad for outside doors (IP65). Auto-locks after a set time.',
    price: 34900,
    stock: 25,
    lockModel: 'generic-smartlock',
  },
  {
    id: 'code-lock',
    sku: 'LK-CL1',
    name: 'Keypad Code Lock',
    kind: 'lock',
    summary: 'Keypad-only code lock for sheds, storerooms and gates.',
    description:
      `A simple, sturdy code lock for up to ${CODE_LOCK.capacity} codes of ${CODE_LOCK.codeLength.min} to ` +
      `${CODE_LOCK.codeLength.max} digits (longer codes are refused for it). No network: codes are set on the keypad.`,
    price: 15900,
    stock: 3,
    lockModel: 'generic-codelock',
  },
  {
    id: 'wireless-keypad',
    sku: 'LK-KP1',
    name: 'Wireless Keypad',
    kind: 'keypad',
    summary: 'An extra keypad for a Latchkey lock, up to 10 m away.',
    description:
      'Mount it beside the door or at a gate: codes typed here open the lock it is paired with. Backlit keys, IP65, two AAA batteries.',
    price: 8900,
    stock: 60,
  },
  {
    id: 'wifi-bridge',
    sku: 'LK-BR1',
    name: 'Wi-Fi Bridge',
    kind: 'bridge',
    summary: 'Connects up to 8 nearby locks to your portal over Wi-Fi.',
    description:
      'Plugs into a socket near the doors. Locks talk to it over Bluetooth; it talks to your portal, so changes reach the locks in seconds and events come back as they happen.',
    price: 7900,
    stock: 30,
  },
  {
    id: 'rfid-cards-10',
    sku: 'LK-RC10',
    name: 'RFID Cards, pack of 10',
    kind: 'card',
    summary: 'MIFARE DESFire EV2 cards, white, printable.',
    description:
      'Ten contactless cards for Latchkey locks and readers. Register each one on a person in the portal.',
    price: 2900,
    stock: 200,
    packSize: 10,
  },
  {
    id: 'rfid-fobs-5',
    sku: 'LK-RF5',
    name: 'RFID Key Fobs, pack of 5',
    kind: 'fob',
    summary: 'Key-ring fobs in five colours.',
    description:
      'Five contactless fobs (MIFARE DESFire EV2), one of each colour, for people who prefer a key ring to a card.',
    price: 2400,
    stock: 150,
    packSize: 5,
  },
  {
    id: 'desk-reader',
    sku: 'LK-DR1',
    name: 'Desk Card Reader',
    kind: 'reader',
    summary: 'USB reader for registering cards and fobs at the desk.',
    description:
      'Plug it into the computer you use the portal on: a card held to it fills in its UID when you register it on a person.',
    price: 5900,
    stock: 15,
  },
];

/** Puts the catalogue in the shop (prices and texts refreshed; stock set only for new products). */
export async function seedCatalogue(
  db: Database,
  catalogue: CatalogueEntry[] = DEMO_CATALOGUE,
): Promise<void> {
  const now = nowIso();
  for (const [index, entry] of catalogue.entries()) {
    await upsertProduct(db, {
      id: entry.id,
      sku: entry.sku,
      name: entry.name,
      kind: entry.kind,
      summary: entry.summary,
      description: entry.description,
      image: `/shop/${entry.id}.svg`,
      price: entry.price,
      currency: BILLING_CURRENCY,
      stock_on_hand: entry.stock,
      stock_reserved: 0,
      pack_size: entry.packSize ?? 1,
      lock_model: entry.lockModel ?? null,
      active: 1,
      sort_order: index,
      created_at: now,
      updated_at: now,
    });
  }
}
