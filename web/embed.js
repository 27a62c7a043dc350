// For the page that hosts our embeds: <script src=".../embed.js"></script> once, anywhere on the page.
// Each embed posts {type: 'nw:resize', height} whenever its content's height changes; this sets the
// height of the iframe that sent it (found by event.source, so no other frame can resize ours), so the
// figure never shows a scrollbar of its own. Hosts with their own resizer can read the same messages.
(function sizeEmbeds() {
  'use strict';
  window.addEventListener('message', function resize(event) {
    var data = event.data;
    if (!data || data.type !== 'nw:resize' || typeof data.height !== 'number' || !(data.height >= 0 && data.height < 1e5)) return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.ceil(data.height) + 'px';
        return;
      }
    }
  });
}());
