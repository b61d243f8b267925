import { LIVE_REPLAY_MAX_MS } from '@latchkey/shared';
import { describe, expect, it } from 'vitest';
import { LiveReplay } from '../src/features/live/live-replay';

/** A replay store on a clock the test moves. */
function withClock(everyPortal: boolean) {
  let now = 1_000_000;
  const replay = new LiveReplay(everyPortal, () => now);
  return { replay, advance: (ms: number) => (now += ms) };
}

describe('what the live channel keeps to send again (LiveReplay)', () => {
  it('on one server: every portal since start, within the window, oldest first', () => {
    const { replay, advance } = withClock(true);
    advance(10_000);
    replay.record('p1', 'a');
    advance(1000);
    replay.record('p1', 'b');
    replay.record('p2', 'x');
    advance(500);
    expect(replay.since('p1', 2000)).toEqual(['a', 'b']);
    expect(replay.since('p1', 800)).toEqual(['b']);
    // A portal nothing was published for: nothing missed, vouched for.
    expect(replay.since('p3', 2000)).toEqual([]);
    // Further back than the server has run, or than it keeps: not vouched for.
    expect(replay.since('p3', 20_000)).toBeNull();
    advance(LIVE_REPLAY_MAX_MS);
    replay.sweep();
    expect(replay.since('p1', LIVE_REPLAY_MAX_MS)).toEqual([]);
    expect(replay.since('p1', LIVE_REPLAY_MAX_MS + 1)).toBeNull();
  });

  it('behind Redis: only while this server watches the portal', () => {
    const { replay, advance } = withClock(false);
    replay.record('p1', 'before');
    expect(replay.since('p1', 1000)).toBeNull();
    replay.startCovering('p1');
    advance(1000);
    replay.record('p1', 'a');
    expect(replay.since('p1', 500)).toEqual(['a']);
    // Asking from before the watch began: some may be missing.
    expect(replay.since('p1', 1500)).toBeNull();
    replay.stopCovering('p1');
    expect(replay.since('p1', 500)).toBeNull();
  });

  it('stops vouching for a time it dropped messages of for room', () => {
    const { replay, advance } = withClock(true);
    advance(10_000);
    for (let i = 0; i < 600; i += 1) replay.record('p1', `m${i}`);
    advance(1000);
    replay.record('p1', 'last');
    expect(replay.since('p1', 2000)).toBeNull();
    expect(replay.since('p1', 500)).toEqual(['last']);
  });
});
