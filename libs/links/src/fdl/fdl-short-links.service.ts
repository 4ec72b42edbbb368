import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Principal } from '@dl/auth';
import { FdlParams, fdlLinkValues, fdlParamsOf, isHttpUrl } from '@dl/link-fields';
import { ValidationError } from '@dl/platform/http';
import { isPlainObject, parseUrl } from '@dl/platform/validation';
import { CreateLinkDto } from '../link.dto';
import { LinksImportService } from '../import/links-import.service';
import { LinksService } from '../links.service';
import { firstField, validateItem } from '../validate-item';
import { FdlShortLinkRequestDto, FdlShortLinkResponseDto, FdlWarningDto, isFdlSuffixOption } from './fdl-short-links.dto';

/** `dynamicLinkInfo`'s nested fields → the long link parameter each is. */
const INFO_PARAMS: Array<[string, string, keyof FdlParams]> = [
  ['androidInfo', 'androidPackageName', 'apn'],
  ['androidInfo', 'androidFallbackLink', 'afl'],
  ['androidInfo', 'androidMinPackageVersionCode', 'amv'],
  ['iosInfo', 'iosBundleId', 'ibi'],
  ['iosInfo', 'iosFallbackLink', 'ifl'],
  ['iosInfo', 'iosCustomScheme', 'ius'],
  ['iosInfo', 'iosIpadFallbackLink', 'ipfl'],
  ['iosInfo', 'iosIpadBundleId', 'ipbi'],
  ['iosInfo', 'iosAppStoreId', 'isi'],
  ['desktopInfo', 'desktopFallbackLink', 'ofl'],
  ['socialMetaTagInfo', 'socialTitle', 'st'],
  ['socialMetaTagInfo', 'socialDescription', 'sd'],
  ['socialMetaTagInfo', 'socialImageLink', 'si'],
];
const UTM_FIELDS: Array<[string, keyof FdlParams]> = [
  ['utmSource', 'utm_source'],
  ['utmMedium', 'utm_medium'],
  ['utmCampaign', 'utm_campaign'],
  ['utmTerm', 'utm_term'],
  ['utmContent', 'utm_content'],
];
/** Parameters FDL's links carry that a link here does not act on (answered as warnings). */
const NOT_APPLIED: Array<keyof FdlParams> = ['amv', 'ius', 'imv', 'ipbi', 'ibi', 'efr'];
const URL_PARAMS: Array<keyof FdlParams> = ['afl', 'ifl', 'ipfl', 'ofl', 'si'];

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** FDL's UNGUESSABLE suffix: 17 characters (about 101 bits); SHORT is the service's own random code. */
const unguessable = () => Array.from(randomBytes(17), (b) => BASE62[b % 62]).join('');

interface Parsed {
  params: FdlParams;
  domain: string | undefined;
  /** Where `link` came from, for the error's field name. */
  linkField: string;
}

/**
 * `POST /v1/shortLinks` (decisions §26): Firebase Dynamic Links' request (`longDynamicLink` or
 * `dynamicLinkInfo`, `suffix.option`) becomes a link with the same destinations, made by the
 * same create path as `POST /api/links` (validation, screening, quota), answered in FDL's shape.
 */
@Injectable()
export class FdlShortLinksService {
  constructor(
    private readonly links: LinksService,
    private readonly imports: LinksImportService,
  ) {}

