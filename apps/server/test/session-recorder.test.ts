import { afterAll, describe, expect, it } from 'vitest';
import { setDeploymentFlag } from '../src/base/feature-flags/feature-flags';
import { loadConfig } from '../src/config';
import { TestApp } from './test-app';

// The session recorder (brief §7): off by default, and then no script origin but this one in the
// content security policy; with SESSION_RECORDER_URL, its origin (only) for scripts and their
// recordings, and the URL in GET about/client for the web app.

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

const cspOf = async (t: TestApp) =>
  String(
    (await t.request({ method: 'GET', url: '/api3/about/webConfig' })).headers['content-security-policy'],
  );
const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));

describe('the session recorder', () => {
  it('is off by default: no URL for the web app, no other script origin', async () => {
    const t = await TestApp.start();
    apps.push(t);
    // Switched on without a script, there is still nothing to load.
    await setDeploymentFlag(t.app.db, 'sessionRecorder', true, (await t.signUp()).userId);
    const answer = await t.request({ method: 'GET', url: '/api3/about/webConfig' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ sessionRecorderUrl: null });
    const csp = await cspOf(t);
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self'");
  });

  it("adds the configured script's origin, and only it, to the policy; tells the web app once staff switch it on", async () => {
    const url = 'https://cdn.recorder.example/v2/record.js?site=abc';
    const t = await TestApp.start({ SESSION_RECORDER_URL: url });
    apps.push(t);
    const webConfig = async () => (await t.request({ method: 'GET', url: '/api3/about/webConfig' })).json();
    // The deployment's sessionRecorder feature is off by default: staff switch it on.
    expect(await webConfig()).toEqual({ sessionRecorderUrl: null });
    const staff = await t.signUp();
    await setDeploymentFlag(t.app.db, 'sessionRecorder', true, staff.userId);
    expect(await webConfig()).toEqual({ sessionRecorderUrl: url });
    await setDeploymentFlag(t.app.db, 'sessionRecorder', false, staff.userId);
    expect(await webConfig()).toEqual({ sessionRecorderUrl: null });
    const csp = await cspOf(t);
    expect(directive(csp, 'script-src')).toBe("script-src 'self' https://cdn.recorder.example");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://cdn.recorder.example");
    expect(directive(csp, 'default-src')).toBe("default-src 'self'");
  });

  it('takes only an https URL', () => {
    expect(() => loadConfig({ SESSION_RECORDER_URL: 'http://cdn.recorder.example/r.js' })).toThrow(/https/);
    expect(() => loadConfig({ SESSION_RECORDER_URL: 'javascript:alert(1)' })).toThrow();
    expect(loadConfig({}).SESSION_RECORDER_URL).toBeUndefined();
  });
});
