import { codeLockCreateSchema, deviceCreatedSchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { lockAllowanceOf } from '../subscriptions/plan-allowance';
import { keepQuantityInStep } from '../subscriptions/subscription-upkeep';
import { createCodeLock } from './code-locks.service';

/** Code locks: a keypad-only lock added with its master code (brief §7 Devices). */
export const codeLockRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'credentials');
  app.post(
    '/device/codelock/add',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags: ['devices'],
        summary: 'Add a keypad-only code lock with its master code; answers its device secret this once',
        body: codeLockCreateSchema,
        response: { 201: deviceCreatedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const context = changeContext(request);
      const created = await createCodeLock(app.db, context, request.body, lockAllowanceOf(app.config));
      await keepQuantityInStep(app.db, app.payments, context.portalId);
      return reply.status(201).send(created);
    },
  );
};
