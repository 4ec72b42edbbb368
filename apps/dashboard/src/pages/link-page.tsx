import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { FilterChips, FilterList, filterQuery, type Filters, LivePanel, readFilters, useUrlFilters } from '../components/analytics-view';
import { BarList, RangePicker, TimeSeries, type Range } from '../components/charts';
import { fmtDateTime, fmtNumber, timeZone } from '../components/format';
import { fmtRevenue } from '../components/money';
import { ConfirmDialog, CopyButton, ErrorBanner, Field, fieldErrors, Loading, PageHeader, Stat } from '../components/ui';
import { useToast } from '../components/toasts';

type QrFormat = 'png' | 'svg';
type Ecc = 'L' | 'M' | 'Q' | 'H';
type QrDots = 'square' | 'rounded' | 'dots';
type QrCorners = 'square' | 'rounded' | 'dot';
const QR_SIZES = [128, 256, 512, 1024, 2048] as const;
type QrSize = (typeof QR_SIZES)[number];
/** Decisions §24: a logo is a PNG or SVG of at most 100 KB. */
const LOGO_MAX_BYTES = 100 * 1024;

const logoError = (message: string) => new ApiError(400, { error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { logo: message } });

/**
 * The PNG rendering of an SVG logo (the api draws it in PNG codes): the SVG drawn in an image
 * element (no script runs there) onto a canvas, as large as fits in 100 KB.
 */
async function rasterizeSvg(file: File): Promise<Blob> {
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const ratio = img.naturalWidth && img.naturalHeight ? img.naturalWidth / img.naturalHeight : 1;
    for (const side of [512, 256, 128]) {
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(ratio >= 1 ? side : side * ratio);
      canvas.height = Math.round(ratio >= 1 ? side / ratio : side);
      canvas.getContext('2d')?.drawImage(img, 0, 0, canvas.width, canvas.height);
      const png = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (png && png.size <= LOGO_MAX_BYTES) return png;
    }
    throw logoError('This SVG could not be drawn as a PNG of at most 100 KB');
  } finally {
    URL.revokeObjectURL(url);
  }
}

const useQrLogo = (id: string) =>
  useQuery({
    queryKey: ['qr-logo', id],
    queryFn: () => unwrap(api.GET('/api/links/{id}/qr/logo', { params: { path: { id } } })),
  });

/** The link's QR logo: upload (PNG or SVG up to 100 KB), show or hide it in the code, remove it. */
function QrLogoPicker({ id, show, onShow }: { id: string; show: boolean; onShow: (show: boolean) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const logo = useQrLogo(id);
  const [error, setError] = useState<unknown>(null);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['qr-logo', id] }), queryClient.invalidateQueries({ queryKey: ['qr', id] })]);
  const upload = useMutation({
    mutationFn: async (file: File) => {
      if (file.size > LOGO_MAX_BYTES) throw logoError('Must be at most 100 KB');
      const form = new FormData();
      form.set('logo', file);
      if (file.type === 'image/svg+xml' || /\.svg$/i.test(file.name)) form.set('raster', await rasterizeSvg(file), 'raster.png');
      return unwrap(api.PUT('/api/links/{id}/qr/logo', { params: { path: { id } }, body: form as unknown as { logo: string } }));
    },
    onSuccess: async () => {
      setError(null);
      onShow(true);
      await refresh();
      toast('Logo added to the QR code');
    },
    onError: setError,
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/links/{id}/qr/logo', { params: { path: { id } } })),
    onSuccess: async () => {
      setError(null);
      await refresh();
      toast('Logo removed');
    },
    onError: setError,
  });
  const current = logo.data?.logo;
  const errors = fieldErrors(error);
  return (
    <div className="qr-logo">
      <Field label="Logo" error={errors.logo ?? errors.raster} hint="PNG or SVG, up to 100 KB: drawn in the centre, with high error correction">
        {(p) => (
          <input
            {...p}
            type="file"
            accept="image/png,image/svg+xml,.png,.svg"
            disabled={upload.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) upload.mutate(file);
            }}
          />
        )}
      </Field>
      {current && (
        <div className="qr-logo-current">
          <label className="checkbox">
            <input type="checkbox" checked={show} onChange={(e) => onShow(e.target.checked)} /> Show logo ({current.contentType === 'image/svg+xml' ? 'SVG' : 'PNG'},{' '}
            {fmtNumber(Math.ceil(current.bytes / 1024))} KB)
          </label>
          <button type="button" className="button ghost" onClick={() => remove.mutate()} disabled={remove.isPending}>
            Remove logo
          </button>
        </div>
      )}
      {upload.isPending && <Loading label="Uploading logo…" />}
      <ErrorBanner error={error} fields={['logo', 'raster']} />
    </div>
  );
}

