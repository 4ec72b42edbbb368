import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

function start(app: string, env: Record<string, string>) {
  const { PATH, HOME } = process.env;
  return spawnSync(process.execPath, ['tools/scripts/run.js', `apps/${app}/src/main.ts`], {
    cwd: root,
    env: { PATH: PATH ?? '', HOME: HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 20000,
  });
}

describe('start-up configuration', () => {
  it.each(['api', 'redirect', 'ingest', 'worker'])('%s refuses to start without DATABASE_URL, naming it', (app) => {
    const res = start(app, {});
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`[${app}] cannot start. Invalid configuration:`);
    expect(res.stderr).toContain('DATABASE_URL is required');
  });

  it('names every bad variable', () => {
    const res = start('api', {
      DATABASE_URL: 'mysql://nope',
      API_PORT: 'eighty',
      NODE_ENV: 'production',
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('DATABASE_URL must be a postgresql:// connection URL');
    expect(res.stderr).toContain('API_PORT');
    expect(res.stderr).toContain('JWT_SECRET is required in production');
  });
});
