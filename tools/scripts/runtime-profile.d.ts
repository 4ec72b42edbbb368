/** The runtime profile of an app (tools/scripts/runtime-profile.js). */
export function profileOf(app: string): { nodeArgs: string[]; env: Record<string, string>; nice: number };
/** The command, arguments and environment that start `app` with its profile. */
export function appCommand(app: string, entry: string[], env: Record<string, string | undefined>, options?: { priority?: boolean }): { command: string; args: string[]; env: Record<string, string> };
/** Gives the session a detached app leads its profile's nice value (kernels with autogroups). */
export function lowerAutogroup(pid: number, app: string): void;
