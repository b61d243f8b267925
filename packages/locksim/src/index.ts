export * from './simulated-lock';
export * from './lock-fleet';
export * from './lock-model';
export * from './lock-memory';
export * from './cli-commands';
export * from './event-flood';
export * from './simulated-reader';
export * from './reader-cli-commands';
