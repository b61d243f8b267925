import { resellerCustomerSchema } from '@latchkey/shared';
import { z } from 'zod';
import { AppError } from '../../base/http/errors';
import { getResellerAccount } from '../resellers/resellers.service';
import { defineAccountCollection } from './registry';

/**
 * `reseller`: the customers of the signed-in person's reseller account (features/resellers), the
 * portals linked to it now, as GET reseller lists them. They are the person's own account's, in no
 * portal, so it is an account collection: any signed-in person calls it, and someone without a
 * reseller account gets the REST routes' 404; no API key calls it (a key acts in one portal).
 * `{id}` is the customer portal's id; a portal that is not this reseller's customer is a 404.
 * Read only: a reseller opens their account with POST reseller/new and adds a customer with POST
 * reseller/customer (REST routes, they answer the account and the customer, not a record of this
 * collection); the customer, not the reseller, links or unlinks their portal. No `ls`: the change
 * log is per portal.
 */
export const resellerCollection = defineAccountCollection({
  name: 'reseller',
  feature: 'resellers',
  idKind: 'portalId',
  record: resellerCustomerSchema,
  get: {
    summary: "One customer portal of the signed-in person's reseller account (as in GET reseller)",
    handler: async (caller, id) => {
      const { customers } = await getResellerAccount(caller.db, caller.user.id);
      const customer = customers.find((candidate) => candidate.portalId === id);
      if (!customer) throw AppError.notFound('Customer');
      return customer;
    },
  },
  list: {
    summary: "The customers of the signed-in person's reseller account, by name (as GET reseller)",
    filter: z.strictObject({}),
    handler: async (caller) => {
      const { customers } = await getResellerAccount(caller.db, caller.user.id);
      return { items: customers, total: customers.length };
    },
  },
});