  async create(principal: Principal, body: FdlShortLinkRequestDto): Promise<FdlShortLinkResponseDto> {
    const { params, domain, linkField } = this.parse(body);
    if (!isHttpUrl(params.link)) throw new ValidationError({ [linkField]: 'Must be an http(s) URL' });
    for (const p of URL_PARAMS) {
      if (params[p] !== undefined && params[p] !== '' && !isHttpUrl(params[p])) throw new ValidationError({ [this.fieldOf(body, p)]: 'Must be an http(s) URL' });
    }
    const option = body.suffix?.option ?? 'UNGUESSABLE';
    const dto = {
      ...fdlLinkValues(params),
      templateId: await this.imports.templateIdFor(principal.organizationId),
      ...(domain === undefined ? {} : { domain }),
      ...(option === 'UNGUESSABLE' ? { customCode: unguessable() } : {}),
    };
    const { value, errors } = validateItem(CreateLinkDto, dto);
    if (Object.keys(errors).length) {
      const first = firstField(errors);
      throw new ValidationError({ [first === 'originalUrl' ? linkField : first]: errors[first] });
    }
    const created = await this.links.create(principal, value);
    const warning: FdlWarningDto[] = NOT_APPLIED.filter((p) => params[p]).map((p) => ({
      warningCode: 'NOT_IMPLEMENTED',
      warningMessage: `Param '${p}' is accepted but not applied to the short link`,
    }));
    return { shortLink: created.short_url, previewLink: `${created.short_url}/preview`, warning };
  }

  private parse(body: FdlShortLinkRequestDto): Parsed {
    if (body.suffix !== undefined && !isFdlSuffixOption(body.suffix.option)) throw new ValidationError({ 'suffix.option': 'Must be SHORT or UNGUESSABLE' });
    if (body.dynamicLinkInfo !== undefined && body.longDynamicLink !== undefined) {
      throw new ValidationError({ longDynamicLink: 'Give either longDynamicLink or dynamicLinkInfo, not both' });
    }
    if (body.longDynamicLink !== undefined) {
      const url = parseUrl(body.longDynamicLink);
      if (!url) throw new ValidationError({ longDynamicLink: 'Must be a URL of your domain with the link parameters' });
      return { params: fdlParamsOf(url.searchParams), domain: url.hostname, linkField: 'longDynamicLink' };
    }
    const info = body.dynamicLinkInfo;
    if (info === undefined) throw new ValidationError({ dynamicLinkInfo: 'Give longDynamicLink or dynamicLinkInfo' });
    const params: FdlParams = {};
    const text = (path: string, v: unknown): string | undefined => {
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new ValidationError({ [path]: 'Must be a string' });
      return String(v);
    };
    params.link = text('dynamicLinkInfo.link', info.link);
    for (const [group, field, param] of INFO_PARAMS) {
      const g = (info as unknown as Record<string, unknown>)[group];
      if (g === undefined) continue;
      if (!isPlainObject(g)) throw new ValidationError({ [`dynamicLinkInfo.${group}`]: 'Must be an object' });
      params[param] = text(`dynamicLinkInfo.${group}.${field}`, g[field]);
    }
    const play = info.analyticsInfo?.googlePlayAnalytics as Record<string, unknown> | undefined;
    if (play !== undefined && isPlainObject(play)) for (const [field, param] of UTM_FIELDS) params[param] = text(`dynamicLinkInfo.analyticsInfo.googlePlayAnalytics.${field}`, play[field]);
    if (info.navigationInfo?.enableForcedRedirect) params.efr = '1';
    // dynamicLinkDomain: FDL's deprecated name for the same domain, still sent by older clients.
    const prefixField = info.domainUriPrefix === undefined && info.dynamicLinkDomain !== undefined ? 'dynamicLinkDomain' : 'domainUriPrefix';
    const prefix = text(`dynamicLinkInfo.${prefixField}`, info[prefixField]);
    let domain: string | undefined;
    if (prefix !== undefined) {
      try {
        domain = new URL(prefix.includes('://') ? prefix : `https://${prefix}`).hostname;
      } catch {
        throw new ValidationError({ [`dynamicLinkInfo.${prefixField}`]: 'Must be https://<a verified domain of your organization>' });
      }
    }
    return { params, domain, linkField: 'dynamicLinkInfo.link' };
  }

  /** The request field a parameter came from (for an error naming it). */
  private fieldOf(body: FdlShortLinkRequestDto, param: keyof FdlParams): string {
    if (body.longDynamicLink !== undefined) return 'longDynamicLink';
    const found = INFO_PARAMS.find(([, , p]) => p === param);
    return found ? `dynamicLinkInfo.${found[0]}.${found[1]}` : 'dynamicLinkInfo';
  }
}
