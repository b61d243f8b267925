import type net from 'node:net';
import { Duplex, Transform, type TransformCallback } from 'node:stream';
import { RateLimiterMemory } from 'rate-limiter-flexible';

/** A packet announced larger than the broker takes: the connection ends before its body is read. */
export class PacketTooLargeError extends Error {}

/** MQTT's remaining length takes at most four bytes (MQTT 3.1.1 §2.2.3). */
const MAX_LENGTH_BYTES = 4;

/**
 * Passes a connection's bytes through unchanged while following MQTT's fixed headers (a type byte,
 * then the remaining length), and fails on a packet whose announced size is over the limit, so no
 * parser ever buffers it. The first packet, the CONNECT, has its own, smaller limit: nothing larger
 * reaches the broker before the sender has proved who it is.
 */
export class PacketSizeLimit extends Transform {
  /** The fixed header read so far of the packet that starts next. */
  private header: number[] = [];
  /** Body bytes of the current packet still to pass. */
  private remaining = 0;
  private packets = 0;

  constructor(private readonly limits: { connectBytes: number; packetBytes: number }) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const skipped = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= skipped;
        offset += skipped;
        continue;
      }
      const byte = chunk[offset++]!;
      this.header.push(byte);
      // The type byte, then length bytes while their continuation bit is set.
      if (this.header.length === 1 || (byte & 0x80) !== 0) {
        if (this.header.length > MAX_LENGTH_BYTES) return done(new PacketTooLargeError('malformed length'));
        continue;
      }
      let length = 0;
      for (let i = this.header.length - 1; i >= 1; i--) length = length * 128 + (this.header[i]! & 0x7f);
      const limit = this.packets === 0 ? this.limits.connectBytes : this.limits.packetBytes;
      const size = this.header.length + length;
      if (size > limit) {
        return done(new PacketTooLargeError(`a packet of ${size} bytes is over the limit of ${limit}`));
      }
      this.packets++;
      this.remaining = length;
      this.header = [];
    }
    done(null, chunk);
  }
}

/**
 * The connection as the broker should see it: reads come through a PacketSizeLimit, writes go
 * straight to the socket, and ending either side ends both (an oversized packet destroys the
 * socket). Node's Duplex.from leaves the socket open when the reading side fails, hence this class.
 */
export class SizeLimitedConnection extends Duplex {
  private readonly reader: PacketSizeLimit;

  constructor(
    private readonly socket: net.Socket,
    limits: { connectBytes: number; packetBytes: number },
  ) {
    super();
    this.reader = new PacketSizeLimit(limits);
    socket.pipe(this.reader);
    this.reader.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) this.reader.pause();
    });
    this.reader.on('end', () => this.push(null));
    this.reader.on('error', (error) => this.destroy(error));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => this.destroy());
    socket.on('drain', () => this.emit('drain'));
  }

  override _read(): void {
    this.reader.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.socket.write(chunk, encoding, done);
  }

  /**
   * The broker corks this stream while it writes a packet in several pieces (header, topic, id,
   * payload): hand them to the socket as one write, one system call, not one per piece.
   */
  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    done: (error?: Error | null) => void,
  ): void {
    this.socket.write(Buffer.concat(chunks.map(({ chunk }) => chunk)), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.socket.end(done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.reader.destroy();
    this.socket.destroy();
    done(error);
  }
}

/** Why a failed login is logged, or not: the first of an address's minute, the one that blocks it. */
export type FailureNotice = 'first' | 'blocking' | 'quiet';

/**
 * Per remote address: how many connections it holds (at most `maxConnections`) and how many logins
 * it failed within a minute; after `failuresPerMinute`, its logins are refused unchecked until the
 * minute is over. In this process only: the embedded broker is one server's.
 */
export class AddressGuard {
  private readonly open = new Map<string, number>();
  /** Addresses refused for holding too many connections, told once until they drop below. */
  private readonly full = new Set<string>();
  private readonly failures: RateLimiterMemory;

  constructor(
    private readonly limits: {
      maxConnections: number;
      failuresPerMinute: number;
      /** Addresses with a limit of their own (a bridge's: one connection per lock behind it). */
      maxConnectionsByAddress?: Readonly<Record<string, number>>;
    },
  ) {
    this.failures = new RateLimiterMemory({ points: limits.failuresPerMinute, duration: 60 });
  }

  /** The connections an address may hold: its own limit, else everyone's. */
  limitFor(address: string): number {
    const own = this.limits.maxConnectionsByAddress ?? {};
    // An IPv4 client of a dual-stack listener shows as ::ffff:a.b.c.d.
    return own[address] ?? own[address.replace(/^::ffff:/, '')] ?? this.limits.maxConnections;
  }

  /** Counts a new connection: 'ok', or refused ('first' the first time the address is at its limit). */
  admit(address: string): 'ok' | 'first' | 'quiet' {
    const count = this.open.get(address) ?? 0;
    if (count >= this.limitFor(address)) {
      if (this.full.has(address)) return 'quiet';
      this.full.add(address);
      return 'first';
    }
    this.open.set(address, count + 1);
    return 'ok';
  }

  /** A connection admitted by `admit` has closed. */
  release(address: string): void {
    const count = (this.open.get(address) ?? 1) - 1;
    if (count <= 0) this.open.delete(address);
    else this.open.set(address, count);
    if (count < this.limitFor(address)) this.full.delete(address);
  }

  /** Whether the address has used up its failed logins for this minute. */
  async blocked(address: string): Promise<boolean> {
    const used = await this.failures.get(address);
    return used !== null && used.consumedPoints >= this.limits.failuresPerMinute;
  }

  /** Counts a failed login and says whether to log it. */
  async failed(address: string): Promise<FailureNotice> {
    const used = (await this.failures.penalty(address, 1)).consumedPoints;
    if (used === this.limits.failuresPerMinute) return 'blocking';
    return used === 1 ? 'first' : 'quiet';
  }
}
