/**
 * Props for a Select's or MultiSelect's clear button. Mantine hides it from keyboards and screen
 * readers (aria-hidden, tabIndex -1); it is the one way to empty a choice, so here it is a named,
 * focusable button. The theme gives every clearable field these; a field may name what it clears.
 */
export function accessibleClearButton(label = 'Clear') {
  return { 'aria-label': label, 'aria-hidden': false, tabIndex: 0 };
}
