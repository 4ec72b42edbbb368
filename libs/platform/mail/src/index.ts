export * from './email-style';
