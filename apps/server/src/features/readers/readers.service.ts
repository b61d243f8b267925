import crypto from 'node:crypto';
import {
  ENROLLMENT_SECONDS,
  enrollResultSchema,
  fingerprintCreateSchema,
  readerReads,
  readerStatusSchema,
  rfidUidSchema,
  type Enrollment,
  type EnrollmentStart,
  type EnrollResult,
  type Reader,
  type ReaderCreate,
  type ReaderPaired,
  type ReaderUpdate,
} from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import { recordChange } from '../../base/audit/audit.repository';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { findMember } from '../../base/tenancy/memberships.repository';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { ReaderRow } from '../../db/schema';
import { hashDeviceSecret } from '../devices/devices.service';
import type { DeviceTransport, ReaderGate, ReaderMessage } from '../device-link/device-transport';
import {
  cancelEnrollment,
  completeEnrollment,
  deleteReader,
  findEnrollment,
  findReader,
  findReaderById,
  insertEnrollment,
  insertReader,
  listEnrollments,
  listReaders,
  recordReaderStatus,
  updateReader,
  type EnrollmentWithReader,
} from './readers.repository';

/** A template id as a fingerprint record takes it (fingerprintCreateSchema's templateId). */
const templateIdSchema = fingerprintCreateSchema.shape.templateId;

