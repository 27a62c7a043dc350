// The four-kernel figure, for the page and <nw-figure> alike: each kernel's predictions and attention
// heatmap at the settings' w, one panel each.
import { FOUR_KERNELS, KernelPanel } from '../charts/kernel_panel.js';
import { t as pageT } from '../i18n/i18n.js';
import { blocksAt } from './weights.js';

const kernelPanels = (container, t = pageT) => FOUR_KERNELS.map(([kernel, title]) => new KernelPanel(container, { kernel, title: t(title), t }));

// Draws a panel computed here at w.
function drawKernelPanel(panel, session, w) {
  panel.set(session.data, session.xRange, blocksAt(session, w, panel.kernel));
  panel.draw();
}

export { FOUR_KERNELS, drawKernelPanel, kernelPanels };
