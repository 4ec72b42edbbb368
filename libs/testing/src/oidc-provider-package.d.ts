/** `oidc-provider` ships no types; libs/testing/src/oidc-provider.ts types the little it uses. */
declare module 'oidc-provider' {
  const Provider: unknown;
  export default Provider;
}

/** Its in-memory adapter, passed explicitly so the provider does not warn that it fell back to it. */
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  export function createMemoryAdapter(clockTolerance?: number): unknown;
}
