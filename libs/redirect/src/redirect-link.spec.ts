import { LINK_EDGE_FIELDS, linkField } from '@dl/link-fields';
import { sampleLinkValues } from '@dl/testing';
import { SNAPSHOT_COLUMNS, SnapshotRow, toRedirectSnapshot } from './redirect-link';

describe('the redirect snapshot (derived from the fields declared `edge`)', () => {
  const samples = sampleLinkValues();
  const identity = { id: '3f0c6a52-7f4e-4d1e-9a5c-2b8f1e0d4c11', organizationId: 'b7f1e0d4-2c11-4a52-8f4e-3f0c6a527d1e', shortCode: 'Edge001' };

  /** A `links` row as `pg` returns it, every edge column set. */
  const row = (): SnapshotRow => {
    const out: SnapshotRow = {
      id: identity.id,
      organization_id: identity.organizationId,
      short_code: identity.shortCode,
      is_active: true,
      safety_status: 'suspicious',
      safety_reason: 'mixed scripts',
    };
    for (const key of LINK_EDGE_FIELDS) out[linkField(key).column] = samples[key];
    return out;
  };

  it('selects the identity, the state and every edge field, and maps each one (dates as epoch milliseconds)', () => {
    expect(SNAPSHOT_COLUMNS.slice(0, 6)).toEqual(['id', 'organization_id', 'short_code', 'is_active', 'safety_status', 'safety_reason']);
    expect(SNAPSHOT_COLUMNS.slice(6)).toEqual(LINK_EDGE_FIELDS.map((key) => linkField(key).column));
    const expected: Record<string, unknown> = { ...identity, isActive: true, safetyStatus: 'suspicious', safetyReason: 'mixed scripts' };
    for (const key of LINK_EDGE_FIELDS) {
      const value = samples[key];
      expected[key] = value instanceof Date ? value.getTime() : value;
    }
    const snapshot = toRedirectSnapshot(row());
    expect(snapshot).toEqual(expected);
    // It travels through Redis as JSON unchanged.
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  it('an unset column reads as unset: null, false, or no list', () => {
    const empty: SnapshotRow = { id: identity.id, organization_id: identity.organizationId, short_code: identity.shortCode, is_active: false };
    for (const key of LINK_EDGE_FIELDS) empty[linkField(key).column] = null;
    const snapshot = toRedirectSnapshot(empty) as unknown as Record<string, unknown>;
    // A row without screening (a snapshot cached before it existed) reads as ok.
    expect(snapshot).toMatchObject({ safetyStatus: 'ok', safetyReason: null });
    for (const key of LINK_EDGE_FIELDS) {
      const expected = linkField(key).kind === 'boolean' ? false : null;
      expect({ key, value: snapshot[key] }).toEqual({ key, value: expected });
    }
    // A suspended organization's link is blocked whatever its own screening says.
    expect(toRedirectSnapshot({ ...row(), org_suspended: true })).toMatchObject({ safetyStatus: 'blocked', safetyReason: 'organization suspended' });
    // Empty stored lists are no lists: the edge tests `variants` and `redirectRules` for null.
    expect(toRedirectSnapshot({ ...row(), variants: [], redirect_rules: '[]' })).toMatchObject({ variants: null, redirectRules: null });
  });
});
