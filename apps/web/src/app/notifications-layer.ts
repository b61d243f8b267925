/**
 * The notifications layer, imported on demand by the provider: a module of its own, so that the
 * component (and the transitions behind it) lands in its own chunk while the store that
 * `notifications.show()` fills stays in the first load.
 */
export { Notifications } from '@mantine/notifications';
