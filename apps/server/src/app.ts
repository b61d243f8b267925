import fastifyCompress from '@fastify/compress';
import { API_BASE_PATH } from '@latchkey/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { logFormatOf, publicUrlOf, type Config } from './config';
import { openDatabase, type Database, type DialectName } from './db/database';
import { migrateToLatest } from './db/migrate';
import { aboutRoutes } from './features/about/about.routes';
import { contentRoutes } from './features/content/content.routes';
import { registerAlerts } from './features/alerts/alerts.plugin';
import { registerPaymentNotices } from './features/alerts/payment-notices';
import { alertRoutes } from './features/alerts/alerts.routes';
import { accessRoutes } from './features/access/access.routes';
import { auditRoutes } from './features/audit/audit.routes';
import { AuthLimits } from './features/auth/auth-limits';
import { RateLimitStore } from './base/rate-limits/rate-limiters';
import { authRoutes } from './features/auth/auth.routes';
import { supportSessionRoutes } from './features/auth/support-session.routes';
import { twoFactorRoutes } from './features/auth/two-factor.routes';
import { devMailboxTransport, MailSender, smtpTransport } from './base/mail/mail-sender';
import { MailThrottle } from './base/mail/mail-throttle';
import { mailRoutes } from './features/mail/mail.routes';
import { devToolsRoutes } from './features/dev-tools/dev-tools.routes';
import { loadSecrets, type Secrets } from './features/auth/secrets';
import { registerDeviceLink } from './features/device-link/device-link.plugin';
import { deviceLinkRoutes } from './features/device-link/device-link.routes';
import type { DeviceLink } from './features/device-link/device-link.service';
import { deviceRoutes } from './features/devices/devices.routes';
import { groupRoutes } from './features/groups/groups.routes';
import { codeLockRoutes } from './features/credentials/code-locks.routes';
import { companyCodeRoutes } from './features/credentials/company-codes.routes';
import { fingerprintRoutes } from './features/credentials/fingerprints.routes';
import { keyRoutes } from './features/credentials/keys.routes';
import { rfidRoutes } from './features/credentials/rfid.routes';
import { eventRoutes } from './features/events/events.routes';
import { invitationRoutes } from './features/invitations/invitations.routes';
import { inviteRoutes } from './features/invites/invites.routes';
import { liveDeviceActivity } from './features/live/device-activity';
import { registerLive } from './features/live/live.plugin';
import { liveRoutes } from './features/live/live.routes';
import { lockoutRoutes } from './features/lockouts/lockouts.routes';
import { registerBillingCloser } from './features/billing/billing.plugin';
import { registerReportSchedules } from './features/reports/reports.plugin';
import { reportRoutes } from './features/reports/reports.routes';
import { billingRoutes } from './features/billing/billing.routes';
import { resellerRoutes } from './features/resellers/resellers.routes';
import { memberRoutes } from './features/members/members.routes';
import { dashboardRoutes } from './features/dashboard/dashboard.routes';
import { portalRoutes } from './features/portals/portal.routes';
import { registerPayments } from './features/payments/payments.plugin';
import { registerShop } from './features/shop/shop.plugin';
import { shopRoutes } from './features/shop/shop.routes';
import { registerSubscriptions } from './features/subscriptions/subscriptions.plugin';
import { subscriptionRoutes } from './features/subscriptions/subscriptions.routes';
import { listingRoutes } from './features/listings/listings.routes';
import { shareLockRoutes } from './features/sharelock/sharelock.routes';
import { registerRental } from './features/stays/stays.plugin';
import { registerCalendars } from './features/calendars/calendars.plugin';
import { registerReviews } from './features/reviews/reviews.plugin';
import { publicListingRoutes } from './features/public-listing/public-listing.routes';
import { stayRoutes } from './features/stays/stays.routes';
import { calendarRoutes } from './features/calendars/calendar.routes';
import { rentalCenterRoutes } from './features/rental-center/rental-center.routes';
import { reviewRoutes } from './features/reviews/reviews.routes';
import { searchRoutes } from './features/search/search.routes';
import { bulkAccessRoutes } from './features/bulk-access/bulk-access.routes';
import { platformRoutes } from './features/platform/platform.routes';
import { supportRoutes } from './features/support/support.routes';
import { registerPaymentWebhooks } from './features/webhooks/payment-webhooks';
import { registerWebhooks } from './features/webhooks/webhooks.plugin';
import { webhookRoutes } from './features/webhooks/webhooks.routes';
import { apiKeyRoutes } from './features/api-keys/api-keys.routes';
import { registerReaders } from './features/readers/readers.plugin';
import { readerRoutes } from './features/readers/readers.routes';
import { clientErrorRoutes } from './features/client-errors/client-errors.routes';
import { accessRequestRoutes } from './features/access-requests/access-requests.routes';
import { zoneRoutes } from './features/zones/zones.routes';
import { collectionRoutes } from './features/collections/collections.routes';
import { registerSupport } from './features/support/support.plugin';
import { registerAccessControl, type RegisteredRoute } from './base/http/access';
import { serializerCompiler } from './base/http/list-serializer';
import { answerFrameworkError, MAX_PARAM_LENGTH, registerErrorHandling } from './base/http/errors';
import { registerOpenApi } from './base/http/openapi';
import { registerApiNoStore, registerSecurityHeaders } from './base/http/security-headers';
import { isCompressibleType, registerBinaryAnswers } from './base/http/binary-answers';
import { registerQueryTextCheck } from './base/http/query-text';
import { registerSealedBodies } from './base/http/sealed-body';
import { registerSpa } from './base/http/spa';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    dialect: DialectName;
    secrets: Secrets;
    authLimits: AuthLimits;
    mail: MailSender;
    /** Limits on mail people send to others: pass it to sendMail('to-others', …) (base/mail/send-mail.ts). */
    mailThrottle: MailThrottle;
    /** Every API route with its declared access and feature: what the feature specs (test/specs) walk. */
    routeRegistry: RegisteredRoute[];
  }
}

