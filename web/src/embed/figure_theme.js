// <nw-figure>'s colour theme: its theme attribute (light, dark, or auto: the reader's scheme), or by
// default the lesson's around it: dark where the first background behind the element is dark.
import { THEME_CHOICES, resolveTheme } from '../charts/colors.js';

// 'rgb(r, g, b)' or 'rgba(r, g, b, a)' -> { luminance (WCAG's relative luminance), alpha }.
function parseColour(text) {
  const parts = (text.match(/[\d.]+/g) || []).map(Number);
  if (parts.length < 3) return { luminance: 1, alpha: 0 };
  const linear = parts.slice(0, 3).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return { luminance: 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2], alpha: parts.length > 3 ? parts[3] : 1 };
}

// The lesson's theme at the element: the first opaque background above it, else the page's canvas
// (dark only where the page allows a dark scheme and the reader has one).
function lessonTheme(element) {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { luminance, alpha } = parseColour(getComputedStyle(node).backgroundColor);
    if (alpha > 0.5) return luminance < 0.2 ? 'dark' : 'light';
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme || '';
  return scheme.includes('dark') && resolveTheme('auto') === 'dark' ? 'dark' : 'light';
}

// { theme: 'light' | 'dark', bad: the attribute's value when it is not a theme (then the lesson's), or null }.
export function figureTheme(element) {
  const asked = element.getAttribute('theme');
  if (asked !== null && THEME_CHOICES.includes(asked)) return { theme: resolveTheme(asked), bad: null };
  return { theme: lessonTheme(element), bad: asked === null ? null : asked.slice(0, 40) };
}
