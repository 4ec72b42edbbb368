import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { DnsVerifier, normalizeDomainName } from '@dl/domains';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { sqlState } from '@dl/platform/db';
import { ValidationError, ValidationMap } from '@dl/platform/http';
import { PutSsoDto, SsoResponseDto } from './sso.dto';
import { SsoDomainTakenError, SsoNotConfiguredError } from './sso.errors';
import { SsoConnectionInput, SsoConnectionRow, SsoDomainRow, SsoRepository } from './sso.repository';
import { resolveSamlConnection } from './saml/saml-connection';
import { SecretBox } from './sso-secret';
import { SsoSignInService } from './sso-sign-in.service';
import { checkIdpUrl, IDP_URL_MESSAGE, parseAllowHttpHosts } from './sso-urls';

export const SSO_TXT_PREFIX = '_dl-sso';
export const SSO_TXT_VALUE_PREFIX = 'dl-sso=';
export const ssoTxtName = (domain: string) => `${SSO_TXT_PREFIX}.${domain}`;
export const ssoTxtValue = (token: string) => `${SSO_TXT_VALUE_PREFIX}${token}`;

const REQUIRED = 'Required';

export function toSsoResponse(connection: SsoConnectionRow, domains: SsoDomainRow[]): SsoResponseDto {
  return {
    type: connection.type,
    issuer: connection.issuer,
    clientId: connection.clientId,
    entryPoint: connection.entryPoint,
    domains: domains.map((d) => ({
      domain: d.domain,
      status: d.status,
      verification: { type: 'TXT', name: ssoTxtName(d.domain), value: ssoTxtValue(d.token) },
    })),
    enforce: connection.enforce,
    defaultRole: connection.defaultRole as SsoResponseDto['defaultRole'],
  };
}

/**
 * An organization's single sign-on setting (decisions §25): the identity provider, the email
 * domains and their TXT verification, enforcement and the default role. Owners only (the
 * controller's guard). The client secret is sealed at rest and never answered.
 */
@Injectable()
export class SsoSettingsService {
  private readonly allowHttp: ReadonlySet<string>;
  private readonly box: SecretBox;

  constructor(
    private readonly repo: SsoRepository,
    private readonly dns: DnsVerifier,
    private readonly audit: AuditSink,
    private readonly signIn: SsoSignInService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.allowHttp = parseAllowHttpHosts(config.SSO_ALLOW_HTTP_HOSTS);
    this.box = new SecretBox(config.JWT_SECRET);
  }

  async get(organizationId: string): Promise<SsoResponseDto> {
    const connection = await this.repo.findConnection(organizationId);
    if (!connection) throw new SsoNotConfiguredError();
    return toSsoResponse(connection, await this.repo.listDomains(organizationId));
  }

  /** Replaces the setting. Domains kept keep their status and token; new ones start pending; removed ones go. */
  async put(organizationId: string, dto: PutSsoDto): Promise<SsoResponseDto> {
    const existing = await this.repo.findConnection(organizationId);
    const input = this.connectionInput(dto, existing);
    const domains = [...new Set((dto.domains ?? []).map((d) => normalizeDomainName(d)!))];
    const { added, removed } = await this.repo.transaction(async (tx) => {
      await this.repo.lockOrganization(tx, organizationId);
      const current = await this.repo.listDomains(organizationId, tx);
      const have = new Set(current.map((d) => d.domain));
      const added = domains.filter((d) => !have.has(d));
      const removed = current.map((d) => d.domain).filter((d) => !domains.includes(d));
      for (const domain of added) {
        if (await this.repo.verifiedElsewhere(domain, organizationId, tx)) throw new SsoDomainTakenError(domain);
        await this.repo.addDomain(tx, organizationId, domain, randomBytes(16).toString('hex'));
      }
      await this.repo.removeDomains(tx, organizationId, removed);
      await this.repo.upsertConnection(tx, organizationId, input);
      return { added, removed };
    });
    this.signIn.policyChanged();
    this.audit.record({
      organizationId,
      action: 'sso.updated',
      changes: {
        type: input.type,
        issuer: input.issuer,
        clientId: input.clientId,
        entryPoint: input.entryPoint,
        // Whether a new client secret was given (named so that redaction, which hides secret-named fields, keeps it).
        clientCredentialChanged: dto.clientSecret !== undefined && dto.clientSecret !== null,
        enforce: input.enforce,
        defaultRole: input.defaultRole,
        domainsAdded: added,
        domainsRemoved: removed,
      },
    });
    return this.get(organizationId);
  }

