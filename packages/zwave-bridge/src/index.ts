export * from './bridge';
export * from './lock-link';
export * from './registrar';
export * from './slots';
export * from './store';
export * from './zwave-lock';
