import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import type { operations } from '../api/schema';
import { fmtNumber } from '../components/format';
import { ErrorBanner, Field, fieldErrors, Loading, SelectField } from '../components/ui';
import { useToast } from '../components/toasts';

/** The options of GET /api/links/{id}/qr, as the client types them. */
type QrOptions = Required<NonNullable<operations['LinksController_qrCode']['parameters']['query']>>;
type Choices<K extends keyof QrOptions> = ReadonlyArray<readonly [QrOptions[K], string]>;
const FORMATS: Choices<'format'> = [
  ['png', 'PNG'],
  ['svg', 'SVG'],
];
const SIZES: Choices<'size'> = ([128, 256, 512, 1024, 2048] as const).map((s) => [s, String(s)] as const);
const ECCS: Choices<'ecc'> = [
  ['L', 'Low'],
  ['M', 'Medium'],
  ['Q', 'Quartile'],
  ['H', 'High'],
];
const DOTS: Choices<'dots'> = [
  ['square', 'Square'],
  ['rounded', 'Rounded'],
  ['dots', 'Dots'],
];
const CORNERS: Choices<'corners'> = [
  ['square', 'Square'],
  ['rounded', 'Rounded'],
  ['dot', 'Dot'],
];

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

/** The link's QR code: a preview, its options and logo, and a download of the image the options name. */
export function QrPanel({ id, code }: { id: string; code: string }) {
  const [format, setFormat] = useState<QrOptions['format']>('png');
  const [size, setSize] = useState<QrOptions['size']>(512);
  const [fg, setFg] = useState('#000000');
  const [bg, setBg] = useState('#ffffff');
  const [ecc, setEcc] = useState<QrOptions['ecc']>('M');
  const [margin, setMargin] = useState(2);
  const [dots, setDots] = useState<QrOptions['dots']>('square');
  const [corners, setCorners] = useState<QrOptions['corners']>('square');
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
            <SelectField label="Format" value={format} onChange={setFormat} options={FORMATS} />
            <SelectField label="Size (px)" value={size} onChange={setSize} options={SIZES} />
            <SelectField
              label="Error correction"
              value={hasLogo ? 'H' : ecc}
              onChange={setEcc}
              options={ECCS}
              disabled={hasLogo}
              hint={hasLogo ? 'High whenever a logo is shown' : undefined}
            />
          </div>
          <div className="form-row">
            <SelectField label="Dots" value={dots} onChange={setDots} options={DOTS} />
            <SelectField label="Corners" value={corners} onChange={setCorners} options={CORNERS} />
            <Field label="Margin">{(p) => <input {...p} type="number" min={0} max={16} value={margin} onChange={(e) => setMargin(Number(e.target.value))} />}</Field>
          </div>
          <div className="form-row">
            <Field label="Foreground">{(p) => <input {...p} type="color" value={fg} onChange={(e) => setFg(e.target.value)} />}</Field>
            <Field label="Background">{(p) => <input {...p} type="color" value={bg} onChange={(e) => setBg(e.target.value)} />}</Field>
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
