/** Node flags an app is started with (tools/scripts/node-args.js). */
export function appNodeArgs(app: string): string[];
/** Environment an app is started with unless the caller sets it (tools/scripts/node-args.js). */
export function appEnv(app: string): Record<string, string>;
