import {
  CLIENT_ERROR_LIMITS,
  clientErrorDetailSchema,
  clientErrorListQuerySchema,
  clientErrorPageSchema,
  clientErrorReceiptSchema,
  clientErrorReportSchema,
  clientErrorUpdateSchema,
  idSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, routesOfFeature, signedIn } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { consume, type RateLimitStore } from '../../base/rate-limits/rate-limiters';
import {
  listErrorsForStaff,
  readErrorForStaff,
  reportClientError,
  updateErrorForStaff,
} from './client-errors.service';

/** Reports one address may send per minute (a page reports each error once per load). */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 30;
/** The largest report body: every field at its limit, and some room for the JSON around them. */
const REPORT_BODY_LIMIT = Object.values(CLIENT_ERROR_LIMITS).reduce((sum, n) => sum + n, 0) * 2 + 1024;

const tags = ['client errors'];
const ids = { id: 'clientErrorId' } as const;
const idParams = z.object({ id: idSchema });

/**
 * Client error reports (issue 21, the `error` collection): the web app's uncaught errors, reported
 * by anyone (signed in or not: the sign-in screen breaks too), for platform staff under system/.
 */
export const clientErrorRoutes: FastifyPluginAsyncZod<{ limits: RateLimitStore }> = async (app, options) => {
  routesOfFeature(app, 'client-errors');
  const perAddress = options.limits.limiter({
    keyPrefix: 'client-error-ip',
    points: CLIENT_ERROR_REPORTS_PER_MINUTE,
    duration: 60,
  });

  app.post(
    '/clientErrors',
    {
      config: {
        access: access.public,
        example: {
          body: {
            message: "TypeError: Cannot read properties of undefined (reading 'name')",
            stack: 'TypeError: x\n    at LockPage (https://app.example/assets/lock-page.js:12:34)',
            route: '/app/device/1',
            build: '1.0.0',
            userAgent: 'Mozilla/5.0',
          },
        },
      },
      bodyLimit: REPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Report an uncaught error of the web app (anyone; limited per address)',
        description: `Counted on its fingerprint (message, top stack frame, build): the same error again adds one to its count. At most ${CLIENT_ERROR_REPORTS_PER_MINUTE} reports per address and minute (429).`,
        body: clientErrorReportSchema,
        response: { 202: clientErrorReceiptSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await consume(perAddress, request.ip);
      return reply.status(202).send(await reportClientError(app.db, request.body));
    },
  );

  app.get(
    '/system/errors',
    {
      config: { access: access.platform },
      schema: {
        tags,
        summary: 'Client error reports, the most recently seen first (platform staff)',
        querystring: clientErrorListQuerySchema,
        response: { 200: clientErrorPageSchema, ...errorResponses },
      },
    },
    async (request) => listErrorsForStaff(app.db, request.query),
  );

  app.get(
    '/system/errors/:id',
    {
      config: { access: access.platform, ids },
      schema: {
        tags,
        summary: 'One client error report with its stack (platform staff)',
        params: idParams,
        response: { 200: clientErrorDetailSchema, ...errorResponses },
      },
    },
    async (request) => readErrorForStaff(app.db, request.params.id),
  );

  app.post(
    '/system/errors/:id',
    {
      config: { access: access.platform, ids, example: { body: { status: 'resolved' } } },
      schema: {
        tags,
        summary: 'Mark a client error resolved, or open again (platform staff; in the platform change log)',
        params: idParams,
        body: clientErrorUpdateSchema,
        response: { 200: clientErrorDetailSchema, ...errorResponses },
      },
    },
    async (request) =>
      updateErrorForStaff(
        app.db,
        { userId: signedIn(request).user.id, ip: request.ip },
        request.params.id,
        request.body,
      ),
  );
};
