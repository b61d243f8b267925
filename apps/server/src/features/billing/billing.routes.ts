import {
  BRANDS,
  DEFAULT_BRAND,
  billingOverviewSchema,
  billingPotentialSchema,
  billingProfileInputSchema,
  billingProfileSchema,
  billMonthParamsSchema,
  billSchema,
  idSchema,
  pastBillsSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { brandOfPortal } from '../../base/tenancy/portal-brand';
import { billPdf, billPdfFileName } from './bill-pdf';
import {
  getBillingOverview,
  getBillingPotential,
  getClosedBill,
  getMonthBill,
  getPastBills,
  issuerOf,
  updateBillingProfile,
} from './billing.service';

// A portal's bills are its admins' business (docs/decisions.md "Commerce and billing"): a basic
// user of someone else's portal sees no money; a person's own portal makes them its admin anyway.
const config = { access: access.portalAdmin };
const tags = ['billing'];
const idParams = z.object({ id: idSchema });

/** Bills, invoices and billing details of the acting portal (issue 13 item 3). */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'billing');
  const issuer = issuerOf(app.config);
  const portalId = (request: Parameters<typeof actingPortal>[0]) => actingPortal(request).portal.id;

  app.get(
    '/portal/billing',
    {
      config,
      schema: {
        tags,
        summary: "The portal's plan, billing details, reseller, this month so far and recent bills",
        response: { 200: billingOverviewSchema, ...errorResponses },
      },
    },
    async (request) => getBillingOverview(app.db, issuer, portalId(request), signedIn(request).user.id),
  );

  app.get(
    '/portal/billingPotential',
    {
      config,
      schema: {
        tags,
        summary: 'This month so far, and projected to its end with today’s locks and plan',
        response: { 200: billingPotentialSchema, ...errorResponses },
      },
    },
    async (request) => getBillingPotential(app.db, issuer, portalId(request)),
  );

  app.get(
    '/portal/billing/pastBills',
    {
      config,
      schema: {
        tags,
        summary: 'The closed bills, newest first',
        response: { 200: pastBillsSchema, ...errorResponses },
      },
    },
    async (request) => getPastBills(app.db, portalId(request)),
  );

  app.get(
    '/portal/billing/:year/:month',
    {
      config,
      schema: {
        tags,
        summary: "A month's bill: as issued once closed, so far while it runs",
        params: billMonthParamsSchema,
        response: { 200: billSchema, ...errorResponses },
      },
    },
    async (request) =>
      getMonthBill(app.db, issuer, portalId(request), request.params.year, request.params.month),
  );

  app.get(
    '/portal/billing/bill/:id',
    {
      config: { ...config, ids: { id: 'billId' } },
      schema: {
        tags,
        summary: 'A closed bill (invoice) by id, for the print layout',
        params: idParams,
        response: { 200: billSchema, ...errorResponses },
      },
    },
    async (request) => getClosedBill(app.db, portalId(request), request.params.id),
  );

  app.get(
    '/portal/billing/bill/:id/pdf',
    {
      config: { ...config, ids: { id: 'billId' } },
      schema: {
        tags,
        summary: 'A closed bill (invoice) as a PDF',
        params: idParams,
        produces: ['application/pdf'],
        response: { 200: z.string().describe('The invoice as PDF'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const bill = await getClosedBill(app.db, portalId(request), request.params.id);
      const brand = await brandOfPortal(app.db, portalId(request));
      const pdf = await billPdf(bill, BRANDS[brand ?? DEFAULT_BRAND]);
      return (
        reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${billPdfFileName(bill)}"`)
          // Bytes go out as they are; the schema (a string) only documents the answer.
          .send(pdf as unknown as string)
      );
    },
  );

  app.post(
    '/portal/billing/profile',
    {
      config,
      schema: {
        tags,
        summary: 'Save the billing details (the buyer on bills not closed yet)',
        body: billingProfileInputSchema,
        response: { 200: billingProfileSchema, ...errorResponses },
      },
    },
    async (request) => updateBillingProfile(app.db, changeContext(request), request.body),
  );
};
