import { rfidCardSchema, rfidInputSchema, rfidsQuerySchema } from '@latchkey/shared';
import { getCard, getCardsPage, registerCard, removeCard, saveCard } from '../credentials/rfid.service';
import { defineCollection } from './registry';

/** `rfid`: RFID cards (features/credentials), for admins; a revoked card is deleted for `ls`. */
export const rfidCollection = defineCollection({
  name: 'rfid',
  feature: 'credentials',
  idKind: 'rfidId',
  record: rfidCardSchema,
  get: {
    access: 'admin',
    summary: 'A card (as GET portal/rfid/{id})',
    handler: (caller, id) => getCard(caller.db, caller.portalId, id),
  },
  list: {
    access: 'admin',
    summary: 'A page of cards (as GET portal/rfids)',
    filter: rfidsQuerySchema,
    handler: (caller, query) => getCardsPage(caller.db, caller.portalId, query),
  },
  create: {
    access: 'admin',
    summary: 'Register a card (as POST portal/rfid)',
    body: rfidInputSchema,
    example: { uid: '0C011EC7', userId: '{userId}' },
    answer: rfidCardSchema,
    handler: (caller, body) => registerCard(caller.db, caller.change(), body),
  },
  save: {
    access: 'admin',
    summary: "Change a card's label, holder or validity; its number stays (as POST portal/rfid/{id})",
    body: rfidInputSchema,
    example: { uid: '{rfidUid}', userId: '{userId}', name: 'Collection card' },
    handler: (caller, id, body) => saveCard(caller.db, caller.change(), id, body),
  },
  remove: {
    access: 'admin',
    summary: 'Revoke a card (as DELETE portal/rfid/{id})',
    handler: (caller, id) => removeCard(caller.db, caller.change(), id),
  },
  ls: { access: 'admin', summary: 'Cards registered, changed and revoked since a cursor' },
});
