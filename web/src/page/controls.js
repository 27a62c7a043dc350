// The form controls: shows the settings in them and reports each edit as a checked value.
import { coerce, describeW, properties } from '../model/settings.js';

class Controls {
  // onEdit(name, value, { live }) with a valid value; onProblem(message) when the edit was out of range.
  constructor({ onEdit, onProblem }) {
    // The settings that have a control on this page (some, such as "trained", live only in the URL).
    this.editable = properties.filter((p) => document.getElementById(p.name));
    for (const property of this.editable) {
      const element = document.getElementById(property.name);
      const isSlider = element.type === 'range';
      const read = () => (element.type === 'checkbox' ? (element.checked ? 'on' : 'off') : element.value);
      const report = (live) => {
        const { value, error } = coerce(property, read());
        if (value !== undefined) onEdit(property.name, value, { live });
        else onEdit(property.name, undefined, { live }); // shows the last valid value again
        if (error) onProblem(error);
      };
      // Sliders redraw while they move; typed numbers apply when committed (change / Enter).
      if (isSlider) element.addEventListener('input', () => report(true));
      element.addEventListener('change', () => report(false));
    }
  }

  show(settings) {
    for (const property of this.editable) {
      const element = document.getElementById(property.name);
      const text = String(settings[property.name]);
      if (element.type === 'checkbox') element.checked = text === 'on';
      else if (element.value !== text) element.value = text;
    }
    this.showW(settings.w);
    document.getElementById('queryValue').textContent = settings.query.toFixed(2);
  }

  // w's label alone: while its slider is dragged, the slider is left as the reader moves it.
  showW(w) {
    document.getElementById('wValue').textContent = describeW(w);
  }
}

export { Controls };
