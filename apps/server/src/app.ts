import fastifyCompress from '@fastify/compress';
import { API_BASE_PATH } from '@latchkey/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { openDatabase, type Database, type DialectName } from './db/database';
import { migrateToLatest } from './db/migrate';
import { accessRoutes } from './features/access/access.routes';
import { auditRoutes } from './features/audit/audit.routes';
import { AuthLimits } from './features/auth/auth-limits';
import { authRoutes } from './features/auth/auth.routes';
import { loadSecrets, type Secrets } from './features/auth/secrets';
import { deviceRoutes } from './features/devices/devices.routes';
import { groupRoutes } from './features/groups/groups.routes';
import { rfidRoutes } from './features/credentials/rfid.routes';
import { lockoutRoutes } from './features/lockouts/lockouts.routes';
import { memberRoutes } from './features/members/members.routes';
import { portalRoutes } from './features/portals/portal.routes';
import { registerAccessControl, type RegisteredRoute } from './http/access';
import { registerErrorHandling } from './http/errors';
import { registerOpenApi } from './http/openapi';
import { registerSealedBodies } from './http/sealed-body';
import { registerSpa } from './http/spa';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    dialect: DialectName;
    secrets: Secrets;
    authLimits: AuthLimits;
    /** Every API route with its declared access: what the isolation tests walk. */
    routeRegistry: RegisteredRoute[];
  }
}

/** Builds the whole server (database migrated, routes, SPA) without listening. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization'],
      ...(config.LOG_PRETTY && { transport: { target: 'pino-pretty', options: { colorize: true } } }),
    },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('dialect', database.dialect);
  app.addHook('onClose', async () => database.db.destroy());
  const applied = await migrateToLatest(database.db);
  app.log.info({ database: database.description, applied }, 'database ready');

  app.decorate(
    'secrets',
    loadSecrets({
      dataDir: config.DATA_DIR,
      jwtSecret: config.JWT_SECRET,
      sealSecretKey: config.SEAL_SECRET_KEY,
    }),
  );
  app.decorate(
    'authLimits',
    new AuthLimits({
      loginPerIp: config.LOGIN_LIMIT_PER_IP,
      loginPerEmail: config.LOGIN_LIMIT_PER_EMAIL,
      signupPerIp: config.SIGNUP_LIMIT_PER_IP,
    }),
  );

  registerErrorHandling(app, API_BASE_PATH);
  app.decorate('routeRegistry', registerAccessControl(app, API_BASE_PATH));
  registerSealedBodies(app);
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'] });
  await registerOpenApi(app, API_BASE_PATH);

  await app.register(authRoutes, { prefix: API_BASE_PATH });
  await app.register(portalRoutes, { prefix: API_BASE_PATH });
  for (const routes of [
    deviceRoutes,
    accessRoutes,
    memberRoutes,
    groupRoutes,
    lockoutRoutes,
    rfidRoutes,
    auditRoutes,
  ]) {
    await app.register(routes, { prefix: API_BASE_PATH });
  }

  const servesWeb = await registerSpa(app, config.WEB_DIST, API_BASE_PATH);
  if (!servesWeb)
    app.log.warn(
      { webDist: config.WEB_DIST },
      'no web build found: serving the API only (run npm run build)',
    );
  return app;
}
