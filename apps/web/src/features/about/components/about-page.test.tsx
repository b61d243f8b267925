import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

function setup(about: MockHandler, roles: ('admin' | 'user')[] = ['admin']) {
  storage.setAuthToken(validToken());
  return renderApp('/app/about', {
    'GET auth': () => json(sessionFixture(roles)),
    'GET portal/about': about,
  });
}

describe('AboutPage', () => {
  it('says what Latchkey is and what this installation runs, with links to the API docs', async () => {
    setup(() =>
      json({
        name: 'Latchkey',
        version: '1.4.0',
        licence: 'MIT',
        database: 'postgres',
        node: 'v22.11.0',
        startedAt: '2026-11-23T08:00:00.000Z',
        apiDocs: '/api3/docs',
        lockBrokerUrl: 'mqtt://locks.example.com:1883',
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'About Latchkey' })).toBeInTheDocument();
    expect(screen.getByText(/open-source portal for smart locks/)).toBeInTheDocument();
    expect(await screen.findByText('1.4.0')).toBeInTheDocument();
    expect(screen.getByText('MIT')).toBeInTheDocument();
    expect(screen.getByText('PostgreSQL')).toBeInTheDocument();
    expect(screen.getByText('v22.11.0')).toBeInTheDocument();
    expect(screen.getByText('mqtt://locks.example.com:1883')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /API documentation/ })).toHaveAttribute('href', '/api3/docs');
    expect(screen.getByRole('link', { name: /OpenAPI description/ })).toHaveAttribute(
      'href',
      '/api3/openapi.json',
    );
  });

  it('shows an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup(() => apiError(500, 'internal', 'Boom'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the installation details');
  });

  it('is for admins only', async () => {
    const { calls } = setup(() => json({}), ['user']);
    expect(await screen.findByRole('heading', { name: /don.t have access/i })).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'portal/about')).toBe(false);
  });
});
