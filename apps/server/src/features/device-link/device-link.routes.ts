import {
  deviceCommandRecordSchema,
  deviceCommandRequestSchema,
  deviceSyncSchema,
  idSchema,
  qrTokenSchema,
  syncCenterPageSchema,
  syncCenterQuerySchema,
  syncTokenRequestSchema,
  syncTokenSchema,
  userSyncSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  access,
  actingPortal,
  changeContext,
  requireSelfOrAdmin,
  signedIn,
  routesOfFeature,
} from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { assertMaySendCommand } from '../access/access.service';
import { errorResponses } from '../../base/http/responses';
import { getDeviceSync, getSyncCenter, getUserSync } from './credential-sync.service';
import { issueQrToken, issueSyncToken } from './phone-tokens.service';

const idParams = z.object({ id: idSchema });
const commandParams = idParams.extend({ commandId: idSchema });
const config = { access: access.portalAdmin };
const tags = ['device link'];

/** A lock's credential sync and remote commands (device protocol v1, docs/device-protocol.md). */
export const deviceLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'device-link');
  app.get(
    '/device/:id/sync',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "A lock's credential set: desired, sent and confirmed version, rejected entries, liveness",
        params: idParams,
        response: { 200: deviceSyncSchema, ...errorResponses },
      },
    },
    async (request) => getDeviceSync(app.db, actingPortal(request).portal.id, request.params.id),
  );

  app.post(
    '/device/:id/command',
    {
      // Admins command any lock; a basic user opens or locks one they may open right now.
      config: {
        access: access.portalMember,
        example: { body: { action: 'unlock' } },
        ids: { id: 'deviceId' },
      },
      schema: {
        tags,
        summary:
          'Unlock or lock remotely; the lock must act before expiresAt (poll the command for its answer). A lock not connected now: 409 lock_offline, nothing stored or sent. An admin unlocking during a lockout that does not let admins through: 409 lockout_in_effect',
        params: idParams,
        body: deviceCommandRequestSchema,
        response: { 202: deviceCommandRecordSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const acting = actingPortal(request);
      await assertMaySendCommand(
        app.db,
        acting.portal.id,
        request.params.id,
        { isAdmin: acting.role === 'admin', userId: signedIn(request).user.id },
        request.body.action,
        new Date(),
      );
      return reply
        .status(202)
        .send(await app.deviceLink.sendCommand(changeContext(request), request.params.id, request.body));
    },
  );

  app.get(
    '/device/:id/command/:commandId',
    {
      // A basic user follows the commands they sent; admins any.
      config: { access: access.portalMember, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'A remote command: pending, ok, failed (with the lock’s error) or expired',
        params: commandParams,
        response: { 200: deviceCommandRecordSchema, ...errorResponses },
      },
    },
    async (request) => {
      const acting = actingPortal(request);
      const command = await app.deviceLink.getCommand(
        acting.portal.id,
        request.params.id,
        request.params.commandId,
      );
      if (acting.role !== 'admin' && command.userId !== signedIn(request).user.id) {
        throw AppError.notFound('Command');
      }
      return command;
    },
  );

  app.get(
    '/portal/sync',
    {
      config,
      schema: {
        tags,
        summary:
          "The sync center: every lock's desired and confirmed credential set, pending and refused entries",
        querystring: syncCenterQuerySchema,
        response: { 200: syncCenterPageSchema, ...errorResponses },
      },
    },
    async (request) => getSyncCenter(app.db, actingPortal(request).portal.id, request.query),
  );

  app.get(
    '/user/:id/sync',
    {
      // A person may follow their own credentials; admins anyone's.
      config: { access: access.portalMember, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: "A person's credentials on each lock they reach: pending, sent, confirmed or refused",
        params: idParams,
        response: { 200: userSyncSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireSelfOrAdmin(request, request.params.id);
      return getUserSync(app.db, actingPortal(request).portal.id, request.params.id);
    },
  );

  app.post(
    '/user/qr',
    {
      // Only for oneself: a QR code opens doors as the person it names.
      config: { access: access.portalMember },
      schema: {
        tags,
        summary:
          'A QR code for the signed-in person to show at a lock: signed, single-use, valid for two minutes',
        response: { 200: qrTokenSchema, ...errorResponses },
      },
    },
    async (request) =>
      issueQrToken(app.deviceLink.signingKeys, actingPortal(request).portal.id, signedIn(request).user.id),
  );

  app.post(
    '/device/:id/synclock/user/token',
    {
      config: { access: access.portalMember, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary:
          "The caller's credentials on a lock, signed, for their phone to carry to the lock while it is offline",
        params: idParams,
        body: syncTokenRequestSchema,
        response: { 200: syncTokenSchema, ...errorResponses },
      },
    },
    async (request) =>
      issueSyncToken(
        app.db,
        app.deviceLink.signingKeys,
        changeContext(request),
        request.params.id,
        request.body,
      ),
  );
};
