import { Permissions } from './principal';
import { roleAllows } from './role-permissions';

describe('role permissions (decisions §3)', () => {
  const P = Permissions;
  const table: Array<[string, string, boolean, boolean, boolean, boolean]> = [
    // permission, VIEWER, MEMBER, ADMIN, OWNER
    ['read', P.read, true, true, true, true],
    ['links write', P.linksWrite, false, true, true, true],
    ['templates write', P.templatesWrite, false, true, true, true],
    ['projects write', P.projectsWrite, false, true, true, true],
    ['templates delete', P.templatesDelete, false, false, true, true],
    ['projects delete', P.projectsDelete, false, false, true, true],
    ['webhooks', P.webhooksManage, false, false, true, true],
    ['apps', P.appsManage, false, false, true, true],
    ['pixels', P.pixelsManage, false, false, true, true],
    ['event analytics', P.analyticsEvents, false, true, true, true],
    ['event export', P.analyticsExport, false, false, true, true],
    ['report regeneration', P.reportsRegenerate, false, false, false, true],
    ['members', P.membersManage, false, false, true, true],
    ['domains', P.domainsManage, false, false, true, true],
    ['own API keys', P.keysManage, true, true, true, true],
    ['read conversions', P.conversionsRead, true, true, true, true],
    ['track conversions', P.conversionsWrite, false, true, true, true],
    ['integrations', P.integrationsManage, false, false, true, true],
    ['billing: checkout and portal', P.billingManage, false, false, false, true],
    ['billing: invoices', P.billingInvoices, false, false, true, true],
    ['organization: name and slug', P.organizationManage, false, false, true, true],
    ['organization: require 2FA, export, delete, restore', P.organizationOwn, false, false, false, true],
    ['audit log', P.auditRead, false, false, true, true],
  ];
  it.each(table)('%s', (_label, permission, viewer, member, admin, owner) => {
    expect(
      (['VIEWER', 'MEMBER', 'ADMIN', 'OWNER'] as const).map((role) => roleAllows(role, permission as never)),
    ).toEqual([viewer, member, admin, owner]);
  });

  it('every permission is in the table', () => {
    expect(new Set(table.map((r) => r[1]))).toEqual(new Set(Object.values(Permissions)));
  });
});
