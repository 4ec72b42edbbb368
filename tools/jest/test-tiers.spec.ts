import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

// The test tiers (jest.preset.js) hold only if every project is wired the same way: a project
// that spreads the preset or lacks the Nx targets silently runs the wrong files, or none.
const root = join(__dirname, '..', '..');
const TIERS = ['unit', 'medium', 'e2e'];

function projectDirs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name === 'generated') continue;
    const sub = join(dir, entry.name);
    if (existsSync(join(root, sub, 'project.json'))) out.push(sub);
    out.push(...projectDirs(sub));
  }
  return out;
}

const projects = ['tools', ...['apps', 'libs', 'tools'].flatMap(projectDirs)].filter((dir) => existsSync(join(root, dir, 'jest.config.js')));

describe('test tiers', () => {
  it('finds the projects', () => {
    expect(projects).toEqual(expect.arrayContaining(['apps/api', 'libs/links', 'libs/platform/db', 'tools']));
  });

  it.each(projects)('%s: its jest config is the three tiers, and it has the Nx targets', (dir) => {
    const config = require(join(root, dir, 'jest.config.js'));
    expect(config.projects.map((p: { displayName: string }) => p.displayName)).toEqual(TIERS);
    expect(config.projects.map((p: { rootDir: string }) => relative(root, p.rootDir))).toEqual([dir, dir, dir]);
    const targets = Object.keys(JSON.parse(readFileSync(join(root, dir, 'project.json'), 'utf8')).targets ?? {});
    expect(targets).toEqual(expect.arrayContaining(['test', ...TIERS.map((t) => `test:${t}`)]));
  });

  it('a unit test sees Postgres and Redis on a closed port only', () => {
    expect(process.env.TEST_DATABASE_URL).toContain('127.0.0.1:9/');
    expect(process.env.TEST_REDIS_URL).toBe('redis://127.0.0.1:9');
  });
});
