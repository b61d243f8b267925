import { z } from 'zod';
import { idSchema, instantInput, lineText } from './safe-input';
import { listQuerySchema, pageSchema } from './list-query';

const optionalInstant = instantInput().nullable().default(null);
const id = idSchema;

/** The person a credential is handed to, as lists show them. */
export const credentialHolderSchema = z.object({ _id: z.string(), email: z.string(), name: z.string() });
/**
 * A lock a credential is bound to; its zone is the clock the credential's times are on (the server
 * always says it; optional for clients and fixtures written before it did).
 */
export const deviceRefSchema = z.object({
  _id: z.string(),
  name: z.string(),
  timeZone: z.string().optional(),
});

/** validUntil, when given with validFrom, must come after it. */
function validityInOrder<T extends { validFrom: string | null; validUntil: string | null }>(value: T) {
  return !value.validFrom || !value.validUntil || new Date(value.validUntil) > new Date(value.validFrom);
}
const validityMessage = { message: 'must be after validFrom', path: ['validUntil'] };

// ---------------------------------------------------------------------------------------------
// Company codes: portal-wide access codes (cleaning crew, deliveries), not tied to a person.

/** A company code as GET portal/code/company answers it. */
export const companyCodeSchema = z.object({
  _id: z.string(),
  name: z.string(),
  code: z.string(),
  validFrom: z.iso.datetime().nullable(),
  validUntil: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type CompanyCode = z.infer<typeof companyCodeSchema>;

/** POST portal/code/company: the code rules (digits, length, keypads, uniqueness) are the server's. */
export const companyCodeInputSchema = z
  .object({
    name: lineText().min(1, 'is required').max(80),
    code: lineText().min(1, 'is required').max(32),
    validFrom: optionalInstant,
    validUntil: optionalInstant,
  })
  .refine(validityInOrder, validityMessage);
export type CompanyCodeInput = z.input<typeof companyCodeInputSchema>;

// ---------------------------------------------------------------------------------------------
// Fingerprints: a template enrolled on one lock's reader, held by one person.

export const FINGERS = [
  'left-thumb',
  'left-index',
  'left-middle',
  'left-ring',
  'left-little',
  'right-thumb',
  'right-index',
  'right-middle',
  'right-ring',
  'right-little',
] as const;
export const fingerSchema = z.enum(FINGERS);
export type Finger = z.infer<typeof fingerSchema>;

export const fingerprintSchema = z.object({
  _id: z.string(),
  name: z.string(),
  finger: fingerSchema,
  /** The slot or template id the lock's reader gave the enrolled finger; what the lock reports back. */
  templateId: z.string(),
  holder: credentialHolderSchema.nullable(),
  device: deviceRefSchema,
  validFrom: z.iso.datetime().nullable(),
  validUntil: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Fingerprint = z.infer<typeof fingerprintSchema>;

/** POST portal/fingerprint: record a finger enrolled at a lock for a person. */
export const fingerprintCreateSchema = z
  .object({
    deviceId: id,
    userId: id,
    templateId: lineText()
      .min(1, 'is required')
      .max(64)
      .regex(/^[\w.-]+$/, 'must be letters, digits, ".", "_" or "-"'),
    finger: fingerSchema,
    name: lineText().max(80).default(''),
    validFrom: optionalInstant,
    validUntil: optionalInstant,
  })
  .refine(validityInOrder, validityMessage);
export type FingerprintCreate = z.input<typeof fingerprintCreateSchema>;

/** POST portal/fingerprint/{id}: the template and its lock cannot change (enrol again instead). */
export const fingerprintUpdateSchema = z
  .object({
    finger: fingerSchema,
    name: lineText().max(80).default(''),
    validFrom: optionalInstant,
    validUntil: optionalInstant,
  })
  .refine(validityInOrder, validityMessage);
export type FingerprintUpdate = z.input<typeof fingerprintUpdateSchema>;

export const fingerprintsQuerySchema = listQuerySchema({
  sortBy: ['name', 'finger', 'createdAt'],
  filterBy: ['userId', 'deviceId'],
});
export type FingerprintsQuery = z.output<typeof fingerprintsQuerySchema>;
export const fingerprintsPageSchema = pageSchema(fingerprintSchema);

// ---------------------------------------------------------------------------------------------
// Keys: physical keys (tracked: who holds which key to which doors) and digital keys (a credential
// the lock checks, working only at the locks it is linked to).

export const KEY_TYPES = ['physical', 'digital'] as const;
export const keyTypeSchema = z.enum(KEY_TYPES);
export type KeyType = z.infer<typeof keyTypeSchema>;

export const keySchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: keyTypeSchema,
  /** A physical key's stamped number; null for a digital key (its secret is never shown). */
  number: z.string().nullable(),
  holder: credentialHolderSchema.nullable(),
  devices: z.array(deviceRefSchema),
  validFrom: z.iso.datetime().nullable(),
  validUntil: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Key = z.infer<typeof keySchema>;

const keyFields = {
  name: lineText().min(1, 'is required').max(80),
  number: lineText().max(40).nullable().default(null),
  validFrom: optionalInstant,
  validUntil: optionalInstant,
};

/** POST portal/keys: a new key, optionally handed to a person and linked to locks. */
export const keyCreateSchema = z
  .object({
    ...keyFields,
    type: keyTypeSchema,
    userId: id.nullable().default(null),
    deviceIds: z.array(id).max(500).default([]),
  })
  .refine((key) => key.type === 'digital' || !!key.number, {
    message: 'is required for a physical key',
    path: ['number'],
  })
  .refine((key) => key.type === 'physical' || !key.number, {
    message: 'is only for physical keys',
    path: ['number'],
  })
  .refine(validityInOrder, validityMessage);
export type KeyCreate = z.input<typeof keyCreateSchema>;

/** POST portal/keys/{id}: name, number (physical keys) and validity; holder and locks have their own calls. */
export const keyUpdateSchema = z.object(keyFields).refine(validityInOrder, validityMessage);
export type KeyUpdate = z.input<typeof keyUpdateSchema>;

export const keysQuerySchema = listQuerySchema({
  sortBy: ['name', 'number', 'type', 'createdAt'],
  filterBy: ['userId', 'deviceId', 'type'],
});
export type KeysQuery = z.output<typeof keysQuerySchema>;
export const keysPageSchema = pageSchema(keySchema);
