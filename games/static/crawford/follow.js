// Follows a topic pushed by the server (server-sent events, eventlog/live.py): calls onMoved(number) when it moves
// on. A stream that was open and ends (a web node answers one number and ends) is reopened by the browser, whose
// first event is the number then: no poll for that. Where no stream opens (no EventSource, a stream refused by a
// proxy or a full live node, a connection that fails) it falls back to asking every `every` milliseconds.
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
      const stream = source = new EventSource(url);
      let opened = false;
      stream.addEventListener("open", () => { opened = true; quiet(); });
      stream.addEventListener("moved", (e) => { quiet(); onMoved(+e.data); });
      stream.addEventListener("error", () => {
        if (opened && stream.readyState === EventSource.CONNECTING) { opened = false; return; }  // an orderly end
        poll();
      });
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
