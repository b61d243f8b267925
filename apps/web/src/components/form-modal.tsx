import { Button, Group, Modal, Stack, Text, type ModalProps } from '@mantine/core';
import { createContext, useCallback, useContext, useEffect, useId, useRef, useState } from 'react';

/** How a form inside a FormModal says whether it holds anything typed. */
const DirtyContext = createContext<((dirty: boolean) => void) | null>(null);

/**
 * Called by a form inside a FormModal with whether it holds anything typed (e.g. `form.isDirty()`),
 * so closing the dialog by Escape, a click outside or its ✕ asks before throwing it away. Outside a
 * FormModal it does nothing.
 */
export function useDirtyForm(dirty: boolean) {
  const report = useContext(DirtyContext);
  useEffect(() => {
    report?.(dirty);
  }, [report, dirty]);
  // A form that leaves (saved, or the dialog closed) holds nothing any more.
  useEffect(() => () => report?.(false), [report]);
}

export type FormModalProps = ModalProps;

/**
 * A dialog holding a form: the one place that keeps what someone typed from being lost to a stray
 * Escape or click outside. While the form is dirty (useDirtyForm), closing asks "Discard?" inside the
 * dialog, the form kept (hidden) underneath so "Keep editing" returns to it exactly as it was; Escape
 * on the question keeps editing. A clean form closes at once, as any dialog does.
 */
export function FormModal({ opened, onClose, children, ...props }: FormModalProps) {
  const dirty = useRef(false);
  const keepEditing = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const [asking, setAsking] = useState(false);
  const report = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);

  // The question takes the focus, on the harmless answer, so Enter never discards.
  useEffect(() => {
    if (asking) keepEditing.current?.focus();
  }, [asking]);

  const requestClose = () => {
    if (asking) setAsking(false);
    else if (dirty.current) setAsking(true);
    else onClose();
  };

  const discard = () => {
    setAsking(false);
    dirty.current = false;
    onClose();
  };

  return (
    <Modal opened={opened} onClose={requestClose} closeButtonProps={{ 'aria-label': 'Close' }} {...props}>
      {asking && (
        <Stack gap="md" role="alertdialog" aria-label="Discard changes?" aria-describedby={questionId}>
          <Text fw={600}>Discard what you typed?</Text>
          <Text size="sm" id={questionId}>
            Closing now throws away what is in this form. Keep editing to go back to it.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" ref={keepEditing} onClick={() => setAsking(false)}>
              Keep editing
            </Button>
            <Button color="red" onClick={discard}>
              Discard
            </Button>
          </Group>
        </Stack>
      )}
      <div hidden={asking}>
        <DirtyContext.Provider value={report}>{children}</DirtyContext.Provider>
      </div>
    </Modal>
  );
}
