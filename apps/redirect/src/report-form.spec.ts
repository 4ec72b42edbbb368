import { buildAnswer } from '@dl/redirect';
import { readReportForm } from './report.routes';

/** The `/<code>/report` form's fields (decisions §22). Over HTTP, one refusal: report-form.e2e.spec.ts. */
describe(readReportForm.name, () => {
  it('reads the category, details and email, trimmed; empty fields are left out', () => {
    expect(readReportForm({ category: 'phishing', details: '  fake bank login ', reporterEmail: 'v@example.test' })).toEqual({
      category: 'phishing',
      details: 'fake bank login',
      reporterEmail: 'v@example.test',
    });
    expect(readReportForm({ category: 'spam', details: '   ', reporterEmail: '' })).toEqual({ category: 'spam', details: undefined, reporterEmail: undefined });
    expect(readReportForm({ category: 'other', details: 'x'.repeat(2000) })).toMatchObject({ details: 'x'.repeat(2000) });
  });

  it.each([
    ['an unknown category', { category: 'weird' }, 'Choose what is wrong with this link.'],
    ['no category', { details: 'x' }, 'Choose what is wrong with this link.'],
    ['a category that is not text', { category: ['spam'] }, 'Choose what is wrong with this link.'],
    ['no form at all', undefined, 'Choose what is wrong with this link.'],
    ['a bad email', { category: 'spam', reporterEmail: 'not-an-email' }, 'Enter a valid email address, or leave it empty.'],
    ['an email over 254 characters', { category: 'spam', reporterEmail: `${'a'.repeat(64)}@${'b'.repeat(190)}.test` }, 'Enter a valid email address, or leave it empty.'],
    ['2001 characters of details', { category: 'spam', details: 'x'.repeat(2001) }, 'Details must be at most 2000 characters.'],
  ])('%s → 400, the form again with its message (nothing is filed)', (_what, form, message) => {
    expect(readReportForm(form)).toBe(message);
    const answer = buildAnswer({ kind: 'report', shortCode: 'abc1234', error: message });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain(`<p class="error" role="alert">${message}</p>`);
    expect(answer.body).toContain('<form method="post">');
  });
});
