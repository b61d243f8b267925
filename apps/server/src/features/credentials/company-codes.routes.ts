import { companyCodeInputSchema, companyCodeSchema, idSchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { createCompanyCode, deleteCompanyCode, listCompanyCodes } from './company-codes.service';

const config = { access: access.portalAdmin };
const tags = ['company codes'];

/** Company codes: portal-wide access codes not tied to a person (brief §7 Portal). */
export const companyCodeRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'credentials');
  app.get(
    '/portal/code/company',
    {
      config,
      schema: {
        tags,
        summary: "The portal's company codes, newest first",
        response: { 200: z.array(companyCodeSchema), ...errorResponses },
      },
    },
    async (request) => listCompanyCodes(app.db, actingPortal(request).portal.id),
  );
  app.post(
    '/portal/code/company',
    {
      config,
      schema: {
        tags,
        summary: 'Add a company code; it opens every keypad lock of the portal',
        body: companyCodeInputSchema,
        response: { 201: companyCodeSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createCompanyCode(app.db, changeContext(request), request.body)),
  );
  app.delete(
    '/portal/code/company/:id',
    {
      config: { ...config, ids: { id: 'companyCodeId' } },
      schema: {
        tags,
        summary: 'Retire a company code',
        params: z.object({ id: idSchema }),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteCompanyCode(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
