/** Node flags an app is started with (tools/scripts/node-args.js). */
export function appNodeArgs(app: string): string[];
