import { LINK_PUBLIC_FIELDS, linkField } from '@dl/link-fields';
import { URL_MESSAGE } from '@dl/platform/validation';
import { sampleLinkValues } from '@dl/testing';
import { LINK_VALUE_FALLBACKS } from './link-columns';
import { LinkFieldsDto } from './link-fields.dto';
import { LinkCreateResponseDto, LinkResponseDto } from './link-response.dto';
import { suppliedFields } from './link-values';
import { snake } from './snake-case';
import { validateItem } from './validate-item';
import { INVALID_URL_MESSAGE, linkValidationMessage } from './validation-messages';

/** A stored sample as a request gives it (dates as ISO 8601 text). */
const asInput = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
const samples = sampleLinkValues();
const errorsOf = (body: Record<string, unknown>) => validateItem(LinkFieldsDto, body).errors;
/** The properties @nestjs/swagger puts in a class's schema (its metadata lists them as `:name`). */
const schemaKeys = (cls: { prototype: object }) =>
  ((Reflect.getMetadata('swagger/apiModelPropertiesArray', cls.prototype) ?? []) as string[]).map((k) => k.slice(1));

describe('link fields as the API takes and shows them (derived from @dl/link-fields)', () => {
  it('every field accepts a valid value and stores it normalized as given', () => {
    for (const key of LINK_PUBLIC_FIELDS) {
      const body = { [key]: asInput(samples[key]) };
      const { value, errors } = validateItem(LinkFieldsDto, body);
      expect({ key, errors }).toEqual({ key, errors: {} });
      expect({ key, stored: suppliedFields(value)[key] }).toEqual({ key, stored: samples[key] });
    }
  });

  it('each kind refuses what its rule refuses, with its message', () => {
    for (const key of LINK_PUBLIC_FIELDS) {
      const field = linkField(key);
      if (field.kind === 'text') {
        const max = field.maxLength as number;
        expect(errorsOf({ [key]: 'x'.repeat(max) })).toEqual({});
        expect(errorsOf({ [key]: 'x'.repeat(max + 1) })).toEqual({ [key]: `Must be a string of at most ${max} characters` });
        expect(errorsOf({ [key]: 5 })).toEqual({ [key]: `Must be a string of at most ${max} characters` });
      } else if (field.kind === 'url') {
        const errors = errorsOf({ [key]: 'ftp://example.com/x' });
        expect(errors).toEqual({ [key]: URL_MESSAGE });
        expect(linkValidationMessage(errors)).toBe(INVALID_URL_MESSAGE);
      } else if (field.kind === 'int') {
        const [min, max] = field.range as readonly [number, number];
        for (const bad of [min - 1, max + 1, min + 0.5, String(min)]) expect(errorsOf({ [key]: bad })).toEqual({ [key]: field.message });
      } else if (field.kind === 'boolean') {
        expect(errorsOf({ [key]: 'true' })).toEqual({ [key]: 'Must be a boolean' });
      } else if (field.kind === 'date') {
        expect(errorsOf({ [key]: '2001-01-01T00:00:00Z' })).toEqual({ [key]: 'Must be a future date' });
        expect(errorsOf({ [key]: 'soon' })).toEqual({ [key]: 'Must be an ISO 8601 date' });
      } else if (field.kind === 'tags') {
        expect(errorsOf({ [key]: Array.from({ length: 11 }, (_, i) => `t${i}`) })).toEqual({ [key]: expect.stringMatching(/^Must be an array of at most 10/) });
      } else {
        expect(errorsOf({ [key]: 'not json' })).toEqual({ [key]: expect.any(String) });
      }
    }
  });

  it('null is accepted on every field: it unsets a nullable one and puts a boolean or the tags back to their fallback', () => {
    for (const key of LINK_PUBLIC_FIELDS) {
      const field = linkField(key);
      const { value, errors } = validateItem(LinkFieldsDto, { [key]: null });
      expect({ key, errors }).toEqual({ key, errors: {} });
      if (field.fallback === undefined) expect({ key, stored: suppliedFields(value)[key] }).toEqual({ key, stored: null });
      else if (field.kind === 'boolean' || field.kind === 'tags') expect({ key, stored: suppliedFields(value)[key] }).toEqual({ key, stored: LINK_VALUE_FALLBACKS[key] });
    }
  });

  it('the input, read and create schemas carry every field (camelCase, and snake_case on create)', () => {
    expect(schemaKeys(LinkFieldsDto)).toEqual(expect.arrayContaining([...LINK_PUBLIC_FIELDS]));
    expect(schemaKeys(LinkResponseDto)).toEqual(expect.arrayContaining([...LINK_PUBLIC_FIELDS]));
    expect(schemaKeys(LinkCreateResponseDto)).toEqual(expect.arrayContaining(LINK_PUBLIC_FIELDS.map(snake)));
    for (const cls of [LinkFieldsDto, LinkResponseDto, LinkCreateResponseDto]) {
      expect(schemaKeys(cls).filter((k) => /password_?hash/i.test(k))).toEqual([]);
    }
  });
});