function QrPanel({ id, code }: { id: string; code: string }) {
  const [format, setFormat] = useState<QrFormat>('png');
  const [size, setSize] = useState<QrSize>(512);
  const [fg, setFg] = useState('#000000');
  const [bg, setBg] = useState('#ffffff');
  const [ecc, setEcc] = useState<Ecc>('M');
  const [margin, setMargin] = useState(2);
  const [dots, setDots] = useState<QrDots>('square');
  const [corners, setCorners] = useState<QrCorners>('square');
  const [showLogo, setShowLogo] = useState(true);
  const hasLogo = Boolean(useQrLogo(id).data?.logo) && showLogo;
  const query = { format, size, margin, ecc, fg: fg.slice(1), bg: bg.slice(1), dots, corners, logo: showLogo };
  // `no-cache`: the api answers with a day's max-age, and a new logo changes the image behind the same URL.
  const qr = useQuery({
    queryKey: ['qr', id, query],
    queryFn: () => unwrap(api.GET('/api/links/{id}/qr', { params: { path: { id }, query }, parseAs: 'blob', cache: 'no-cache' })) as Promise<unknown> as Promise<Blob>,
  });
  // The blob's URL with the options it was rendered for: the preview may show the previous
  // image while a new one loads, but the download link only offers the image the options
  // name (a stale blob was revoked under a download in progress). The effect runs on new
  // data only: `key` is then the data's own key.
  const key = JSON.stringify(query);
  const [loaded, setLoaded] = useState<{ url: string; key: string } | null>(null);
  useEffect(() => {
    if (!qr.data) return;
    const url = URL.createObjectURL(qr.data);
    setLoaded({ url, key });
    return () => URL.revokeObjectURL(url);
  }, [qr.data]);
  const preview = loaded?.url ?? '';
  const src = loaded && loaded.key === key ? loaded.url : '';
  return (
    <section className="card" aria-labelledby="qr-title">
      <h2 id="qr-title">QR code</h2>
      <div className="qr-box">
        {preview ? <img src={preview} alt={`QR code for /${code}`} /> : <div className="qr-placeholder"><Loading label="" /></div>}
        <div className="form" style={{ flex: '1 1 220px' }}>
          <div className="form-row">
            <label className="field">
              Format
              <select value={format} onChange={(e) => setFormat(e.target.value as QrFormat)}>
                <option value="png">PNG</option>
                <option value="svg">SVG</option>
              </select>
            </label>
            <label className="field">
              Size (px)
              <select value={size} onChange={(e) => setSize(Number(e.target.value) as QrSize)}>
                {QR_SIZES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
            <label className="field">
              Error correction
              <select value={hasLogo ? 'H' : ecc} disabled={hasLogo} onChange={(e) => setEcc(e.target.value as Ecc)} title={hasLogo ? 'High whenever a logo is shown' : undefined}>
                <option value="L">Low</option>
                <option value="M">Medium</option>
                <option value="Q">Quartile</option>
                <option value="H">High</option>
              </select>
            </label>
          </div>
          <div className="form-row">
            <label className="field">
              Dots
              <select value={dots} onChange={(e) => setDots(e.target.value as QrDots)}>
                <option value="square">Square</option>
                <option value="rounded">Rounded</option>
                <option value="dots">Dots</option>
              </select>
            </label>
            <label className="field">
              Corners
              <select value={corners} onChange={(e) => setCorners(e.target.value as QrCorners)}>
                <option value="square">Square</option>
                <option value="rounded">Rounded</option>
                <option value="dot">Dot</option>
              </select>
            </label>
            <label className="field">
              Margin
              <input type="number" min={0} max={16} value={margin} onChange={(e) => setMargin(Number(e.target.value))} />
            </label>
          </div>
          <div className="form-row">
            <label className="field">
              Foreground
              <input type="color" value={fg} onChange={(e) => setFg(e.target.value)} />
            </label>
            <label className="field">
              Background
              <input type="color" value={bg} onChange={(e) => setBg(e.target.value)} />
            </label>
          </div>
          <QrLogoPicker id={id} show={showLogo} onShow={setShowLogo} />
          <ErrorBanner error={qr.error} />
          <a className="button primary" href={src || undefined} download={`${code}.${format}`} aria-disabled={!src}>
            Download {format.toUpperCase()}
          </a>
        </div>
      </div>
    </section>
  );
}

export default function LinkPage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const days = (Number(params.get('days')) || 30) as Range;
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const link = useQuery({ queryKey: ['link', id], queryFn: () => unwrap(api.GET('/api/links/{id}', { params: { path: { id } } })) });
  // The Analytics page's filters (a row click sets one, chips remove it), without the link filter.
  const filters = useMemo(() => {
    const { linkId: _link, ...rest } = readFilters(params);
    return rest as Filters;
  }, [params]);
  const { update, setFilter, removeFilter } = useUrlFilters(params, setParams);
  const stats = useQuery({
    queryKey: ['link-analytics', id, days, filters],
    queryFn: () =>
      unwrap(api.GET('/api/analytics/links/{linkId}', { params: { path: { linkId: id }, query: { days, tz: timeZone, ...filterQuery(filters) } } })),
    placeholderData: (previous) => previous,
  });
  const clicks = useQuery({
    queryKey: ['link-clicks', id],
    queryFn: () => unwrap(api.GET('/api/analytics/clicks/{linkId}', { params: { path: { linkId: id }, query: { limit: 50 } } })),
  });
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/links/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      toast('Link deleted');
      await queryClient.invalidateQueries({ queryKey: ['links'] });
      navigate('/links');
    },
  });

  if (link.isPending) return <Loading />;
  if (link.error) return <ErrorBanner error={link.error} />;
  const l = link.data;
  const s = stats.data;
  const extra = (s ?? {}) as { clicksByReferrer?: Array<{ referrer: string; clicks: number }>; clicksByVariant?: Array<{ variant: number; url: string; clicks: number }>; clicksByRule?: Array<{ rule: number | null; clicks: number }> };

  return (
    <section className="page">
      <PageHeader title={l.title || `/${l.shortCode}`}>
        <Link className="button" to={`/links/${id}/edit`}>
          Edit
        </Link>
        <button type="button" className="button danger" onClick={() => setConfirming(true)}>
          Delete
        </button>
      </PageHeader>
      <div className="card copy-row">
        <a href={l.shortUrl} target="_blank" rel="noreferrer" data-testid="short-url">
          {l.shortUrl}
        </a>
        <CopyButton value={l.shortUrl} label="Copy short URL" />
        <span className={`pill ${l.status === 'active' ? 'ok' : 'bad'}`}>{l.status}</span>
        <span className="muted truncate">→ {l.originalUrl}</span>
      </div>

      <div className="page-header">
        <h2>Analytics</h2>
        <RangePicker value={days} onChange={(d) => update((next) => next.set('days', String(d)))} />
      </div>
      <ErrorBanner error={stats.error} />
      {stats.isPending ? (
        <Loading label="Loading analytics…" />
      ) : s ? (
        <>
          <div className="grid-3">
            <Stat label={`Clicks (${days} days)`} value={fmtNumber(s.totalClicks)} testId="total-clicks" />
            <Stat label="Unique visitors" value={fmtNumber(s.uniqueClicks)} />
            <Stat label="All-time clicks" value={fmtNumber(l.clickCount)} />
          </div>
          <FilterChips filters={filters} onRemove={removeFilter} />
          <div className="grid-3" aria-label="Conversions">
            <Stat label={`Leads (${days} days)`} value={fmtNumber(s.leads)} testId="link-leads" />
            <Stat label="Sales" value={fmtNumber(s.sales)} testId="link-sales" />
            <Stat label="Net revenue" value={fmtRevenue(s.revenue)} plain />
          </div>
          <div className="card">
            <h3>Clicks by day ({timeZone})</h3>
            <TimeSeries points={s.clicksByDate.map((d) => ({ date: d.date, value: d.clicks }))} label="Clicks" />
          </div>
          <div className="grid-3">
            <FilterList
              title="Countries"
              filterKey="country"
              filters={filters}
              onFilter={setFilter}
              rows={s.clicksByCountry.map((c) => ({ value: c.countryCode, label: c.country || c.countryCode, clicks: c.clicks }))}
            />
            <FilterList
              title="Cities"
              filterKey="city"
              filters={filters}
              onFilter={setFilter}
              rows={s.clicksByCity.map((c) => ({ value: c.city, label: [c.city, c.countryCode].filter(Boolean).join(', '), clicks: c.clicks }))}
            />
            <FilterList
              title="Devices"
              filterKey="device"
              filters={filters}
              onFilter={setFilter}
              rows={s.clicksByDevice.map((c) => ({ value: c.device, label: c.device, clicks: c.clicks }))}
            />
            <div className="card">
              <h3>Platforms</h3>
              <BarList rows={s.clicksByPlatform.map((c) => ({ label: c.platform || 'Unknown', value: c.clicks }))} />
            </div>
            {extra.clicksByReferrer && (
              <div className="card">
                <h3>Referrers</h3>
                <BarList rows={extra.clicksByReferrer.map((c) => ({ label: c.referrer || 'Direct', value: c.clicks }))} />
              </div>
            )}
            {extra.clicksByVariant && extra.clicksByVariant.length > 0 && (
              <div className="card">
                <h3>Variants</h3>
                <BarList rows={extra.clicksByVariant.map((c) => ({ label: `#${c.variant + 1} ${c.url}`, value: c.clicks }))} />
              </div>
            )}
            {extra.clicksByRule && extra.clicksByRule.length > 0 && (
              <div className="card">
                <h3>Redirect rules</h3>
                <BarList rows={extra.clicksByRule.map((c) => ({ label: c.rule === null ? 'No rule' : `Rule ${c.rule + 1}`, value: c.clicks }))} />
              </div>
            )}
          </div>
        </>
      ) : null}

      <LivePanel linkId={id} />

      <div className="card">
        <h2>Recent clicks</h2>
        <p className="hint">Times in {timeZone}. Bots are not counted.</p>
        <ErrorBanner error={clicks.error} />
        {clicks.isPending ? (
          <Loading />
        ) : clicks.data && clicks.data.length ? (
          <div className="table-wrap">
            <table className="plain" data-testid="click-list">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Where</th>
                  <th>Device</th>
                  <th>Browser</th>
                  <th>Referrer</th>
                </tr>
              </thead>
              <tbody>
                {clicks.data.map((c) => (
                  <tr key={c.id}>
                    <td>{fmtDateTime(c.clickedAt)}</td>
                    <td>{[c.city, c.countryName ?? c.countryCode].filter(Boolean).join(', ') || '—'}</td>
                    <td>{[c.deviceType, c.os].filter(Boolean).join(' · ') || '—'}</td>
                    <td>{c.browser ?? '—'}</td>
                    <td className="truncate">{c.referrer ?? 'Direct'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">No clicks yet. Share the short URL above; clicks appear here within seconds.</p>
        )}
      </div>

      <QrPanel id={id} code={l.shortCode} />

      <ConfirmDialog
        open={confirming}
        title={`Delete /${l.shortCode}?`}
        body={<p>The short URL stops working at once. Its analytics are kept for reports.</p>}
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
      <ErrorBanner error={remove.error} />
    </section>
  );
}