  /**
   * Looks the TXT records of the pending domains up now. A domain whose record is found is
   * verified unless another organization verified it first (409, after the others are checked).
   */
  async verify(organizationId: string): Promise<SsoResponseDto> {
    if (!(await this.repo.findConnection(organizationId))) throw new SsoNotConfiguredError();
    let taken: string | null = null;
    for (const d of await this.repo.listDomains(organizationId)) {
      if (d.status === 'verified') continue;
      const result = await this.dns.checkTxt(ssoTxtName(d.domain), ssoTxtValue(d.token));
      if (!result.ok) continue;
      if (await this.repo.verifiedElsewhere(d.domain, organizationId)) {
        taken ??= d.domain;
        continue;
      }
      try {
        await this.repo.markVerified(organizationId, d.id, new Date());
      } catch (err) {
        // The partial unique index: another organization verified it between the check and the write.
        if (sqlState(err) !== '23505' && (err as { code?: string }).code !== 'P2002') throw err;
        taken ??= d.domain;
        continue;
      }
      this.signIn.policyChanged();
      this.audit.record({ organizationId, action: 'sso.domain_verified', targetId: d.id, changes: { domain: d.domain } });
    }
    if (taken) throw new SsoDomainTakenError(taken);
    return this.get(organizationId);
  }

  /** The stored columns of a valid body, or ValidationError naming each bad field. */
  private connectionInput(dto: PutSsoDto, existing: SsoConnectionRow | null): SsoConnectionInput {
    const problems: ValidationMap = {};
    const url = (field: 'issuer' | 'entryPoint', value: string | undefined | null): string | null => {
      if (value === undefined || value === null) return null;
      const checked = checkIdpUrl(value, this.allowHttp);
      if (!checked) problems[field] = IDP_URL_MESSAGE;
      return checked;
    };
    const base = { enforce: dto.enforce ?? false, defaultRole: dto.defaultRole ?? 'MEMBER' } as const;
    if (dto.type === 'oidc') {
      const issuer = url('issuer', dto.issuer);
      if (!dto.issuer) problems.issuer = REQUIRED;
      if (!dto.clientId) problems.clientId = REQUIRED;
      const keep = existing?.type === 'oidc' && existing.clientSecret ? existing.clientSecret : null;
      if (!dto.clientSecret && !keep) problems.clientSecret = REQUIRED;
      if (Object.keys(problems).length) throw new ValidationError(problems);
      return {
        type: 'oidc',
        issuer,
        clientId: dto.clientId!.trim(),
        clientSecret: dto.clientSecret ? this.box.seal(dto.clientSecret) : keep,
        entryPoint: null,
        certificate: null,
        idpMetadataXml: null,
        ...base,
      };
    }
    const entryPoint = url('entryPoint', dto.entryPoint);
    if (!dto.idpMetadataXml) {
      if (!dto.entryPoint) problems.entryPoint = REQUIRED;
      if (!dto.certificate) problems.certificate = REQUIRED;
    }
    if (Object.keys(problems).length) throw new ValidationError(problems);
    // The metadata's XML, SingleSignOnService and certificates, or the certificate, checked now (400 naming the field).
    const saml = resolveSamlConnection({ ...dto, entryPoint }, { allowHttpHosts: this.allowHttp });
    return {
      type: 'saml',
      issuer: null,
      clientId: null,
      clientSecret: null,
      entryPoint: saml.entryPoint,
      certificate: dto.idpMetadataXml ? null : saml.certificates[0],
      idpMetadataXml: dto.idpMetadataXml ?? null,
      ...base,
    };
  }
}
