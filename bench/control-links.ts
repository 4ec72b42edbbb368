/** The bench's visit and the redirect rules it never matches, shared by bench/redirect.ts --controls and bench/redirect-parts.ts. */

/** The user agent of every bench visit (an iPhone, so platform routing applies). */
export const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

/** Five rules the bench's iPhone / en-US / `?ref=bench` visit never matches, so each visit evaluates all five. */
export const MISSED_RULES = [
  { conditions: { countries: ['GB'] }, url: 'https://rules.example/gb' },
  { conditions: { languages: ['fr'] }, url: 'https://rules.example/fr' },
  { conditions: { devices: ['android'] }, url: 'https://rules.example/android' },
  { conditions: { os: ['Windows'], browsers: ['Chrome'] }, url: 'https://rules.example/windows-chrome' },
  { conditions: { query: { ref: 'news' } }, url: 'https://rules.example/news' },
];
