import { Readable } from 'node:stream';

/** What a retained message is to the store: its topic and payload (the rest passes through). */
interface RetainedPacket {
  topic: string;
  payload: Buffer | string;
}

/** The part of aedes-persistence's in-memory store that serves retained messages. */
interface RetainedStore {
  storeRetained(packet: RetainedPacket): Promise<void>;
  createRetainedStream(pattern: string): Readable;
  createRetainedStreamCombi(patterns: string[]): Readable;
}

const hasWildcard = (pattern: string) => pattern.includes('+') || pattern.includes('#');

/**
 * Makes aedes's in-memory persistence (`broker.persistence`, before any client connects) keep
 * retained messages by topic too. The stock store answers a subscription by testing every
 * retained message against its pattern, and every lock's credential set is retained: with 10,000
 * locks each login (three subscriptions) tested 30,000 topics, so a fleet logging in (after a
 * restart) did quadratic work and the profile was mostly qlobber. A lock subscribes to exact topics,
 * found here directly; a pattern with a wildcard still goes through the stock scan.
 */
export function findRetainedByTopic(persistence: unknown): void {
  // The callback layer aedes talks to delegates retained messages to this async store.
  const store = (persistence as { asyncPersistence?: RetainedStore }).asyncPersistence;
  if (!store) throw new Error('aedes persistence is not the in-memory store this expects');
  const byTopic = new Map<string, RetainedPacket>();
  const storeRetained = store.storeRetained.bind(store);
  const scan = store.createRetainedStream.bind(store);
  const scanAll = store.createRetainedStreamCombi.bind(store);
  const exact = (topics: string[]) =>
    Readable.from(
      topics.flatMap((topic) => byTopic.get(topic) ?? []),
      { objectMode: true },
    );

  store.storeRetained = async (packet) => {
    // As the stock store does: an empty payload clears the topic's retained message.
    if (packet.payload.length === 0) byTopic.delete(packet.topic);
    else byTopic.set(packet.topic, Object.assign({}, packet));
    await storeRetained(packet);
  };
  store.createRetainedStream = (pattern) => (hasWildcard(pattern) ? scan(pattern) : exact([pattern]));
  store.createRetainedStreamCombi = (patterns) =>
    patterns.some(hasWildcard) ? scanAll(patterns) : exact(patterns);
}
