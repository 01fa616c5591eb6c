"""What a page was told by its server-sent stream (follow.js), noted by the page itself: a browser test waits until
the page heard a number, instead of timing how soon it showed it (how soon is bench/recording.py's --watch)."""

from tests.waiting import WAIT, wait_in_page

# before the page's own scripts: each "moved" event of each EventSource the page opens, in order
NOTE_WHAT_IS_HEARD = """
window.heard = [];
(() => {
  const Source = window.EventSource;
  if (!Source) return;
  window.EventSource = function (...args) {
    const source = new Source(...args);
    source.addEventListener("moved", (e) => window.heard.push(+e.data));
    return source;
  };
  window.EventSource.prototype = Source.prototype;
})();
"""


def listening(page) -> None:
    """From the next page load on, ``page`` notes every number its streams push (``window.heard``)."""
    page.add_init_script(NOTE_WHAT_IS_HEARD)


def heard(page, number: int, what: str, timeout: float = WAIT) -> None:
    """Wait until ``page``'s stream has told it ``number`` or more: it learnt of it by the push."""
    wait_in_page(page, lambda: page.evaluate("(n) => window.heard.some((h) => h >= n)", number), timeout,
                 f"the page's stream to tell {what} ({number})")
