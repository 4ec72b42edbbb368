import { pipeRefusal } from '@dl/testing';
import { CreateProjectDto, UpdateProjectDto } from './project.dto';

const NAME = 'Must be a non-empty string of at most 100 characters';
const bad = (validation: Record<string, string>) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });

// Project bodies as the api's validation pipe reads them; the e2e spec keeps one over HTTP.
describe(CreateProjectDto.name, () => {
  it.each([
    [{}, { name: NAME }],
    [{ name: '   ' }, { name: NAME }],
    [{ name: 'x'.repeat(101) }, { name: NAME }],
    [{ name: ['x'] }, { name: NAME }],
    [{ name: 'x', description: 5 }, { description: 'Must be a string of at most 1000 characters' }],
    [{ name: 'x', color: 'red' }, { color: 'Unknown field' }],
  ])('%j → 400 Validation error', async (body, validation) => {
    expect(await pipeRefusal(CreateProjectDto, body)).toEqual(bad(validation));
  });
});

describe(UpdateProjectDto.name, () => {
  it('a null name → 400 naming it', async () => {
    expect(await pipeRefusal(UpdateProjectDto, { name: null })).toEqual(bad({ name: NAME }));
  });
});
