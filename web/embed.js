// For the page that hosts our embeds: <script src=".../embed.js"></script> once, anywhere on the page.
// Each embed posts {type: 'nw:resize', height} whenever its content's height changes; this sets the
// height of the iframe that sent it (found by event.source, so no other frame can resize ours), so the
// figure never shows a scrollbar of its own. Hosts with their own resizer can read the same messages.
// A frame out of view may not see its own width change until it is scrolled to (browsers pause the
// rendering of frames out of view): when the width of a frame that has reported changes, this asks it
// for its height again ({type: 'nw:measure'}), so frames below the fold are sized too.
// Frames with the same data-nw-group="name" share one state: the reader's change in one (nw:change) is
// sent to the others of its group as nw:set (which they do not send back as a change of their own).
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
  function share(sender, settings) {
    var group = sender.getAttribute('data-nw-group');
    if (group === null || !settings || typeof settings !== 'object') return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i] !== sender && frames[i].getAttribute('data-nw-group') === group && frames[i].contentWindow) {
        frames[i].contentWindow.postMessage({ type: 'nw:set', settings: settings }, '*');
      }
    }
  }
  window.addEventListener('message', function resize(event) {
    var data = event.data;
    var frames = document.getElementsByTagName('iframe');
    if (data && data.type === 'nw:change') {
      for (var j = 0; j < frames.length; j++) if (frames[j].contentWindow === event.source) share(frames[j], data.settings);
      return;
    }
    if (!data || data.type !== 'nw:resize' || typeof data.height !== 'number' || !(data.height >= 0 && data.height < 1e5)) return;
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
