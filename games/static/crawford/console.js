// Keeps the director's console current while the evening goes on. The server pushes when the projections the
// console shows have moved on (follow.js: server-sent events, polling as the fallback); only then is the console's
// live part fetched again, and swapped in only if it changed. What the director was doing survives the swap: what
// was typed or chosen and not sent yet (a result, a table number, a pasted member list, a chosen file), the focused
// control and its caret, and the place on the page. Between pushes a clock keeps the "stalled for 15 min" flag
// right: a match nobody plays appends nothing, so nothing would be pushed for it.
"use strict";
(function () {
  const gettext = window.gettext;  // Django's JavaScript catalogue (/jsi18n/, loaded before this script)
  const live = document.getElementById("console-live");
  if (!live) return;
  const KEYED = "[id], tr[data-slot], a[href], input[name], select[name], textarea[name], button[name]";

  // what a thing is across two renders: its id; a board row, its match; a link, where it goes; a control, its form's
  // hidden values (slot, player, table…) and its own name (a button's value too: Result and Forfeit share a name)
  function keyOf(el) {
    if (el.id) return "#" + el.id;
    if (el.tagName === "TR") return "tr:" + el.dataset.slot;
    if (el.tagName === "A") return "a:" + el.getAttribute("href");
    const hidden = el.form ? Array.from(el.form.elements)
      .filter((h) => h.type === "hidden" && h.name !== "csrfmiddlewaretoken").map((h) => h.name + "=" + h.value).join("&") : "";
    return hidden + "|" + el.name + (el.tagName === "BUTTON" ? "=" + el.value : "");
  }
  const find = (key) => Array.from(live.querySelectorAll(KEYED)).find((el) => keyOf(el) === key);

  // typed or chosen, and not sent: differs from what the server rendered
  function typed(el) {
    if (el.type === "hidden" || el.tagName === "BUTTON") return false;
    if (el.type === "file") return el.files.length > 0;
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      const first = Array.from(el.options).findIndex((o) => o.defaultSelected);
      return el.selectedIndex !== (first < 0 ? 0 : first);
    }
    return el.value !== el.defaultValue;
  }
  function carry(from, to) {
    if (from.type === "file") to.replaceWith(from);  // a chosen file cannot be set by a script: keep its control
    else if (from.type === "checkbox" || from.type === "radio") to.checked = from.checked;
    else if (from.tagName === "SELECT") { if (Array.from(to.options).some((o) => o.value === from.value)) to.value = from.value; }
    else to.value = from.value;
  }

  // the place on the page: the focused control, else the first keyed thing at the window's top, kept where it is
  function place() {
    const focused = live.contains(document.activeElement) ? document.activeElement : null;
    const candidates = focused ? [focused] : Array.from(live.querySelectorAll(KEYED));
    const seen = candidates.find((el) => el.getBoundingClientRect().top >= 0)
      || candidates.find((el) => el.getBoundingClientRect().bottom > 0);
    return seen ? { key: keyOf(seen), top: seen.getBoundingClientRect().top } : null;
  }

  function swap(html) {
    const kept = Array.from(live.querySelectorAll("input, select, textarea")).filter(typed).map((el) => [keyOf(el), el]);
    const focused = live.contains(document.activeElement) ? document.activeElement : null;
    const focus = focused && { key: keyOf(focused), caret: caretOf(focused) };
    const where = place();
    const next = document.createElement("div");
    next.innerHTML = html;
    live.replaceChildren(...next.childNodes);
    for (const [key, old] of kept) {
      const now = find(key);
      if (now) carry(old, now);
    }
    if (focus) {
      const again = find(focus.key);
      if (again) {
        again.focus({ preventScroll: true });
        if (focus.caret) try { again.setSelectionRange(...focus.caret); } catch (e) { /* not a text field */ }
      }
    }
    const anchor = where && find(where.key);
    if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - where.top);
    setClock();
    flagStalled();
  }
  function caretOf(el) {
    try { return el.selectionStart === null ? null : [el.selectionStart, el.selectionEnd, el.selectionDirection]; }
    catch (e) { return null; }
  }

  // the stalled flag between pushes, by the server's clock (the offset read from each render)
  let offset = 0;
  function setClock() {
    const board = live.querySelector("#board");
    if (board && board.dataset.now) offset = board.dataset.now * 1000 - Date.now();
  }
  function flagStalled() {
    const board = live.querySelector("#board");
    if (!board) return;
    const after = board.dataset.stalledAfter * 1000, now = Date.now() + offset;
    board.querySelectorAll("tr[data-last-activity]").forEach((row) => {
      if (row.classList.contains("stalled") || now - row.dataset.lastActivity * 1000 <= after) return;
      const flag = document.createElement("strong");
      flag.className = "flag";
      flag.textContent = gettext("stalled for 15 min");
      row.classList.add("stalled");
      row.querySelector(".last-activity").append(" ", flag);
    });
  }
  setClock();
  setInterval(flagStalled, 5000);

  // each render carries a fresh CSRF token and the server's clock: neither is a change worth a swap
  const plain = (html) => html.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "").replace(/ data-now="\d*"/g, "");
  let shown = null;
  async function refresh() {
    try {
      const response = await fetch(live.dataset.src, { headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const html = await response.text();
      if (plain(html) === shown) return;
      shown = plain(html);
      swap(html);
    } catch (e) { /* offline for a moment: the next push or poll tries again */ }
  }
  let seen = +live.dataset.position;  // where the projections were when the page was read
  Crawford.follow(live.dataset.follow, (position) => {
    if (position > seen) refresh();
    seen = Math.max(seen, position);
  }, refresh);
})();
