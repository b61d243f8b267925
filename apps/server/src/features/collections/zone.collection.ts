import { lockoutRecordSchema, zoneInputSchema, zoneLockoutInputSchema, zoneSchema } from '@latchkey/shared';
import { z } from 'zod';
import { createZone, getZone, getZones, lockOutZone, removeZone, saveZone } from '../zones/zones.service';
import { collectionMethod, defineCollection } from './registry';

/**
 * `zone`: a portal's places (features/zones): every member reads them (a basic user without lock
 * counts), admins write; `lockOut` locks out the zone (a lockout that follows its locks). Moving
 * locks stays on the REST routes (POST zone/{id}/devices). No `ls` yet: the zones table has no
 * change-log triggers (its migration shipped before the collections' change log).
 */
export const zoneCollection = defineCollection({
  name: 'zone',
  feature: 'zones',
  idKind: 'zoneId',
  record: zoneSchema,
  get: {
    access: 'member',
    summary: 'A zone (as GET portal/zone/{id})',
    handler: (caller, id) => getZone(caller.db, caller.portalId, id, caller.role === 'admin'),
  },
  list: {
    access: 'member',
    summary: 'Every zone, each parent before its sub-zones (as GET portal/zones)',
    filter: z.strictObject({}),
    handler: async (caller) => {
      const items = await getZones(caller.db, caller.portalId, caller.role === 'admin');
      return { items, total: items.length };
    },
  },
  create: {
    access: 'admin',
    summary: 'Create a zone (as POST portal/zone)',
    body: zoneInputSchema,
    example: { name: 'Collection zone', timeZone: 'Europe/Berlin' },
    answer: zoneSchema,
    handler: (caller, body) => createZone(caller.db, caller.change(), body),
  },
  save: {
    access: 'admin',
    summary: 'Change a zone (as POST portal/zone/{id})',
    body: zoneInputSchema,
    example: { name: 'Renamed zone', timeZone: 'UTC' },
    handler: (caller, id, body) => saveZone(caller.db, caller.change(), id, body),
  },
  remove: {
    access: 'admin',
    summary: 'Delete a zone: its locks become unzoned (as DELETE portal/zone/{id})',
    handler: (caller, id) => removeZone(caller.db, caller.change(), id),
  },
  methods: {
    lockOut: collectionMethod({
      access: 'admin',
      summary: 'Lock out a zone and its sub-zones (as POST zone/{id}/lockout)',
      body: zoneLockoutInputSchema,
      example: { name: 'Collection zone lockout', from: '2031-01-01T00:00:00Z' },
      answer: lockoutRecordSchema,
      status: 200,
      handler: (caller, id, body) => lockOutZone(caller.db, caller.change(), id, body),
    }),
  },
});
