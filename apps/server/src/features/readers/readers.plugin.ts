import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { Readers } from './readers.service';

declare module 'fastify' {
  interface FastifyInstance {
    readers: Readers;
  }
}

/**
 * Enrollment readers log in to the device link's broker (the embedded one; an external broker's
 * logins are Mosquitto's files, which list locks only) and their messages come here.
 */
export function registerReaders(app: FastifyInstance, config: Config): void {
  const transport = app.deviceLink.transport;
  const readers = new Readers(app.db, app.log, transport, config.MQTT_HEARTBEAT_S);
  transport.attachReaders?.(readers);
  app.decorate('readers', readers);
}