function sameHash(stored: string, secret: string): boolean {
  const given = Buffer.from(hashDeviceSecret(secret));
  const expected = Buffer.from(stored);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export function toEnrollment(row: EnrollmentWithReader, now = new Date()): Enrollment {
  const expiresAt = toIso(row.expires_at);
  const expired = row.state === 'waiting' && new Date(expiresAt) <= now;
  return {
    _id: row.id,
    reader: { _id: row.reader_id, name: row.reader_name },
    kind: row.kind,
    userId: row.user_id,
    state: expired ? 'expired' : (row.state as Enrollment['state']),
    value: row.value,
    error: row.error,
    expiresAt,
    createdAt: toIso(row.created_at),
    completedAt: toIso(row.completed_at),
  };
}

/**
 * Enrollment readers (docs/decisions.md "Enrollment readers"): pairing, the reader's status over the
 * broker, and enrollments (a request sent to the reader, answered by its `enroll/result`, read by the
 * waiting screen by polling GET portal/reader-enrollment/{id}).
 */
export class Readers implements ReaderGate {
  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly transport: DeviceTransport,
    /** A reader silent this long is offline, whatever it said last (MQTT_HEARTBEAT_S). */
    private readonly silenceSeconds: number,
  ) {}

  /** Whether this server's broker takes readers (the embedded one does; an external one does not yet). */
  get available(): boolean {
    return typeof this.transport.attachReaders === 'function';
  }

  toReader(row: ReaderRow, now = new Date()): Reader {
    const lastSeenAt = toIso(row.last_seen_at);
    const recent =
      lastSeenAt !== null && now.getTime() - new Date(lastSeenAt).getTime() <= this.silenceSeconds * 1000;
    return {
      _id: row.id,
      name: row.name,
      kind: row.kind,
      online: Number(row.online) === 1 && recent,
      lastSeenAt,
      firmware: row.firmware,
      createdAt: toIso(row.created_at),
    };
  }

  async list(portalId: string) {
    const rows = await listReaders(this.db, portalId);
    const now = new Date();
    return { items: rows.map((row) => this.toReader(row, now)), total: rows.length };
  }

  async get(portalId: string, readerId: string): Promise<Reader> {
    return this.toReader(await this.require(portalId, readerId));
  }

  private async require(portalId: string, readerId: string): Promise<ReaderRow> {
    const row = await findReader(this.db, portalId, readerId);
    if (!row) throw AppError.notFound('Reader');
    return row;
  }

  /** Pairs a reader: its id and secret (this once; stored hashed, like a lock's). */
  async pair(context: ChangeContext, input: Required<ReaderCreate>): Promise<ReaderPaired> {
    const secret = crypto.randomBytes(32).toString('base64url');
    const id = crypto.randomUUID();
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await insertReader(trx, {
        id,
        portal_id: context.portalId,
        name: input.name,
        kind: input.kind,
        secret_hash: hashDeviceSecret(secret),
        created_at: now,
        updated_at: now,
      });
      await recordChange(trx, context, {
        action: 'reader.pair',
        entityType: 'reader',
        entityId: id,
        after: { name: input.name, kind: input.kind },
      });
    });
    return { reader: await this.get(context.portalId, id), secret, brokerUrl: this.transport.url };
  }

  async rename(context: ChangeContext, readerId: string, input: ReaderUpdate): Promise<Reader> {
    await this.db.transaction().execute(async (trx) => {
      const before = await findReader(trx, context.portalId, readerId);
      if (!before) throw AppError.notFound('Reader');
      const kind = input.kind ?? before.kind;
      await updateReader(trx, context.portalId, readerId, { name: input.name, kind, updated_at: nowIso() });
      await recordChange(trx, context, {
        action: 'reader.update',
        entityType: 'reader',
        entityId: readerId,
        before: { name: before.name, kind: before.kind },
        after: { name: input.name, kind },
      });
    });
    return this.get(context.portalId, readerId);
  }

  /** Unpairs a reader: its secret stops working and its connection ends now. */
  async remove(context: ChangeContext, readerId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await findReader(trx, context.portalId, readerId);
      if (!before) throw AppError.notFound('Reader');
      await deleteReader(trx, context.portalId, readerId);
      await recordChange(trx, context, {
        action: 'reader.delete',
        entityType: 'reader',
        entityId: readerId,
        before: { name: before.name, kind: before.kind },
      });
    });
    this.transport.disconnectReader?.(readerId);
  }

  /**
   * Asks a reader for a card or a finger for one of the portal's people: stored as waiting with an
   * expiry, then sent (QoS 1, not retained: a reader that is not connected would get it too late).
   */
  async startEnrollment(
    context: ChangeContext,
    readerId: string,
    input: EnrollmentStart,
  ): Promise<Enrollment> {
    const reader = await this.require(context.portalId, readerId);
    if (!readerReads(reader.kind, input.kind)) {
      const message =
        input.kind === 'rfid' ? 'this reader reads no cards' : 'this reader reads no fingerprints';
      throw AppError.badRequest(`kind: ${message}`, [{ path: 'body.kind', message }]);
    }
    if (!(await findMember(this.db, context.portalId, input.userId))) throw AppError.notFound('Person');
    if (!this.toReader(reader).online) {
      throw AppError.conflict(`${reader.name} is offline: start the reader, then try again`);
    }
    const id = crypto.randomUUID();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ENROLLMENT_SECONDS * 1000).toISOString();
    await this.db.transaction().execute(async (trx) => {
      await insertEnrollment(trx, {
        id,
        portal_id: context.portalId,
        reader_id: readerId,
        kind: input.kind,
        user_id: input.userId,
        state: 'waiting',
        // An API key is no stored person: the change log names the key (apiKeyId) instead.
        created_by: context.apiKeyId ? null : context.actorUserId,
        expires_at: expiresAt,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      await recordChange(trx, context, {
        action: 'reader.enroll',
        entityType: 'reader',
        entityId: readerId,
        userId: input.userId,
        after: { enrollmentId: id, kind: input.kind },
      });
    });
    await this.send(readerId, 'enroll', JSON.stringify({ requestId: id, kind: input.kind, expiresAt }));
    return this.getEnrollment(context.portalId, id);
  }

  async getEnrollment(portalId: string, enrollmentId: string): Promise<Enrollment> {
    const row = await findEnrollment(this.db, portalId, enrollmentId);
    if (!row) throw AppError.notFound('Enrollment');
    return toEnrollment(row);
  }

  async listEnrollments(
    portalId: string,
    filter: { userId?: string; kind?: 'rfid' | 'fingerprint'; limit: number },
  ) {
    const rows = await listEnrollments(this.db, portalId, filter);
    const now = new Date();
    return rows.map((row) => toEnrollment(row, now));
  }

  /** The admin gives up waiting; the reader is told to stop. Cancelling an ended one changes nothing. */
  async cancelEnrollment(context: ChangeContext, enrollmentId: string): Promise<Enrollment> {
    const row = await findEnrollment(this.db, context.portalId, enrollmentId);
    if (!row) throw AppError.notFound('Enrollment');
    const cancelled = await cancelEnrollment(this.db, context.portalId, enrollmentId, nowIso());
    if (cancelled > 0) {
      await recordChange(this.db, context, {
        action: 'reader.enroll.cancel',
        entityType: 'reader',
        entityId: row.reader_id,
        userId: row.user_id,
        after: { enrollmentId },
      });
      await this.send(row.reader_id, 'enroll/cancel', JSON.stringify({ requestId: enrollmentId }));
    }
    return this.getEnrollment(context.portalId, enrollmentId);
  }

  private async send(readerId: string, topic: 'enroll' | 'enroll/cancel', payload: string): Promise<void> {
    if (!this.transport.publishToReader) {
      throw AppError.conflict(
        'Readers need the embedded broker: this server uses an external one (MQTT_URL)',
      );
    }
    await this.transport.publishToReader(readerId, topic, payload);
  }

  // The broker's side (ReaderGate).

  async authenticate(readerId: string, secret: string): Promise<boolean> {
    const reader = await findReaderById(this.db, readerId);
    return reader !== undefined && sameHash(reader.secret_hash, secret);
  }

  async handle(message: ReaderMessage): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(message.payload.toString('utf8'));
    } catch {
      this.log.warn(
        { readerId: message.readerId, topic: message.topic },
        'reader: payload is not JSON; ignored',
      );
      return;
    }
    if (message.topic === 'status') {
      const status = readerStatusSchema.safeParse(json);
      if (!status.success) {
        this.log.warn({ readerId: message.readerId }, 'reader: invalid status; ignored');
        return;
      }
      // A last will from a connection a reconnect has already replaced says nothing.
      if (!status.data.online && message.otherLiveConnection) return;
      await recordReaderStatus(this.db, message.readerId, {
        online: status.data.online,
        firmware: status.data.online ? status.data.firmware : undefined,
        at: nowIso(),
      });
      return;
    }
    const result = enrollResultSchema.safeParse(json);
    if (!result.success) {
      this.log.warn({ readerId: message.readerId }, 'reader: invalid enroll/result; ignored');
      return;
    }
    await this.takeResult(message.readerId, result.data);
  }

  /** The first answer to a waiting, unexpired request of this reader; anything else is ignored. */
  private async takeResult(readerId: string, result: EnrollResult): Promise<void> {
    const at = nowIso();
    await recordReaderStatus(this.db, readerId, { online: true, at });
    let outcome: { state: 'read' | 'failed'; value: string | null; error: string | null };
    if (!result.ok) outcome = { state: 'failed', value: null, error: result.error };
    else {
      const value = (result.kind === 'rfid' ? rfidUidSchema : templateIdSchema).safeParse(result.value);
      outcome = value.success
        ? { state: 'read', value: value.data, error: null }
        : { state: 'failed', value: null, error: 'unreadable' };
    }
    const taken = await completeEnrollment(
      this.db,
      readerId,
      result.requestId,
      { ...outcome, at },
      result.ok ? result.kind : null,
    );
    if (taken === 0) {
      this.log.info(
        { readerId, requestId: result.requestId },
        'reader: an answer to an unknown, expired, answered or foreign request; ignored',
      );
    }
  }
}
