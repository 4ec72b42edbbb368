import type { LinkResponse } from './link-form-editors';
import { UTM_KEYS, type FormState, type Utm } from './link-form-fields';

/** The destination with the UTM parameters, as a visitor will land on it. */
export function withUtm(url: string, utm: Utm): string {
  try {
    const u = new URL(url);
    for (const key of UTM_KEYS) if (utm[key]) u.searchParams.set(`utm_${key}`, utm[key]);
    return u.toString();
  } catch {
    return url;
  }
}

function OgPreview({ f }: { f: FormState }) {
  let host = '';
  try {
    host = new URL(f.originalUrl).host;
  } catch {
    host = 'your-site.com';
  }
  const title = f.ogTitle || f.title || 'Title of the page';
  const description = f.ogDescription || f.description || 'Description shown when the link is shared.';
  return (
    <div className="og-card" aria-label="Social preview" role="img">
      <div className="og-image" style={f.ogImageUrl ? { backgroundImage: `url("${encodeURI(f.ogImageUrl)}")` } : undefined}>
        {!f.ogImageUrl && 'No image'}
      </div>
      <div className="og-text">
        <span className="og-host">{host}</span>
        <span className="og-title">{title}</span>
        <span className="og-desc">{description}</span>
      </div>
    </div>
  );
}

/** The live preview beside the form: the short link, where visitors land, the social card. */
export function LinkFormPreview({ f, link, defaultDomain }: { f: FormState; link?: LinkResponse; defaultDomain?: string }) {
  const landing = withUtm(f.originalUrl, f.utmParameters);
  return (
    <aside className="form side" aria-label="Preview">
      <div className="card form">
        <h2>Preview</h2>
        <div>
          <div className="hint">Short link</div>
          <div className="preview-url" data-testid="short-preview">
            {link && f.domain === link.domain
              ? link.shortUrl
              : `${f.domain || defaultDomain || (link ? link.domain : 'the service’s domain')}/${link ? link.shortCode : f.customCode.trim() || '(random code)'}`}
          </div>
        </div>
        <div>
          <div className="hint">Visitors land on</div>
          <div className="preview-url" data-testid="utm-preview">
            {landing || 'Enter a destination'}
          </div>
        </div>
        <OgPreview f={f} />
      </div>
    </aside>
  );
}
