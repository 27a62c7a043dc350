// The name of a kernel that cannot be trained, in t's language (another kernel keeps the module's name).
import { t as pageT } from './i18n.js';

const kernelName = (kernel, t = pageT) => (kernel === 'boxcar' || kernel === 'constant'
  ? t(kernel === 'boxcar' ? 'kernelName.boxcar' : 'kernelName.constant') : kernel);

export { kernelName };
