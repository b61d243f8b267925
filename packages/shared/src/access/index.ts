export * from './access.schemas';
export * from './local-time';
export * from './schedule';
export * from './evaluate-access';
export * from './phone-tokens';
