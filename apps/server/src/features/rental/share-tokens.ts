import crypto from 'node:crypto';

/**
 * Share links (docs/decisions.md "Rentals"): a listing's landing link and a guest's stay link are
 * derived, never stored: `<kind>.<id>.<version>.<mac>`, the MAC an HMAC-SHA256 of the rest under a
 * key derived from the server's signing secret (every server of a deployment derives the same).
 * Raising the record's version (rotating a listing's link; a stay's is raised when it is
 * cancelled or declined) makes every older link fail, with nothing to look up or expire.
 */

/**
 * listing: a listing's landing link; stay: a guest's link; calendar: a listing's private iCal
 * export feed (R2, its own version on the listing); review: a guest's review page (R2, under the
 * stay's guest link version).
 */
export type ShareTokenKind = 'listing' | 'stay' | 'calendar' | 'review';

const PREFIX: Record<ShareTokenKind, string> = { listing: 'L1', stay: 'S1', calendar: 'C1', review: 'V1' };
const KIND_OF: Record<string, ShareTokenKind> = { L1: 'listing', S1: 'stay', C1: 'calendar', V1: 'review' };
/** 128 bits of MAC, base64url. */
const MAC_LENGTH = 22;
const TOKEN_PATTERN = /^(L1|S1|C1|V1)\.([A-Za-z0-9_-]{1,64})\.(\d{1,9})\.([A-Za-z0-9_-]{22})$/;

export class ShareTokens {
  private readonly key: Buffer;

  constructor(signingSecret: Uint8Array) {
    this.key = crypto.createHmac('sha256', signingSecret).update('latchkey share links v1').digest();
  }

  private mac(body: string): string {
    return crypto.createHmac('sha256', this.key).update(body).digest('base64url').slice(0, MAC_LENGTH);
  }

  sign(kind: ShareTokenKind, id: string, version: number): string {
    const body = `${PREFIX[kind]}.${id}.${version}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The kind, id and version a genuine token names; null for anything else. */
  read(token: string): { kind: ShareTokenKind; id: string; version: number } | null {
    const match = TOKEN_PATTERN.exec(token);
    if (!match) return null;
    const [, prefix, id, version, mac] = match;
    const expected = this.mac(`${prefix}.${id}.${version}`);
    if (!crypto.timingSafeEqual(Buffer.from(mac!), Buffer.from(expected))) return null;
    return { kind: KIND_OF[prefix!]!, id: id!, version: Number(version) };
  }
}
