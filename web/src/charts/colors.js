// Shared colours: one per estimator in a light and a dark theme, and the sequential scale of the
// heatmaps (light = 0, dark red = max).
// The estimators use Okabe and Ito's colour-blind-safe palette, and each line also has its own dash
// pattern (lineDash), so no reader has to tell two lines apart by hue alone.

// The two themes' colours. Every colour a chart draws data, text or marks with is at least 3:1 against
// its theme's background (WCAG 2.1, 1.4.11; tests/e2e/theme.test.mjs measures the rendered pixels).
const THEMES = {
  light: {
    // Text and grid lines of the charts, and the page's background (style.css's --bg).
    ink: { text: '#555555', grid: 'rgba(0, 0, 0, 0.1)', background: '#ffffff' },
    estimator: {
      truth: '#000000', data: '#0072b2', average: '#7f7f7f', nonparametric: '#0072b2', parametric: '#d55e00', query: '#cc79a7',
      // The training points outside the query's attention: opaque (a faded blue fell to 1.5:1), and
      // the attention's bands run from it to the data's colour (predictions_chart.js).
      unseen: '#6b8fb0',
    },
  },
  dark: {
    ink: { text: '#d4d4d4', grid: 'rgba(255, 255, 255, 0.16)', background: '#121212' },
    estimator: {
      // Near-white on a dark page: the truth is the line of most contrast either way. The points in
      // Okabe and Ito's sky blue, brighter with more attention (their blue fell to 3.6:1 here).
      truth: '#f0f0f0', data: '#56b4e9', average: '#7f7f7f', nonparametric: '#0072b2', parametric: '#d55e00', query: '#cc79a7',
      unseen: '#5a7f9c',
    },
  },
};

// The colours charts are made with now: useTheme('light' | 'dark') sets them before a figure's charts
// are created (each chart keeps its own copy, chart.$ink, for what it draws later), so figures of one
// page may differ (<nw-figure theme="dark">). At first, the reader's colour scheme.
const ink = {};
const estimator = {};
function useTheme(theme) {
  Object.assign(ink, THEMES[theme].ink);
  Object.assign(estimator, THEMES[theme].estimator);
}
const prefersDark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
// 'auto' is the reader's scheme.
const resolveTheme = (theme) => (theme === 'auto' ? (prefersDark() ? 'dark' : 'light') : theme);
const THEME_CHOICES = ['auto', 'light', 'dark'];
useTheme(resolveTheme('auto'));

const lineDash = {
  truth: [],
  average: [6, 4],
  nonparametric: [],
  parametric: [12, 4],
  query: [2, 3],
};

// The colour a fraction f of the way from '#rrggbb' a to b, as '#rrggbb'.
function mix(a, b, f) {
  const channels = (hex) => hex.match(/[0-9a-f]{2}/gi).map((pair) => parseInt(pair, 16));
  const [from, to] = [channels(a), channels(b)];
  return `#${from.map((v, i) => Math.round(v + f * (to[i] - v)).toString(16).padStart(2, '0')).join('')}`;
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

export { THEME_CHOICES, estimator, heat, heatLevel, heatLut, heatRgb, ink, lineDash, mix, resolveTheme, useTheme };
