// The page's colour theme: ?theme=light|dark|auto (a lesson's author matching the lesson around an
// embed), auto by default: the reader's scheme, followed when it changes. Sets the charts' colours
// (charts/colors.js) and <html data-theme>, which style.css's colours follow.
import { THEME_CHOICES, resolveTheme, useTheme } from '../charts/colors.js';

// Returns the value of a ?theme= that is not a theme (then auto is used), or null.
export function startTheme(search = location.search) {
  const asked = new URLSearchParams(search).get('theme') ?? 'auto';
  const theme = THEME_CHOICES.includes(asked) ? asked : 'auto';
  const resolved = resolveTheme(theme);
  useTheme(resolved);
  document.documentElement.dataset.theme = resolved;
  // The charts take their colours when made: when the reader's scheme changes, a reload redraws them in
  // the new one (every setting is in the URL, your data in this browser's storage).
  if (theme === 'auto' && typeof matchMedia === 'function') {
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => location.reload());
  }
  return theme === asked ? null : asked.slice(0, 40);
}
