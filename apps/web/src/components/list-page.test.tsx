import { Table } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { ApiError } from '@/lib/api-client';
import { setupUser } from '@/testing/user';
import { EmptyList, NoMatchList } from './empty-list';
import { ListPage } from './list-page';

interface Row {
  _id: string;
  name: string;
}

interface State {
  isPending?: boolean;
  error?: unknown;
  data?: { total: number; items: Row[] };
  filtered?: boolean;
}

function renderList({ isPending = false, error = null, data, filtered = false }: State) {
  const query = { isPending, error, data, isPlaceholderData: false, refetch: vi.fn() };
  const setPage = vi.fn();
  render(
    <AppProvider env="test">
      <MemoryRouter>
        <ListPage
          title="Keys"
          description="Who holds which key."
          actions={<button>New key</button>}
          filters={<input aria-label="Search keys" />}
          query={query}
          loadingLabel="Loading keys"
          errorTitle="Could not load the keys"
          filtered={filtered}
          empty={<EmptyList icon={null} title="No keys yet" description="Record the first key." />}
          noMatch={
            <NoMatchList
              title="No keys match"
              description="Try another name."
              showAll="Show all keys"
              onShowAll={vi.fn()}
            />
          }
          list={{ page: 1, pageSize: 2, setPage }}
          noun={['key', 'keys']}
          table={(items) => (
            <Table.Tbody>
              {items.map((row) => (
                <Table.Tr key={row._id}>
                  <Table.Td>{row.name}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          )}
        >
          <div role="dialog" aria-label="New key" />
        </ListPage>
      </MemoryRouter>
    </AppProvider>,
  );
  return { query, setPage };
}

describe('ListPage', () => {
  it('always shows its title, context, actions, filters and what it opens', () => {
    renderList({ isPending: true });
    expect(screen.getByRole('heading', { level: 1, name: 'Keys' })).toBeInTheDocument();
    expect(screen.getByText('Who holds which key.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New key' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search keys' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'New key' })).toBeInTheDocument();
  });

  it('says it is loading', () => {
    renderList({ isPending: true });
    expect(screen.getByRole('status', { name: 'Loading keys' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows an error with a retry', async () => {
    const { query } = renderList({ error: new ApiError(500, 'internal', 'Something broke') });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load the keys');
    await setupUser().click(screen.getByRole('button', { name: 'Try again' }));
    expect(query.refetch).toHaveBeenCalledTimes(1);
  });

  it('invites a first step when there is nothing yet', () => {
    renderList({ data: { total: 0, items: [] } });
    expect(screen.getByRole('heading', { level: 2, name: 'No keys yet' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('offers the whole list when a search finds nothing', () => {
    renderList({ data: { total: 0, items: [] }, filtered: true });
    expect(screen.getByRole('heading', { level: 2, name: 'No keys match' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show all keys' })).toBeInTheDocument();
  });

  it('shows the rows in a table, and the pages', async () => {
    const { setPage } = renderList({
      data: {
        total: 3,
        items: [
          { _id: 'k1', name: 'Main entrance' },
          { _id: 'k2', name: 'Old badge' },
        ],
      },
    });
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['Main entrance', 'Old badge']);
    expect(screen.getByText(/3 keys/)).toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: /page 2/i }));
    expect(setPage).toHaveBeenCalledWith(2);
  });
});
