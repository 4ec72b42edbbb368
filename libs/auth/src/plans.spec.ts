import { DEFAULT_PLAN_LIMITS, parsePlanLimits } from './plans';

describe(parsePlanLimits.name, () => {
  it('answers the limits of decisions §5 without overrides', () => {
    expect(parsePlanLimits(undefined)).toEqual(DEFAULT_PLAN_LIMITS);
    expect(DEFAULT_PLAN_LIMITS.FREE).toMatchObject({ links: 1000, apiKeys: 1, clicksPerMonth: 5000, requestsPerMinute: 10, eventAnalytics: false, domains: 1 });
    expect(DEFAULT_PLAN_LIMITS.PRO).toMatchObject({ links: 25000, apiKeys: 3, clicksPerMonth: 100000, requestsPerMinute: 60 });
    expect(DEFAULT_PLAN_LIMITS.BUSINESS).toMatchObject({ links: 100000, apiKeys: 10, clicksPerMonth: 500000, requestsPerMinute: 200 });
    expect(DEFAULT_PLAN_LIMITS.UNLIMITED).toMatchObject({ links: null, apiKeys: null, clicksPerMonth: null, requestsPerMinute: 1000, domains: null });
  });

  it('overrides single fields and leaves the rest', () => {
    const plans = parsePlanLimits('{"FREE":{"requestsPerMinute":20,"links":null},"PRO":{"eventAnalytics":false}}');
    expect(plans.FREE).toEqual({ ...DEFAULT_PLAN_LIMITS.FREE, requestsPerMinute: 20, links: null });
    expect(plans.PRO.eventAnalytics).toBe(false);
    expect(plans.BUSINESS).toEqual(DEFAULT_PLAN_LIMITS.BUSINESS);
    expect(DEFAULT_PLAN_LIMITS.FREE.requestsPerMinute).toBe(10);
  });

  it.each([
    ['not JSON', '{', 'PLAN_LIMITS must be JSON'],
    ['an array', '[]', 'PLAN_LIMITS must be a JSON object'],
    ['an unknown tier', '{"GOLD":{}}', 'PLAN_LIMITS: unknown tier "GOLD"'],
    ['an unknown limit', '{"FREE":{"seats":3}}', 'PLAN_LIMITS.FREE: unknown limit "seats"'],
    ['a negative number', '{"FREE":{"links":-1}}', 'PLAN_LIMITS.FREE.links has an invalid value'],
    ['a fraction', '{"FREE":{"requestsPerMinute":1.5}}', 'PLAN_LIMITS.FREE.requestsPerMinute has an invalid value'],
    ['null where a number is needed', '{"FREE":{"requestsPerMinute":null}}', 'PLAN_LIMITS.FREE.requestsPerMinute has an invalid value'],
    ['a string flag', '{"FREE":{"eventAnalytics":"yes"}}', 'PLAN_LIMITS.FREE.eventAnalytics has an invalid value'],
  ])('refuses %s', (_label, json, message) => {
    expect(() => parsePlanLimits(json)).toThrow(message);
  });
});
