import { sealProbeDigest } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json } from '@/testing/fetch-mock';
import { openSealed } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { clockCheck, CLOCK_FAIL_MS, CLOCK_WARN_MS, clockSkewOf, runApiChecks } from './api-checks';

const echo = (overrides: Record<string, unknown> = {}) =>
  json({
    versionHeader: 'web',
    clientAddress: '10.0.0.7',
    serverTime: new Date().toISOString(),
    ...overrides,
  });

describe('ApiTestPage (/test/api)', { timeout: 60_000 }, () => {
  it('shows every check passed when the API answers, sees the header, opens the seal and keeps time', async () => {
    const { calls } = renderApp('/test/api', {
      'GET about/client': (call) => echo({ versionHeader: call.headers.version ?? null }),
      'POST about/sealCheck': (call) => {
        const opened = openSealed(call.body) as { probe: string };
        return json({ digest: sealProbeDigest(opened.probe), serverTime: new Date().toISOString() });
      },
    });
    expect(
      await screen.findByText('All 4 checks passed', undefined, { timeout: 20_000 }),
    ).toBeInTheDocument();
    for (const id of ['reachability', 'version', 'seal', 'clock']) {
      expect(screen.getByTestId(`check-state-${id}`)).toHaveTextContent('Passed');
    }
    expect(screen.getByRole('region', { name: 'Version header' })).toHaveTextContent(
      'The server saw "version: web"',
    );
    expect(screen.getByRole('region', { name: 'API reachable' })).toHaveTextContent('10.0.0.7');
    // The probe went sealed, as sign-in's body does.
    const sealed = calls.find((c) => c.path === 'about/sealCheck')?.body as Record<string, unknown>;
    expect(Object.keys(sealed).sort()).toEqual(['k', 'm', 'n', 'p']);
  });

  it('fails the checks that fail, saying why, and offers to run them again', async () => {
    renderApp('/test/api', {
      'GET about/client': () =>
        echo({ versionHeader: null, serverTime: new Date(Date.now() - 6 * 60_000).toISOString() }),
      'POST about/sealCheck': () =>
        apiError(400, 'bad_request', 'The sealed payload is too old or from the future; check the clock'),
    });
    expect(
      await screen.findByText('3 of 4 checks failed', undefined, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('check-state-reachability')).toHaveTextContent('Passed');
    expect(screen.getByTestId('check-state-version')).toHaveTextContent('Failed');
    expect(screen.getByRole('region', { name: 'Version header' })).toHaveTextContent('no "version" header');
    expect(screen.getByRole('region', { name: 'Sealed envelope round trip' })).toHaveTextContent(/too old/);
    expect(
      within(screen.getByRole('region', { name: 'Clock against the server' })).getByText(
        /signing in will fail/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run the checks again' })).toBeEnabled();
  });

  it('says so when the API does not answer at all', async () => {
    renderApp('/test/api', {
      'GET about/client': () => new Response('bad gateway', { status: 502 }),
      'POST about/sealCheck': () => new Response('bad gateway', { status: 502 }),
    });
    expect(
      await screen.findByText('4 of 4 checks failed', undefined, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Clock against the server' })).toHaveTextContent(
      'Not checked: the API did not answer.',
    );
  });
});

describe('the checks', () => {
  it('measures the skew from the middle of the round trip', () => {
    const skew = clockSkewOf({
      echo: { versionHeader: 'web', clientAddress: '::1', serverTime: new Date(10_000).toISOString() },
      sentAt: 1_000,
      receivedAt: 3_000,
    });
    expect(skew).toEqual({ skewMs: 8_000, uncertaintyMs: 1_000 });
  });

  it('passes within a minute, warns from one, fails from five', () => {
    expect(clockCheck(59_000, 10).state).toBe('passed');
    expect(clockCheck(CLOCK_WARN_MS, 10).state).toBe('warning');
    expect(clockCheck(-(CLOCK_FAIL_MS - 1), 10).state).toBe('warning');
    expect(clockCheck(-CLOCK_FAIL_MS, 10).state).toBe('failed');
    expect(clockCheck(-90_000, 10).details[0]).toMatch(/ahead of the server by 1 min 30 s/);
  });

  it('fails the seal check when the digest differs', async () => {
    const checks = await runApiChecks({
      echo: async () => ({
        echo: { versionHeader: 'web', clientAddress: '::1', serverTime: new Date().toISOString() },
        sentAt: Date.now(),
        receivedAt: Date.now(),
      }),
      seal: async () => ({ digest: 'not the digest' }),
      probe: () => 'probe-1',
    });
    expect(checks.find((check) => check.id === 'seal')?.state).toBe('failed');
    expect(checks.filter((check) => check.state === 'passed')).toHaveLength(3);
  });
});
