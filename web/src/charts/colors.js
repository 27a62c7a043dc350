// Shared colours: one per estimator, and the sequential scale of the heatmaps (light = 0, dark red = max).
// The estimators use Okabe and Ito's colour-blind-safe palette, and each line also has its own dash
// pattern (lineDash), so no reader has to tell two lines apart by hue alone.

// The reader's colour scheme, read once at start (the page reloads when it changes; see page.js).
const dark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

// Text and grid lines of the charts, and the page's background (style.css's --bg), for a light or a
// dark page.
const ink = dark
  ? { text: '#d4d4d4', grid: 'rgba(255, 255, 255, 0.16)', background: '#121212' }
  : { text: '#555555', grid: 'rgba(0, 0, 0, 0.1)', background: '#ffffff' };

const estimator = {
  // Black on a light page, near-white on a dark one: the truth is the line of most contrast either way.
  truth: dark ? '#f0f0f0' : '#000000',
  data: '#0072b2',
  average: '#7f7f7f',
  nonparametric: '#0072b2',
  parametric: '#d55e00',
  query: '#cc79a7',
};

const lineDash = {
  truth: [],
  average: [6, 4],
  nonparametric: [],
  parametric: [12, 4],
  query: [2, 3],
};

// A colour of the palette ('#rrggbb') with an opacity: 'rgba(r, g, b, alpha)'.
function translucent(hex, alpha) {
  const [r, g, b] = hex.match(/[0-9a-f]{2}/gi).map((pair) => parseInt(pair, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

// Like matplotlib's "Reds", the colour map of the chapter's figures.
const stops = [
  [255, 245, 240], [254, 224, 210], [252, 187, 161], [252, 146, 114],
  [251, 106, 74], [239, 59, 44], [203, 24, 29], [165, 15, 21], [103, 0, 13],
];

// t in [0, 1] -> [r, g, b], interpolated between the stops.
function heatRgb(t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return stops[i].map((v, k) => Math.round(v + f * (stops[i + 1][k] - v)));
}

// t in [0, 1] -> "rgb(r, g, b)"
function heat(t) {
  const [r, g, b] = heatRgb(t);
  return `rgb(${r}, ${g}, ${b})`;
}

// The heatmaps' colour lookup table: entry k is heatRgb(k / 255), opaque, as one 32-bit pixel of an
// ImageData (bytes r, g, b, a in memory: little-endian, as on every platform browsers run on).
const HEAT_LEVELS = 256;
const heatLut = Uint32Array.from({ length: HEAT_LEVELS }, (_, k) => {
  const [r, g, b] = heatRgb(k / (HEAT_LEVELS - 1));
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
});
// The table's entry for a weight v on a scale whose darkest colour is max.
const heatLevel = (v, max) => Math.min(HEAT_LEVELS - 1, Math.max(0, Math.round((v / max) * (HEAT_LEVELS - 1))));

export { dark, estimator, heat, heatLevel, heatLut, heatRgb, ink, lineDash, translucent };
