import { MantineProvider, Table, VisuallyHidden } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

describe('the theme', () => {
  it("makes every table's scroll box the containing block of its hidden header labels", () => {
    render(
      <MantineProvider theme={theme}>
        <Table.ScrollContainer minWidth={560} data-testid="scroll-box">
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
          </Table>
        </Table.ScrollContainer>
      </MantineProvider>,
    );
    // VisuallyHidden is absolutely positioned: with an unpositioned scroll box it sat outside the
    // box's overflow and widened a phone's page (the reports and platform work screens).
    expect(screen.getByTestId('scroll-box')).toHaveStyle({ position: 'relative' });
  });
});
