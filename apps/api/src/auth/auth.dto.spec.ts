import { pipeRefusal } from '@dl/testing';
import { CreateApiKeyDto, UpdateApiKeyDto } from '../keys/keys.dto';
import { AcceptInviteDto, ChangePasswordDto, ForgotPasswordDto, LoginDto, ResetPasswordDto, SignupDto, UpdateMeDto, VerifyEmailDto } from './auth.dto';

const bad = (validation: Record<string, string>) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
const valid = { email: 'new@example.test', password: 'a-long-password', name: 'New', organizationName: 'New Org' };

// The identity bodies as the api's validation pipe reads them (decisions §2, §20); each e2e spec
// keeps one refusal over HTTP with nothing written.
describe(SignupDto.name, () => {
  it.each([
    ['missing everything', {}, { email: 'Must be a valid email address', password: 'Must be a string', name: 'Must be a string', organizationName: 'Must be a string' }],
    ['a bad email', { email: 'not-an-email' }, { email: 'Must be a valid email address' }],
    ['a weak (9 character) password', { password: '123456789' }, { password: 'Must be at least 10 characters' }],
    ['a password that is not a string', { password: 12345678901 }, { password: 'Must be a string' }],
    ['an empty name', { name: '' }, { name: 'Must be 1-100 characters' }],
    ['an empty organization name', { organizationName: '' }, { organizationName: 'Must be 1-100 characters' }],
    ['a blank name', { name: '  ' }, { name: 'Must be 1-100 characters' }],
    ['an unknown field', { tier: 'UNLIMITED' }, { tier: 'Unknown field' }],
  ])('refuses %s', async (_label, patch, validation) => {
    expect(await pipeRefusal(SignupDto, Object.keys(patch).length ? { ...valid, ...patch } : {})).toEqual(bad(validation));
  });
});

describe(LoginDto.name, () => {
  it.each([
    ['missing fields', {}, { email: 'Must be a valid email address', password: 'Must be a string' }],
    ['a bad organizationId', { email: 'a@b.co', password: 'x', organizationId: 'nope' }, { organizationId: 'Must be a valid UUID' }],
    ['an unknown field', { email: 'a@b.co', password: 'x', role: 'OWNER' }, { role: 'Unknown field' }],
  ])('refuses %s', async (_label, body, validation) => {
    expect(await pipeRefusal(LoginDto, body)).toEqual(bad(validation));
  });
});

describe(AcceptInviteDto.name, () => {
  it.each([
    ['no body', {}, { token: 'Must be a string' }],
    ['a short password', { token: 'dli_x', name: 'X', password: 'short' }, { password: 'Must be at least 10 characters' }],
    ['a password that is not a string', { token: 'dli_x', password: 12345678901 }, { password: 'Must be a string' }],
    ['a blank name', { token: 'dli_x', name: '   ', password: 'long-enough-1' }, { name: 'Must be 1-100 characters' }],
    ['an unknown field', { token: 'dli_x', name: 'X', password: 'long-enough-1', role: 'OWNER' }, { role: 'Unknown field' }],
  ])('refuses %s', async (_label, body, validation) => {
    expect(await pipeRefusal(AcceptInviteDto, body)).toEqual(bad(validation));
  });
});

describe('account bodies (decisions §20)', () => {
  it.each([
    [VerifyEmailDto, {}, { token: 'Must be a string' }],
    [VerifyEmailDto, { token: 5 }, { token: 'Must be a string' }],
    [VerifyEmailDto, { token: 'x'.repeat(201) }, { token: 'Must be a string' }],
    [ForgotPasswordDto, {}, { email: 'Must be a valid email address' }],
    [ForgotPasswordDto, { email: 'nope' }, { email: 'Must be a valid email address' }],
    [ForgotPasswordDto, { email: 'a@example.test', extra: 1 }, { extra: 'Unknown field' }],
    [ResetPasswordDto, {}, { token: 'Must be a string', password: 'Must be a string' }],
    [ResetPasswordDto, { token: 'dlr_x', password: 'short' }, { password: 'Must be at least 10 characters' }],
    [ResetPasswordDto, { token: 'dlr_x', password: 'x'.repeat(201) }, { password: 'Must be at most 200 characters' }],
    [ChangePasswordDto, {}, { currentPassword: 'Must be a string', newPassword: 'Must be a string' }],
    [ChangePasswordDto, { currentPassword: '', newPassword: 'long-enough-1' }, { currentPassword: 'Must not be empty' }],
    [ChangePasswordDto, { currentPassword: 'x', newPassword: 'short' }, { newPassword: 'Must be at least 10 characters' }],
    [UpdateMeDto, {}, { name: 'Must be a string' }],
    [UpdateMeDto, { name: '  ' }, { name: 'Must be 1-100 characters' }],
    [UpdateMeDto, { name: 'x'.repeat(101) }, { name: 'Must be 1-100 characters' }],
    [UpdateMeDto, { name: 'ok', email: 'a@example.test' }, { email: 'Unknown field' }],
  ] as const)('%p refuses %j', async (dto, body, validation) => {
    expect(await pipeRefusal(dto as never, body)).toEqual(bad(validation));
  });
});

const SCOPES_MESSAGE = 'Must be a non-empty list of: links:read, links:write, analytics:read, conversions:write, domains:write, webhooks:write, all';

describe('API key names (create and rename)', () => {
  it.each([
    ['an empty name', { name: '' }, { name: 'Must be 1-100 characters' }],
    ['a blank name', { name: '   ' }, { name: 'Must be 1-100 characters' }],
    ['a 101-character name', { name: 'x'.repeat(101) }, { name: 'Must be 1-100 characters' }],
    ['a number', { name: 5 }, { name: 'Must be a string' }],
    ['a null name', { name: null }, { name: 'Must be a string' }],
    ['an unknown field', { name: 'ok', permissions: ['links'] }, { permissions: 'Unknown field' }],
    ['an unknown scope', { name: 'ok', scopes: ['links'] }, { scopes: SCOPES_MESSAGE }],
    ['a repeated scope', { name: 'ok', scopes: ['links:read', 'links:read'] }, { scopes: SCOPES_MESSAGE }],
    ['null scopes', { name: 'ok', scopes: null }, { scopes: SCOPES_MESSAGE }],
    ['a past expiry', { name: 'ok', expiresAt: '2001-01-01T00:00:00Z' }, { expiresAt: 'Must be a future date' }],
  ])('refuses %s', async (_label, body, validation) => {
    expect(await pipeRefusal(CreateApiKeyDto, body)).toEqual(bad(validation));
    expect(await pipeRefusal(UpdateApiKeyDto, body)).toEqual(bad(validation));
  });

  it('creation needs a name; an update may leave it out', async () => {
    expect(await pipeRefusal(CreateApiKeyDto, { scopes: ['all'] })).toEqual(bad({ name: 'Must be a string' }));
    await expect(pipeRefusal(UpdateApiKeyDto, { scopes: ['all'], expiresAt: null })).rejects.toThrow('expected the validation pipe to refuse');
  });
});
