// Follows a topic pushed by the server (server-sent events, eventlog/live.py): calls onMoved(number) when it moves
// on. While the stream is not open (no EventSource, a refused or lost connection: the browser reconnects by
// itself), it falls back to asking every `every` milliseconds.
// Back online, the page asks at once and opens a new stream: what moved while it was offline is not told again
// (a push that came then had its fetch fail), the browser's own retry waits, an EventSource that a failed
// reconnection closed never retries, and the old connection may be one the outage killed unnoticed, so the page
// would stay stale until its next poll or its next push.
"use strict";
window.Crawford = window.Crawford || {};
(function (C) {
  C.follow = function (url, onMoved, fallback, every) {
    let source = null, timer = null;
    const poll = () => { if (!timer) timer = setInterval(() => { if (!document.hidden) fallback(); }, every || 5000); };
    const quiet = () => { clearInterval(timer); timer = null; };
    const listen = () => {
      source = new EventSource(url);
      source.addEventListener("open", quiet);
      source.addEventListener("moved", (e) => { quiet(); onMoved(+e.data); });
      source.addEventListener("error", poll);
    };
    const back = () => {
      if (source) { source.close(); listen(); }
      fallback();
    };
    window.addEventListener("online", back);
    if (window.EventSource) listen(); else poll();
    return { stop() { window.removeEventListener("online", back); if (source) source.close(); quiet(); } };
  };
})(window.Crawford);
