import { renderError } from './error-body';
import { UuidParamPipe } from './uuid-param.pipe';

const ID = '3f2b6a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';

function refusal(pipe: UuidParamPipe, value: unknown) {
  try {
    pipe.transform(value);
  } catch (err) {
    return renderError(err).body;
  }
  return null;
}

describe(UuidParamPipe.name, () => {
  it('passes a UUID on in lower case, whatever its case', () => {
    expect(new UuidParamPipe().transform(ID)).toBe(ID);
    expect(new UuidParamPipe().transform(ID.toUpperCase())).toBe(ID);
  });

  it('refuses anything else with 400 `Validation error` naming the parameter', () => {
    for (const value of ['abc', `${ID}0`, ID.replace(/-/g, ''), '', undefined, 42]) {
      expect(refusal(new UuidParamPipe('linkId'), value)).toEqual({
        error: 'Bad Request',
        message: 'Validation error',
        statusCode: 400,
        validation: { linkId: 'Must be a valid UUID' },
      });
    }
    expect(refusal(new UuidParamPipe(), 'nope')?.validation).toEqual({ id: 'Must be a valid UUID' });
  });
});
