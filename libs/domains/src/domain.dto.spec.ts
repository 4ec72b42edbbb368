import { pipeAccepts, pipeRefusal } from '@dl/testing';
import { CreateDomainDto, UpdateDomainDto } from './domain.dto';

const bad = (validation: Record<string, string>) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
const NUL = 'Must not contain NUL characters or unpaired surrogates';

// The domain bodies as the api's validation pipe reads them (decisions §15); the names
// themselves: domain-name.spec.ts; the service's own hosts: domains.service.medium.spec.ts.
describe(CreateDomainDto.name, () => {
  it.each([
    ['a scheme', 'https://go.acme.test'],
    ['a number', 42],
    ['null', null],
    ['an array', ['go.acme.test']],
    ['an empty string', ''],
  ])('refuses %s → validation.domain', async (_label, domain) => {
    expect(await pipeRefusal(CreateDomainDto, { domain })).toEqual(bad({ domain: 'Must be a valid domain name' }));
  });

  it('refuses a missing domain, NUL before any other rule, and unknown fields', async () => {
    expect(await pipeRefusal(CreateDomainDto, {})).toEqual(bad({ domain: 'Must be a valid domain name' }));
    expect(await pipeRefusal(CreateDomainDto, { domain: 'go.acme.test\u0000' })).toEqual(bad({ domain: NUL }));
    expect(await pipeRefusal(CreateDomainDto, { domain: 'ok.acme.test', isDefault: true })).toEqual(bad({ isDefault: 'Unknown field' }));
  });
});

describe(UpdateDomainDto.name, () => {
  it('takes the settings, null clearing a URL; a URL of exactly 2,048 characters', async () => {
    const longest = `https://www.a.test/${'a'.repeat(2048 - 'https://www.a.test/'.length)}`;
    expect({ ...(await pipeAccepts(UpdateDomainDto, { isDefault: false, rootRedirectUrl: null, notFoundUrl: longest })) }).toEqual({
      isDefault: false,
      rootRedirectUrl: null,
      notFoundUrl: longest,
    });
  });

  it.each([
    ['no scheme', 'www.a.test/404'],
    ['a relative path', '/404'],
    ['another scheme', 'ftp://www.a.test/404'],
    ['a data URL', 'data:text/html,<script>alert(1)</script>'],
    ['no host', 'https://'],
    ['whitespace', 'https://www.a.test/not found'],
    ['a newline (header injection)', 'https://www.a.test/\r\nSet-Cookie: x=1'],
    ['over 2,048 characters', `https://www.a.test/${'a'.repeat(2030)}`],
    ['an empty string', ''],
    ['a number', 42],
    ['an object', { url: 'https://www.a.test/' }],
    ['an array', ['https://www.a.test/']],
    ['true', true],
  ])('refuses a URL with %s', async (_label, notFoundUrl) => {
    expect(await pipeRefusal(UpdateDomainDto, { rootRedirectUrl: 'https://www.a.test/new', notFoundUrl })).toEqual(bad({ notFoundUrl: 'Must be a valid URL' }));
  });

  it('names every bad field, NUL with its own message, and the name as unknown', async () => {
    expect(await pipeRefusal(UpdateDomainDto, { rootRedirectUrl: 'javascript:alert(1)', notFoundUrl: 'not a url', isDefault: 'yes' })).toEqual(
      bad({ rootRedirectUrl: 'Must be a valid URL', notFoundUrl: 'Must be a valid URL', isDefault: 'Must be a boolean' }),
    );
    expect(await pipeRefusal(UpdateDomainDto, { notFoundUrl: 'https://www.a.test/\u0000' })).toEqual(bad({ notFoundUrl: NUL }));
    expect(await pipeRefusal(UpdateDomainDto, { domain: 'other.a.test' })).toEqual(bad({ domain: 'Unknown field' }));
  });
});
