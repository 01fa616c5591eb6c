// Follows a topic pushed by the server (server-sent events, eventlog/live.py): calls onMoved(number) when it moves
// on. While the stream is not open (no EventSource, a refused or lost connection: the browser reconnects by
// itself), it falls back to asking every `every` milliseconds.
"use strict";
window.Crawford = window.Crawford || {};
(function (C) {
  C.follow = function (url, onMoved, fallback, every) {
    let source = null, timer = null;
    const poll = () => { if (!timer) timer = setInterval(() => { if (!document.hidden) fallback(); }, every || 5000); };
    const quiet = () => { clearInterval(timer); timer = null; };
    if (!window.EventSource) { poll(); return { stop: quiet }; }
    source = new EventSource(url);
    source.addEventListener("open", quiet);
    source.addEventListener("moved", (e) => { quiet(); onMoved(+e.data); });
    source.addEventListener("error", poll);
    return { stop() { source.close(); quiet(); } };
  };
})(window.Crawford);
