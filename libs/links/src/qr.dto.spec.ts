import { pipeAccepts, pipeRefusal } from '@dl/testing';
import { QrQueryDto } from './qr.dto';

// GET /api/links/:id/qr's query as the api's validation pipe reads it (decisions §6a, §14:
// a fixed set of sizes keeps cached variants few and a render's cost bounded).
describe(QrQueryDto.name, () => {
  const query = (q: string) => Object.fromEntries(new URLSearchParams(q));

  it('takes every option, sizes and margins as the query string spells them', async () => {
    expect({ ...(await pipeAccepts(QrQueryDto, query('format=svg&size=2048&margin=0&fg=112233&bg=FFEEDD&ecc=H'), 'query')) }).toEqual({
      format: 'svg',
      size: 2048,
      margin: 0,
      fg: '112233',
      bg: 'FFEEDD',
      ecc: 'H',
    });
    for (const size of ['128', '256', '512', '1024']) expect((await pipeAccepts(QrQueryDto, { size }, 'query')).size).toBe(Number(size));
  });

  it.each([
    ['size=63', { size: 'Must be one of 128, 256, 512, 1024, 2048' }],
    ['size=2049', { size: 'Must be one of 128, 256, 512, 1024, 2048' }],
    ['size=abc', { size: 'Must be one of 128, 256, 512, 1024, 2048' }],
    ['size=64', { size: 'Must be one of 128, 256, 512, 1024, 2048' }],
    ['size=300', { size: 'Must be one of 128, 256, 512, 1024, 2048' }],
    ['size=512.0', { size: 'Must be one of 128, 256, 512, 1024, 2048' }],
    ['margin=17', { margin: 'Must be an integer between 0 and 16' }],
    ['fg=red', { fg: 'Must be a colour RRGGBB' }],
    ['bg=12345', { bg: 'Must be a colour RRGGBB' }],
    ['ecc=X', { ecc: 'Must be L, M, Q or H' }],
    ['format=gif', { format: 'Must be png or svg' }],
    ['foo=1', { foo: 'Unknown field' }],
  ])('?%s → 400 Validation error', async (q, validation) => {
    expect(await pipeRefusal(QrQueryDto, query(q), 'query')).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
  });
});
