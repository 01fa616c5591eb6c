// Keeps the director's console current while the evening goes on. The server pushes when the projections the
// console shows have moved on (follow.js: server-sent events, polling as the fallback); only then is the console's
// live part fetched again, and swapped in only if it changed. What the director was doing survives the swap: what
// was typed or chosen and not sent yet (a result, a table number, a pasted member list, a chosen file), the focused
// control and its caret, and the place on the page. Between pushes a clock keeps the "stalled for 15 min" flag
// right: a match nobody plays appends nothing, so nothing would be pushed for it. The director's own presses go the
// same way, without leaving the page, their answer said in the message area (a console a director runs from the keyboard):
// one request a press, whose answer is the console redrawn, with the position of the projections it shows, so the
// push the press itself causes fetches nothing more.
"use strict";
(function () {
  const gettext = window.gettext;  // Django's JavaScript catalogue (/jsi18n/, loaded before this script)
  const fmt = (text, values) => window.interpolate(text, values, true);
  const live = document.getElementById("console-live");
  if (!live) return;
  const KEYED = "[id], tr[data-slot], a[href], input[name], select[name], textarea[name], button[name]";

  // what a thing is across two renders: its id; a board row, its match; a link, where it goes; a control, its form's
  // hidden values (slot, player, table…) and its own name (a button's value too: Result and Forfeit share a name)
  function keyOf(el) {
    if (el.id) return "#" + el.id;
    if (el.tagName === "TR") return "tr:" + el.dataset.slot;
    if (el.tagName === "A") return "a:" + el.getAttribute("href");
    return (el.form ? formKey(el.form) : "") + "|" + el.name + (el.tagName === "BUTTON" ? "=" + el.value : "");
  }
  // a form's identity across two renders: its hidden values (the slot, the player…)
  function formKey(form) {
    return Array.from(form.elements).filter((h) => h.type === "hidden" && h.name !== "csrfmiddlewaretoken")
      .map((h) => h.name + "=" + h.value).join("&");
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
  // what a control holds, to tell whether it still holds what a press sent
  const valueOf = (el) => (el.type === "checkbox" || el.type === "radio" ? el.checked : el.value);
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

  // what stands in for a control gone from the new render (a player's "Check in", once checked in): the first
  // control of the same form (its reason field), never another form's button, where a stray Enter would act
  function replacement(form) {
    if (!form) return null;
    const same = Array.from(live.querySelectorAll("form")).find((f) => formKey(f) !== "" && formKey(f) === form);
    return same && Array.from(same.elements).find((el) => el.type !== "hidden" && !el.disabled);
  }

  // html: the live part anew. sent (the director's own press): the values its form sent, not carried over unless
  // refused (a value typed or chosen since the press is: it is the next one's), and after() run once the new part
  // is in, before the place is put back
  function swap(html, sent) {
    const sentAsItIs = (el) => sent && sent.accepted && sent.values.get(keyOf(el)) === valueOf(el);
    const kept = Array.from(live.querySelectorAll("input, select, textarea")).filter(typed)
      .filter((el) => !sentAsItIs(el)).map((el) => [keyOf(el), el]);
    const focused = live.contains(document.activeElement) ? document.activeElement : (sent && sent.pressed) || null;
    const focus = focused &&
      { key: keyOf(focused), caret: caretOf(focused), form: focused.form ? formKey(focused.form) : null };
    const where = place() || (focused && { key: focus.key, top: focused.getBoundingClientRect().top });
    // a control gone is stood in for by another of its row: the row is kept where it was, not the control
    const row = (el) => el.closest("tr") || el;
    const rowTop = focused && row(focused).getBoundingClientRect().top;
    const next = document.createElement("div");
    next.innerHTML = html;
    live.replaceChildren(...next.childNodes);
    for (const [key, old] of kept) {
      const now = find(key);
      if (now) carry(old, now);
    }
    if (sent) sent.after();
    let stand = null;  // the focused control's replacement, if it is gone
    if (focus) {
      const again = find(focus.key) || (stand = replacement(focus.form));
      if (again) {
        again.focus({ preventScroll: true });
        if (focus.caret && !stand) try { again.setSelectionRange(...focus.caret); } catch (e) { /* not a text field */ }
      } else if (sent) said.focus({ preventScroll: true });  // a keyboard's place, its control and form gone
    }
    const anchor = where && find(where.key);
    if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - where.top);
    else if (stand && where.key === focus.key) window.scrollBy(0, row(stand).getBoundingClientRect().top - rowTop);
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
  // (read as the page would hold it: a press's answer comes as a whole page, a push's as the part alone)
  function plain(html) {
    const held = document.createElement("div");
    held.innerHTML = html;
    return held.innerHTML.trim().replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "")
      .replace(/ data-now="\d*"/g, "");
  }
  let shown = null;
  // How far the projections had gone when what the console shows was rendered (each render says it), and the
  // furthest the server has told of: a push past what is shown asks for the live part, one the console shows
  // already (the director's own press, answered with the console redrawn) asks for nothing.
  let seen = +live.dataset.position, told = seen;
  const drawnAt = (position) => { if (position) seen = Math.max(seen, position); };
  // A press's own answer is rendered once its outcome is settled; the push it causes comes while it is on its way,
  // and a fetch asked then may render half of it (the draw made, its matches not yet): such a fetch is dropped,
  // and asked again once the press is answered, if the answer does not show what it was told of already.
  let sending = false, presses = 0, missed = false;
  async function refresh() {
    if (sending) { missed = true; return; }
    const asked = presses;
    try {
      const response = await fetch(live.dataset.src, { headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const html = await response.text();
      if (asked !== presses) { missed = true; return; }
      drawnAt(+response.headers.get("X-Projected-Position"));
      const seenNow = plain(html);
      if (seenNow === shown) return;
      shown = seenNow;
      swap(html);
    } catch (e) { /* offline for a moment: the next push or poll tries again */ }
  }
  // The director's own presses (a check-in, a result, a forfeit…) without leaving the page: the same POST, with
  // its CSRF token, to the same view, which answers a script's press (X-Requested-With) with its message and the
  // live part redrawn, in one request; that part is swapped in as a push's is (focus, caret and place kept) and
  // its message shown here. Without this script the form goes the ordinary way (a redirect to the page); an
  // answer that is no console (a login page) is shown.
  const said = document.getElementById("console-messages");
  if (said) said.tabIndex = -1;
  // Presses are sent one at a time, in the order made: a press made while another is on its way waits for it (it
  // may act on what the first changes), with what the form held when it was pressed (the first one's redraw may
  // reset that form before it goes). None is dropped: a director entering players quickly enters every one.
  let pending = Promise.resolve();
  live.addEventListener("submit", (event) => {
    const form = event.target;
    // read as attributes: form.action and form.method would be the form's controls named so (its buttons are)
    if (!said || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    event.preventDefault();
    const pressed = event.submitter || null;
    const body = new FormData(form);
    if (pressed && pressed.name) body.append(pressed.name, pressed.value);
    const to = new URL(form.getAttribute("action") || "", document.baseURI);
    const values = new Map(Array.from(form.elements).filter(typed).map((el) => [keyOf(el), valueOf(el)]));
    pending = pending.then(() => send(pressed, body, to, values));
  });
  async function send(pressed, body, to, values) {
    sending = true;
    presses += 1;
    said.style.minHeight = `${said.offsetHeight}px`;  // the last press's word is no answer to this one: gone, its
    said.replaceChildren();                            // room kept until the answer's, so nothing below jumps
    try {
      const response = await fetch(to, { method: "POST", body, headers: { "X-Requested-With": "fetch" } });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.getElementById("console-live");
      if (!response.ok || !fresh) {
        if (response.ok) window.location.assign(response.url);
        else tell([["error", fmt(gettext("The server could not do it (error %(status)s): reload the page."),
                                 { status: response.status })]]);
        return;
      }
      const words = Array.from(page.querySelectorAll("#console-messages p")).map((p) => [p.className, p.textContent]);
      shown = plain(fresh.innerHTML);  // the push this press causes finds it drawn already
      drawnAt(+fresh.dataset.position);
      const accepted = !words.some(([kind]) => kind.includes("error"));
      swap(fresh.innerHTML, { pressed, accepted, values, after: () => tell(words) });
    } catch (e) {
      tell([["error", gettext("The server could not be reached: press again once it answers.")]]);
    } finally {
      sending = false;
      if (missed && told > seen) refresh();
      missed = false;
    }
  }
  // the server's words, as the page rendered them: a refusal as an alert, read out at once
  function tell(words) {
    said.style.minHeight = "";
    said.replaceChildren(...words.map(([kind, text]) => {
      const p = document.createElement("p");
      p.className = kind;
      p.textContent = text;
      if (kind.includes("error")) p.setAttribute("role", "alert");
      return p;
    }));
  }

  Crawford.follow(live.dataset.follow, (position) => {
    told = Math.max(told, position);
    if (position > seen) refresh();
  }, refresh);
})();
