// The styles of <nw-figure>'s shadow root. `all: initial` on the host keeps the lesson's own styles
// (fonts, colours, margins, `canvas { ... }` rules) out; the rules below cannot reach the lesson. An
// author can still size and place the element itself (width, margin), which outer rules do win.
const css = `
:host { all: initial; display: block; contain: content; color-scheme: light dark; padding: 4px 8px; border-radius: 6px;
  --fg: #222; --bg: #fff; --muted: #555; --line: #ccc; --alert-fg: #8e1b1b; --alert-bg: #fdecea; --focus: #0072b2;
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
/* The theme the figure chose (embed/figure_theme.js); padded, since its background may differ from the lesson's. */
:host([data-nw-theme="dark"]) { color-scheme: dark; --fg: #e6e6e6; --bg: #121212; --muted: #b4b4b4; --line: #555; --alert-fg: #ffd6d2; --alert-bg: #4a1512; --focus: #56b4e9; }
:host([data-nw-theme="light"]) { color-scheme: light; }
:host([hidden]) { display: none; }
/* The figure's parts carry its language (lang="zh-Hans"): a CJK face before the generic family. */
[lang|="zh"] { font-family: system-ui, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", sans-serif; }
.figure { margin: 0; padding: 8px 0; }
.title { font-size: 1rem; font-weight: 600; margin: 0 0 4px; }
.chart { position: relative; height: 260px; }
.chart.square { height: 300px; }
.pair, .panels { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); }
.panels .chart { height: 170px; }
.panels .chart.square { height: 220px; }
.panels h3 { font-size: 0.95rem; margin: 0 0 4px; }
.legend { display: block; width: 240px; height: 28px; margin-top: 4px; }
.panels .legend { width: 160px; }
figcaption, .note { color: var(--muted); font-size: 0.875rem; margin: 4px 0 0; }
.note:empty { display: none; }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; margin: 4px 0 8px; }
label { font-size: 0.9rem; }
input[type=range] { width: 200px; min-height: 24px; }
button { font: inherit; font-size: 0.9rem; min-height: 32px; padding: 2px 12px; color: var(--fg); background: transparent;
  border: 1px solid var(--line); border-radius: 4px; cursor: pointer; }
button:disabled { opacity: 0.55; cursor: default; }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
output, .status { font-variant-numeric: tabular-nums; font-size: 0.9rem; }
.problem { color: var(--alert-fg); background: var(--alert-bg); padding: 6px 10px; border-radius: 4px; margin: 4px 0; white-space: pre-line; }
.problem[hidden], [hidden] { display: none; }
`;

export { css };
