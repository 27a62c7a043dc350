// The phone's "Hide chart" / "Show chart" button: the sticky predictions chart folds away and gives the
// steps the screen; the query's controls stay (the button shows only in the one-column layout).
import { t } from '../i18n/i18n.js';
import { byId } from '../lib/dom.js';

export function bindHeroToggle() {
  const button = byId('heroToggle');
  button.addEventListener('click', () => {
    const collapsed = byId('figures').classList.toggle('collapsed');
    button.setAttribute('aria-expanded', String(!collapsed));
    button.textContent = t(collapsed ? 'hero.show' : 'hero.hide');
  });
}
