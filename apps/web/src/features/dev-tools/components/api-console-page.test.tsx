import type { DeveloperCallResult } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { openSealed, sealKeyAnswer, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { bodyProblem, statusLabel } from './api-console-page';

function result(overrides: Partial<DeveloperCallResult> = {}): DeveloperCallResult {
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1' },
    durationMs: 12.34,
    body: { items: [{ _id: 'device-1', name: 'Front door' }], total: 1 },
    bodyKind: 'json',
    contentType: 'application/json; charset=utf-8',
    size: 64,
    truncated: false,
    portalId: 'portal-1',
    ...overrides,
  };
}

const staffSession = () => json(sessionFixture(['superAdmin']));

// Several typed calls each: slow on a busy machine, so more time than the default.
describe('ApiConsolePage', { timeout: 60_000 }, () => {
  it('runs a call and shows its status, timing, answer and headers, and keeps it in the history', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/devTools/api', {
      'GET auth': staffSession,
      'POST system/developerCall': (call) => {
        const body = call.body as { path: string };
        return json(
          body.path === 'portal/devices'
            ? result()
            : result({ status: 404, body: { error: { code: 'not_found', message: 'Lock not found' } } }),
        );
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('textbox', { name: /^Path/ }, { timeout: 20_000 }));
    await user.paste('portal/devices');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    const answer = await screen.findByRole('region', { name: 'Answer' });
    expect(within(answer).getByTestId('answer-status')).toHaveTextContent('200 OK');
    expect(answer).toHaveTextContent('GET /api3/portal/devices');
    expect(answer).toHaveTextContent('12.3 ms on the server');
    expect(within(answer).getByLabelText('Answer body')).toHaveTextContent('"name": "Front door"');
    await user.click(within(answer).getByRole('tab', { name: /Headers/ }));
    expect(await within(answer).findByText('x-request-id')).toBeInTheDocument();
    const sent = calls.find((c) => c.path === 'system/developerCall');
    expect(sent?.body).toEqual({ method: 'GET', path: 'portal/devices' });

    // A 404 inside is the call's answer, shown as such.
    const path = screen.getByRole('textbox', { name: /^Path/ });
    await user.clear(path);
    await user.click(path);
    await user.paste('portal/device/nope');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Answer' })).getByTestId('answer-status'),
      ).toHaveTextContent('404 Not Found'),
    );
    const history = screen.getByRole('region', { name: 'Calls on this page' });
    const rows = within(history).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('GET /api3/portal/device/nope');
    // Choosing an earlier call shows its answer and fills the form with it.
    await user.click(within(history).getByRole('button', { name: 'GET /api3/portal/devices' }));
    expect(
      within(screen.getByRole('region', { name: 'Answer' })).getByTestId('answer-status'),
    ).toHaveTextContent('200 OK');
    expect(screen.getByRole('textbox', { name: /^Path/ })).toHaveValue('portal/devices');
  });

  it('checks the body is JSON before sending it, and sends it with the portal', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/devTools/api', {
      'GET auth': staffSession,
      'POST system/developerCall': () =>
        json(result({ status: 201, body: null, bodyKind: 'empty', size: 0 })),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('combobox', { name: 'Method' }, { timeout: 20_000 }));
    await user.click(await screen.findByRole('option', { name: 'POST' }));
    await user.click(screen.getByRole('textbox', { name: /^Path/ }));
    await user.paste('portal/group');
    const body = screen.getByRole('textbox', { name: /^JSON body/ });
    await user.click(body);
    await user.paste('{"name": "Staff",}');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText(/The body is not JSON/)).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'system/developerCall')).toBe(false);

    await user.clear(body);
    await user.paste('{"name": "Staff"}');
    await user.click(screen.getByRole('textbox', { name: /^Portal/ }));
    await user.paste('portal-2');
    await user.click(screen.getByRole('button', { name: 'Format JSON' }));
    expect(body).toHaveValue('{\n  "name": "Staff"\n}');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByTestId('answer-status')).toHaveTextContent('201 Created');
    expect(screen.getByText('No body.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'system/developerCall')?.body).toEqual({
      method: 'POST',
      path: 'portal/group',
      body: '{\n  "name": "Staff"\n}',
      portalOverride: 'portal-2',
    });
  });

  it('says when a route wants a sealed body, and seals it in the browser when asked', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/devTools/api', {
      'GET auth': staffSession,
      'GET auth/sealKey': () => json(sealKeyAnswer()),
      'POST system/developerCall': (call) => {
        const sent = JSON.parse((call.body as { body: string }).body) as Record<string, unknown>;
        return json(
          'm' in sent
            ? result({ status: 200, body: { digest: 'ok' } })
            : result({
                status: 400,
                body: {
                  error: {
                    code: 'bad_request',
                    message: 'The body must be a sealed envelope { m, k: 2, n, p }',
                  },
                },
              }),
        );
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('combobox', { name: 'Method' }, { timeout: 20_000 }));
    await user.click(await screen.findByRole('option', { name: 'POST' }));
    await user.click(screen.getByRole('textbox', { name: /^Path/ }));
    await user.paste('about/sealCheck');
    await user.click(screen.getByRole('textbox', { name: /^JSON body/ }));
    await user.paste('{"probe": "hello"}');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('This route takes a sealed body')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: /Seal the body/ }));
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByTestId('answer-status')).toHaveTextContent('200 OK'));
    expect(screen.queryByText('This route takes a sealed body')).not.toBeInTheDocument();
    // What left the browser is an envelope the server opens to the JSON typed, not the JSON itself.
    const last = calls.filter((c) => c.path === 'system/developerCall').at(-1)!.body as { body: string };
    expect(last.body).not.toContain('hello');
    expect(openSealed(JSON.parse(last.body))).toEqual({ probe: 'hello' });
  });

  it("shows the server's refusal of the console's own request under the field it is about", async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/devTools/api', {
      'GET auth': staffSession,
      'POST system/developerCall': () =>
        apiError(400, 'bad_request', 'The console cannot run itself', [
          { path: 'body.path', message: 'The console cannot run itself' },
        ]),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('textbox', { name: /^Path/ }, { timeout: 20_000 }));
    await user.paste('system/developerCall');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('The console cannot run itself')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Answer' })).not.toBeInTheDocument();
  });

  it('notes a binary answer instead of showing its bytes', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/devTools/api', {
      'GET auth': staffSession,
      'POST system/developerCall': () =>
        json(result({ body: null, bodyKind: 'binary', contentType: 'application/pdf', size: 2048 })),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('textbox', { name: /^Path/ }, { timeout: 20_000 }));
    await user.paste('portal/billing/pdf');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText(/application\/pdf, 2.0 KB: not shown here/)).toBeInTheDocument();
  });
});

describe('the console helpers', () => {
  it('bodyProblem: empty is fine, GET takes none, JSON must parse', () => {
    expect(bodyProblem('POST', '')).toBeNull();
    expect(bodyProblem('POST', '{"a":1}')).toBeNull();
    expect(bodyProblem('GET', '{}')).toMatch(/GET call carries no body/);
    expect(bodyProblem('PUT', '{a:1}')).toMatch(/not JSON/);
  });
  it('statusLabel names the common statuses', () => {
    expect(statusLabel(404)).toBe('404 Not Found');
    expect(statusLabel(418)).toBe('418');
  });
});
