import { Text } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { ApiError } from '@/lib/api-client';
import { setupUser } from '@/testing/user';
import { RecordPage } from './record-page';

interface Lock {
  name: string;
  timeZone: string;
}

const query = (overrides: Partial<Parameters<typeof RecordPage<Lock>>[0]['query']>) => ({
  data: undefined,
  error: null,
  isPending: false,
  refetch: vi.fn(),
  ...overrides,
});

function renderPage(state: Parameters<typeof query>[0], extra: { missing?: ReactNode } = {}) {
  const q = query(state);
  render(
    <AppProvider env="test">
      <MemoryRouter>
        <RecordPage
          query={q}
          noun="lock"
          back={{ to: '/app/device', label: 'All locks' }}
          missing={extra.missing}
          header={(lock) => ({
            title: lock.name,
            description: lock.timeZone,
            aside: <button>Delete</button>,
          })}
        >
          {(lock) => <Text>The sections of {lock.name}</Text>}
        </RecordPage>
      </MemoryRouter>
    </AppProvider>,
  );
  return q;
}

describe('RecordPage', () => {
  it('says it is loading the record', () => {
    renderPage({ isPending: true });
    expect(screen.getByRole('status', { name: 'Loading the lock' })).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it('shows the record: the way back, its title, context, actions and sections', () => {
    renderPage({ data: { name: 'Front door', timeZone: 'Europe/Paris' } });
    expect(screen.getByRole('link', { name: 'All locks' })).toHaveAttribute('href', '/app/device');
    expect(screen.getByRole('heading', { level: 1, name: 'Front door' })).toBeInTheDocument();
    expect(screen.getByText('Europe/Paris')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByText('The sections of Front door')).toBeInTheDocument();
  });

  it('says a missing record (404) does not exist, with the way back to the list', () => {
    renderPage({ error: new ApiError(404, 'not_found', 'Not found') });
    expect(screen.getByRole('heading', { level: 1, name: "This lock doesn't exist" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All locks' })).toHaveAttribute('href', '/app/device');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows what the screen gives for a missing record instead, when it gives one', () => {
    renderPage({ error: new ApiError(404, 'not_found', 'Not found') }, { missing: <Text>No bill</Text> });
    expect(screen.getByText('No bill')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: "This lock doesn't exist" })).not.toBeInTheDocument();
  });

  it('shows any other error with a retry, under the way back', async () => {
    const q = renderPage({ error: new ApiError(403, 'forbidden', 'Only admins see this lock') });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Could not load the lock');
    expect(alert).toHaveTextContent('Only admins see this lock');
    expect(screen.getByRole('link', { name: 'All locks' })).toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: 'Try again' }));
    expect(q.refetch).toHaveBeenCalledTimes(1);
  });

  it('leads back to where the record says, once it is known', () => {
    const q = query({ data: { name: 'Front door', timeZone: 'UTC' } });
    render(
      <AppProvider env="test">
        <MemoryRouter>
          <RecordPage
            query={q}
            noun="lock"
            back={{ to: '/app/device', label: 'All locks' }}
            header={(lock) => ({ title: lock.name, back: { to: '/app/listing/l-1', label: 'Seaside flat' } })}
          >
            {() => null}
          </RecordPage>
        </MemoryRouter>
      </AppProvider>,
    );
    expect(screen.getByRole('link', { name: 'Seaside flat' })).toHaveAttribute('href', '/app/listing/l-1');
    expect(screen.queryByRole('link', { name: 'All locks' })).not.toBeInTheDocument();
  });
});
