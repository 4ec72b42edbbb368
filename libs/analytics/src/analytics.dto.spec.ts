import { pipeAccepts, pipeRefusal } from '@dl/testing';
import { AnalyticsDaysQueryDto, ClickListQueryDto } from './analytics.dto';

const bad = (message: string, validation: Record<string, string>) => ({ error: 'Bad Request', message, statusCode: 400, validation });

// The analytics queries as the api's validation pipe reads them (decisions §8); the e2e spec
// keeps one refusal of each over HTTP.
describe(AnalyticsDaysQueryDto.name, () => {
  it('takes 1 and 365 days, as the query string spells them', async () => {
    for (const days of ['1', '365']) expect((await pipeAccepts(AnalyticsDaysQueryDto, { days }, 'query')).days).toBe(Number(days));
  });

  it.each(['0', '366', 'abc', '1.5', '-3', ''])('days=%s → 400 Days must be between 1 and 365', async (days) => {
    expect(await pipeRefusal(AnalyticsDaysQueryDto, { days }, 'query')).toEqual(bad('Days must be between 1 and 365', { days: 'Must be between 1 and 365' }));
  });

  it('refuses unknown parameters', async () => {
    expect(await pipeRefusal(AnalyticsDaysQueryDto, { foo: '1' }, 'query')).toEqual(bad('Validation error', { foo: 'Unknown field' }));
  });
});

describe(ClickListQueryDto.name, () => {
  it.each(['0', '1001', 'x'])('limit=%s → 400 Limit must be between 1 and 1000', async (limit) => {
    expect(await pipeRefusal(ClickListQueryDto, { limit }, 'query')).toEqual(bad('Limit must be between 1 and 1000', { limit: 'Must be between 1 and 1000' }));
  });
});
