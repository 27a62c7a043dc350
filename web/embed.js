// For the page that hosts our embeds: <script src=".../embed.js"></script> once, anywhere on the page.
// Each embed posts {type: 'nw:resize', height} whenever its content's height changes; this sets the
// height of the iframe that sent it (found by event.source, so no other frame can resize ours), so the
// figure never shows a scrollbar of its own. Hosts with their own resizer can read the same messages.
// A frame out of view may not see its own width change until it is scrolled to (browsers pause the
// rendering of frames out of view): when the width of a frame that has reported changes, this asks it
// for its height again ({type: 'nw:measure'}), so frames below the fold are sized too.
(function sizeEmbeds() {
  'use strict';
  var widths = typeof ResizeObserver === 'function' ? new ResizeObserver(function (entries) {
    for (var i = 0; i < entries.length; i++) {
      var frame = entries[i].target;
      var width = Math.round(entries[i].contentRect.width);
      if (frame.nwWidth !== undefined && frame.nwWidth !== width && frame.contentWindow) frame.contentWindow.postMessage({ type: 'nw:measure' }, '*');
      frame.nwWidth = width;
    }
  }) : null;
  window.addEventListener('message', function resize(event) {
    var data = event.data;
    if (!data || data.type !== 'nw:resize' || typeof data.height !== 'number' || !(data.height >= 0 && data.height < 1e5)) return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.ceil(data.height) + 'px';
        if (widths && !frames[i].nwObserved) {
          frames[i].nwObserved = true;
          widths.observe(frames[i]);
        }
        return;
      }
    }
  });
}());
