import { UTM_KEYS, UTM_QUERY_KEYS, utmParameters } from './utm';

describe(utmParameters.name, () => {
  it('reads short and query names, keeps non-empty strings only', () => {
    expect(utmParameters({ source: 'news', utm_medium: 'email', campaign: '', term: 7, content: null, other: 'x' })).toEqual({ source: 'news', medium: 'email' });
  });

  it('prefers the short name when both are given', () => {
    expect(utmParameters({ source: 'a', utm_source: 'b' })).toEqual({ source: 'a' });
  });

  it('is null for no parameter, or for a value that is not an object', () => {
    for (const value of [{}, { campaign: '' }, null, undefined, 'utm_source=x', ['news'], 42]) expect(utmParameters(value)).toBeNull();
  });

  it('names the five parameters in the query as utm_<key>', () => {
    expect(UTM_QUERY_KEYS).toEqual(UTM_KEYS.map((key) => `utm_${key}`));
    expect(UTM_QUERY_KEYS).toEqual(['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content']);
  });
});
