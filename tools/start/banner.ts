import type { DemoInfo } from '../cli/demo';

export interface BannerInput {
  ports: { api: number; redirect: number; ingest: number; worker: number };
  dashboard: boolean;
  demo: DemoInfo;
  seconds: number;
  color: boolean;
}

/** The one block `npm start` prints when every app answers /health. */
export function banner({ ports, dashboard, demo, seconds, color }: BannerInput): string {
  const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[22m` : s);
  const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[22m` : s);
  const api = `http://localhost:${ports.api}`;
  const body = JSON.stringify({ templateId: demo.templateId ?? '<template id>', originalUrl: 'https://example.com/hello', title: 'My first link' });
  const rule = dim('─'.repeat(72));
  return [
    '',
    rule,
    bold(`  Deeplink is running (ready in ${seconds.toFixed(1)} s)`),
    '',
    `  api        ${api}            ${dim(`API reference: ${api}/docs`)}`,
    `  redirect   http://localhost:${ports.redirect}            ${dim('short links')}`,
    `  ingest     http://localhost:${ports.ingest}            ${dim('SDK and pixel events')}`,
    `  worker     http://localhost:${ports.worker}            ${dim('/health and /metrics')}`,
    ...(dashboard ? [`  dashboard  ${api}/app`] : []),
    '',
    `  Demo login    ${demo.login.email} / ${demo.login.password}`,
    `  Demo API key  ${demo.apiKey}`,
    '',
    '  Create a short link:',
    `  curl -X POST ${api}/api/links -H "Authorization: Bearer ${demo.apiKey}" -H 'content-type: application/json' -d '${body}'`,
    '',
    dim('  Ctrl-C stops everything.'),
    rule,
    '',
  ].join('\n');
}
