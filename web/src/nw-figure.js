// Entry point of dist/nw-figure.js, the script a lesson loads: defines <nw-figure> (embed/nw_figure.js).
import { NWFigure } from './embed/nw_figure.js';

if (!customElements.get('nw-figure')) customElements.define('nw-figure', NWFigure);
