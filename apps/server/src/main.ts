import { buildApp } from './app';
import {
  ConfigError,
  listenUrlOf,
  loadConfig,
  lockBrokerUrlOf,
  logFormatOf,
  logLevelOf,
  publicUrlMismatch,
  publicUrlOf,
} from './config';
import { saveDemoLockSecrets, startDemoLocks } from './demo/demo-locks';
import { seedDemoPortal } from './demo/seed-demo';
import { BrokerStartError } from './features/device-link/device-transport';
import { demoSignIns, startupSummary } from './startup-summary';

/** Starts the portal: configuration, server, demo data on first start, graceful shutdown. */
async function main(): Promise<void> {
  // Since the process started (performance's time origin): loading the code, then building the app.
  const modulesLoadedMs = Math.round(performance.now());
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // At a terminal, unless LOG_LEVEL says otherwise, only warnings before the summary block below.
  config = { ...config, LOG_LEVEL: logLevelOf(config) };

  let app;
  try {
    app = await buildApp(config);
  } catch (error) {
    if (error instanceof BrokerStartError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (config.DEMO_DATA) {
    const connectedLocks = await seedDemoPortal(
      app.db,
      app.log,
      { publicUrl: publicUrlOf(config), throttle: app.mailThrottle },
      { ...app.rental, ical: app.ical, supportImages: app.support.images },
    );
    if (connectedLocks) await saveDemoLockSecrets(config.DATA_DIR, connectedLocks);
  }
  // The demo's simulated locks log in to the embedded broker. With MQTT_URL that address is the
  // servers' own listener, where locks cannot log in, and the broker knows a lock only once its
  // files are exported: the cluster command plays them on the locks' listener instead.
  if (config.DEMO_LOCKS && config.MQTT_URL) {
    app.log.info(
      "DEMO_LOCKS: the demo's simulated locks run with the embedded broker only, so they stay off with MQTT_URL (npm run cluster runs them against Mosquitto's locks' listener; DEMO_LOCKS=false silences this line)",
    );
  }
  const demoLocks =
    config.DEMO_LOCKS && !config.MQTT_URL
      ? await startDemoLocks(app.deviceLink.transport.url, config.DATA_DIR, app.log)
      : null;
  // DEMO_ZWAVE: two simulated Z-Wave locks behind the Z-Wave bridge (docs/bridges/zwave.md).
  const demoZWave =
    config.DEMO_ZWAVE && !config.MQTT_URL
      ? await (
          await import('./demo/demo-zwave')
        ).startDemoZWave(app.db, app.deviceLink.transport.url, config.DATA_DIR, app.log)
      : null;

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking requests, let those in flight finish, close the database; force after 10 s.
    const force = setTimeout(() => {
      app.log.error(
        { waitingOn: process.getActiveResourcesInfo() },
        'shutdown did not finish within 10 s; stopping anyway',
      );
      process.exit(1);
    }, 10_000);
    force.unref();
    // Closing closes the connections idle at that moment; one whose request was still running
    // stays open after its answer, kept alive by the client (fastify's keep-alive timeout is 72 s).
    // Two seconds after closing began every answer is out: end such connections then.
    const lingering = setTimeout(() => app.server.closeAllConnections(), 2_000);
    lingering.unref();
    // The simulated locks leave first (their last will marks them offline), then the server.
    (demoLocks ? demoLocks.stop() : Promise.resolve())
      .then(() => demoZWave?.stop())
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') app.log.fatal(`port ${config.PORT} is taken; set PORT to a free one`);
    else app.log.fatal({ err: error }, 'could not start');
    await app.close();
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  // CPU time to here: on a busy machine, what the start itself cost.
  const cpu = process.cpuUsage();
  app.log.info(
    {
      port,
      modulesLoadedMs,
      startedMs: Math.round(performance.now()),
      startCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    },
    `Latchkey is running at ${config.PUBLIC_URL ? `${publicUrlOf(config)} (listening at ${listenUrlOf(config, port)})` : listenUrlOf(config, port)}`,
  );
  const mismatch = publicUrlMismatch(config, port);
  if (mismatch) app.log.warn(mismatch);

  // A person at a terminal: the address, where locks connect and the demo's sign-ins, last and in
  // a few lines. Written once the log's worker thread has written what came before, so nothing
  // lands after it. JSON logs (a collector, the tests) have all of it in the records above.
  if (logFormatOf(config) === 'pretty') {
    const summary = startupSummary({
      url: config.PUBLIC_URL ? publicUrlOf(config) : listenUrlOf(config, port),
      listening: config.PUBLIC_URL ? listenUrlOf(config, port) : null,
      lockBrokerUrl: lockBrokerUrlOf(config, app.deviceLink.transport.url),
      signIns: config.DEMO_DATA ? await demoSignIns(app.db) : [],
    });
    // Fastify's logger type leaves out pino's flush, which the pretty transport's stream has.
    const logger = app.log as typeof app.log & { flush(done: () => void): void };
    logger.flush(() => process.stdout.write(summary));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
