/**
 * The website pixel, served at /api/pixel/v1/script.js. Embed with
 *   <script async src="https://ingest.example.com/api/pixel/v1/script.js" data-site-key="dlp_…"></script>
 * It records a page view on load, keeps the `dl_click` parameter of the landing URL (first-party
 * storage, 30 days) so later conversions are tied to the link, and exposes
 * `window.dlPixel.conversion({value, currency})`. The endpoint is derived from the script's own URL.
 */
export const PIXEL_SCRIPT = `(function (w, d) {
  'use strict';
  if (w.dlPixel && w.dlPixel.loaded) return;
  var script = d.currentScript || (function () { var s = d.querySelectorAll('script[data-site-key]'); return s[s.length - 1]; })();
  if (!script) return;
  var siteKey = script.getAttribute('data-site-key');
  var endpoint = script.src.replace(/\\/script\\.js(\\?.*)?$/, '/event');
  var STORE = 'dl_click';
  var TTL = 30 * 24 * 3600 * 1000;
  function readClick() {
    try {
      var fromUrl = new URL(w.location.href).searchParams.get('dl_click');
      if (fromUrl && /^[0-9a-fA-F-]{36}$/.test(fromUrl)) {
        w.localStorage.setItem(STORE, JSON.stringify({ id: fromUrl, at: Date.now() }));
        return fromUrl;
      }
      var saved = JSON.parse(w.localStorage.getItem(STORE) || 'null');
      if (saved && Date.now() - saved.at < TTL) return saved.id;
    } catch (e) { /* storage blocked: no attribution */ }
    return null;
  }
  function send(type, extra) {
    var body = { siteKey: siteKey, type: type, url: w.location.href };
    if (d.referrer) body.referrer = d.referrer;
    var clickId = readClick();
    if (clickId) body.clickId = clickId;
    if (extra && typeof extra.value === 'number') body.value = extra.value;
    if (extra && typeof extra.currency === 'string') body.currency = extra.currency.toUpperCase();
    try {
      return w.fetch(endpoint, {
        method: 'POST', mode: 'cors', keepalive: true, credentials: 'omit',
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body)
      }).catch(function () {});
    } catch (e) { return undefined; }
  }
  w.dlPixel = {
    loaded: true,
    pageview: function () { return send('pageview'); },
    conversion: function (opts) { return send('conversion', opts || {}); }
  };
  send('pageview');
})(window, document);
`;
