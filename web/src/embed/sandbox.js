// A frame sandboxed without allow-same-origin: an opaque origin although served over http (a page
// opened from file:// is opaque too, but is no sandbox). Such a frame may not load a worker from its
// server, and its lesson rarely allows downloads either.
const inSandbox = () => self.origin === 'null' && location.protocol !== 'file:';

export { inSandbox };
