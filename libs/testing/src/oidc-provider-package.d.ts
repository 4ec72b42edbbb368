/** `oidc-provider` ships no types; libs/testing/src/oidc-provider.ts types the little it uses. */
declare module 'oidc-provider' {
  const Provider: unknown;
  export default Provider;
}
