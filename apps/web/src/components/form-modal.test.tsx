import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { setupUser } from '@/testing/user';
import { FormModal, useDirtyForm } from './form-modal';

function NoteForm() {
  const form = useForm({ mode: 'controlled', initialValues: { note: '' } });
  useDirtyForm(form.isDirty());
  return <TextInput label="Note" {...form.getInputProps('note')} />;
}

function Screen() {
  const [opened, setOpened] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpened(true)}>
        Open
      </button>
      <FormModal opened={opened} onClose={() => setOpened(false)} title="A note">
        <NoteForm />
      </FormModal>
    </>
  );
}

function renderDialog() {
  render(
    <AppProvider env="test">
      <Screen />
    </AppProvider>,
  );
  return screen.findByRole('dialog', { name: 'A note' });
}

describe('FormModal: a form dialog never loses what was typed to a stray close', () => {
  it('closes a clean form at once', async () => {
    await renderDialog();
    await setupUser().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'A note' })).not.toBeInTheDocument());
  });

  it('asks on Escape and on the close button; Escape on the question keeps editing', async () => {
    const dialog = await renderDialog();
    const user = setupUser();
    await user.type(within(dialog).getByLabelText('Note'), 'Buy milk');

    await user.keyboard('{Escape}');
    expect(await within(dialog).findByRole('alertdialog', { name: 'Discard changes?' })).toBeInTheDocument();
    // The form is kept underneath, hidden while the question is open.
    expect(within(dialog).getByLabelText('Note')).not.toBeVisible();
    await user.keyboard('{Escape}');
    expect(within(dialog).queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Note')).toHaveValue('Buy milk');

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'A note' })).not.toBeInTheDocument());

    // Opened again, it starts clean and closes at once.
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('dialog', { name: 'A note' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'A note' })).not.toBeInTheDocument());
  });
});
