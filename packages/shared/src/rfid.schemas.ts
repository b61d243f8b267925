import { z } from 'zod';
import { idSchema, instantInput, lineText } from './safe-input';
import { listQuerySchema, pageSchema } from './list-query';

/**
 * A card's UID as readers print it: 4, 7 or 10 bytes of hex, with or without ':', '-' or spaces
 * between bytes; stored upper-case without separators so one card is always one value.
 */
export const rfidUidSchema = z
  .string()
  .trim()
  .transform((uid) => uid.replace(/[\s:-]/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .regex(/^([0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$/, 'must be a 4, 7 or 10 byte card UID in hex'),
  );

/** An RFID card as the API answers it. */
export const rfidCardSchema = z.object({
  _id: z.string(),
  uid: z.string(),
  name: z.string(),
  holder: z.object({ _id: z.string(), email: z.string(), name: z.string() }).nullable(),
  validFrom: z.iso.datetime().nullable(),
  validUntil: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type RfidCard = z.infer<typeof rfidCardSchema>;

/** POST portal/rfid (register a card) and POST portal/rfid/{id} (save). */
export const rfidInputSchema = z
  .object({
    uid: rfidUidSchema,
    name: lineText().max(80).default(''),
    /** The person who carries it; a card nobody holds opens nothing. */
    userId: idSchema.nullable().default(null),
    validFrom: instantInput().nullable().default(null),
    validUntil: instantInput().nullable().default(null),
  })
  .refine((c) => !c.validFrom || !c.validUntil || new Date(c.validUntil) > new Date(c.validFrom), {
    message: 'must be after validFrom',
    path: ['validUntil'],
  });
export type RfidInput = z.input<typeof rfidInputSchema>;

export const rfidsQuerySchema = listQuerySchema({
  sortBy: ['uid', 'name', 'createdAt'],
  filterBy: ['userId'],
});
export type RfidsQuery = z.output<typeof rfidsQuerySchema>;
export const rfidsPageSchema = pageSchema(rfidCardSchema);