/** Builds the whole server (database migrated, routes, SPA) without listening. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization'],
      // Pretty lines are formatted on pino's worker thread, so a request costs the same as with
      // JSON (docs/decisions.md, "Production start and logs"); JSON goes straight to stdout.
      ...(config.LOG_LEVEL !== 'silent' &&
        logFormatOf(config) === 'pretty' && {
          transport: {
            target: 'pino-pretty',
            // sync: the worker writes each line to stdout as it formats it, so once the logger has
            // flushed (the worker has caught up) every line is out: main.ts prints the start-up
            // summary after that and it comes last (asynchronous writes could land after it).
            options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true },
          },
        }),
    },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('dialect', database.dialect);
  const mail = new MailSender(
    database.db,
    config.SMTP_URL ? smtpTransport(config.SMTP_URL) : devMailboxTransport(app.log),
    config.MAIL_FROM,
    app.log,
    publicUrlOf(config),
  );
  app.decorate('mail', mail);
  let deviceLink: DeviceLink | null = null;
  app.addHook('onClose', async () => {
    // Locks go first: work in progress on their messages finishes before the database closes.
    await deviceLink?.close();
    await mail.stop(); // a send in progress finishes before the database closes
    await database.db.destroy();
  });
  const applied = await migrateToLatest(database.db);
  app.log.info({ database: database.description, applied }, 'database ready');
  mail.start(config.MAIL_POLL_MS);

  app.decorate(
    'secrets',
    loadSecrets({
      dataDir: config.DATA_DIR,
      jwtSecret: config.JWT_SECRET,
      sealSecretKey: config.SEAL_SECRET_KEY,
    }),
  );
  const limitStore = await RateLimitStore.open({
    redisUrl: config.REDIS_URL,
    signingKey: app.secrets.jwtKey,
    log: app.log,
  });
  app.addHook('onClose', () => limitStore.close());
  app.decorate(
    'authLimits',
    new AuthLimits(
      {
        loginPerIp: config.LOGIN_LIMIT_PER_IP,
        loginPerEmail: config.LOGIN_LIMIT_PER_EMAIL,
        signupPerIp: config.SIGNUP_LIMIT_PER_IP,
      },
      limitStore,
    ),
  );
  app.decorate(
    'mailThrottle',
    new MailThrottle(
      {
        perRecipientPerHour: config.MAIL_LIMIT_PER_RECIPIENT,
        perSenderPerHour: config.MAIL_LIMIT_PER_SENDER,
        perPortalPerDay: config.MAIL_LIMIT_PER_PORTAL,
      },
      limitStore,
    ),
  );

  try {
    deviceLink = await registerDeviceLink(app, config);
  } catch (error) {
    // Start-up stops here (a taken MQTT_PORT): close what is open so the process can exit.
    await mail.stop();
    await limitStore.close();
    await database.db.destroy();
    throw error;
  }
  // The locks go before the live channel closes its Redis connections (its preClose, added
  // later): the events a closing server still stores reach other servers' browsers too.
  const closingLink = deviceLink;
  app.addHook('preClose', () => closingLink.close());

  registerErrorHandling(app, API_BASE_PATH);
  registerQueryTextCheck(app, API_BASE_PATH);
  app.decorate(
    'routeRegistry',
    registerAccessControl(app, API_BASE_PATH, {
      store: limitStore,
      perMinute: config.API_KEY_LIMIT_PER_MINUTE,
    }),
  );
  registerSealedBodies(app);
  registerBinaryAnswers(app, API_BASE_PATH);
  await registerSecurityHeaders(app, config.CORS_ORIGINS, config.SESSION_RECORDER_URL);
  registerApiNoStore(app, API_BASE_PATH);
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], customTypes: isCompressibleType });
  await registerOpenApi(app, API_BASE_PATH);
  await registerLive(app, config);
  registerAlerts(app, config);
  registerRental(app, config, limitStore);
  registerSupport(app, config, limitStore);
  registerWebhooks(app, config);
  registerReaders(app, config);
  registerCalendars(app, config);
  registerReviews(app, config);
  await registerPayments(app, config);
  // What payments calls when a checkout is paid or ends, and on its sweep (payments-context.ts).
  registerSubscriptions(app);
  registerShop(app);
  registerBillingCloser(app, config);
  registerReportSchedules(app, config);
  // A declined renewal in the host's inbox: after the subscriptions' listener has its row.
  registerPaymentNotices(app);
  // payment.succeeded / failed and bill.closed to the portal's webhook endpoints.
  registerPaymentWebhooks(app);
  deviceLink.listen(liveDeviceActivity(app));

  await app.register(authRoutes, { prefix: API_BASE_PATH });
  await app.register(twoFactorRoutes, { prefix: API_BASE_PATH });
  await app.register(supportSessionRoutes, { prefix: API_BASE_PATH });
  await app.register(portalRoutes, { prefix: API_BASE_PATH });
  for (const routes of [
    deviceRoutes,
    codeLockRoutes,
    accessRoutes,
    memberRoutes,
    dashboardRoutes,
    groupRoutes,
    lockoutRoutes,
    alertRoutes,
    rfidRoutes,
    companyCodeRoutes,
    fingerprintRoutes,
    keyRoutes,
    inviteRoutes,
    invitationRoutes,
    eventRoutes,
    aboutRoutes,
    mailRoutes,
    auditRoutes,
    deviceLinkRoutes,
    liveRoutes,
    subscriptionRoutes,
    shopRoutes,
    billingRoutes,
    resellerRoutes,
    listingRoutes,
    publicListingRoutes,
    stayRoutes,
    shareLockRoutes,
    calendarRoutes,
    rentalCenterRoutes,
    reviewRoutes,
    searchRoutes,
    bulkAccessRoutes,
    platformRoutes,
    supportRoutes,
    webhookRoutes,
    accessRequestRoutes,
    zoneRoutes,
    reportRoutes,
    contentRoutes,
    apiKeyRoutes,
    readerRoutes,
    collectionRoutes,
  ]) {
    await app.register(routes, { prefix: API_BASE_PATH });
  }
  // The API console and the /test/api page's routes; the seal check counts on the rate limits.
  await app.register(devToolsRoutes, { prefix: API_BASE_PATH, limits: limitStore });
  // Client error reports: anyone may send one, so they are limited per address.
  await app.register(clientErrorRoutes, { prefix: API_BASE_PATH, limits: limitStore });

  const servesWeb = await registerSpa(app, config.WEB_DIST, API_BASE_PATH);
  if (!servesWeb)
    app.log.warn(
      { webDist: config.WEB_DIST },
      'no web build found: serving the API only (run npm run build)',
    );
  return app;
}
