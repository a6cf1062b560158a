/* The table page on a club night (static file: the Content-Security-Policy forbids
   inline script).

   - Nothing typed is lost: every box of the hand form is kept on this device
     (localStorage, per game and hand) until the hand is saved; a reload, Back or a
     closed tab brings it back.
   - A Save is also kept on the device until the server has answered it. Without a
     connection the bar by the Save button says so (and how many hands wait on this
     phone) and sends it by itself when the connection is back.
     Every form carries a key made when it was drawn, so sending again never saves twice.
   - The preview says when it is out of date (no connection), and marks the boxes it
     finds wrong (a box typed in again loses its mark until the next preview).
   - The rare items ("More") open by themselves when a kept draft sets one.
   - The way of entering (quick or card by card) is remembered per game and device.
   - The page is installable: a service worker keeps the page and its static files.
   Without JavaScript the form still works: it posts to the server like any form. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var PENDING_PREFIX = "canasta:pending:";
  var MAX_TRIES = 3;
  var store = window.localStorage;

  function read(key) {
    try { return JSON.parse(store.getItem(key) || "null"); } catch (e) { return null; }
  }
  function write(key, value) {
    try { store.setItem(key, JSON.stringify(value)); } catch (e) { /* full or private mode */ }
  }
  function forget(key) {
    try { store.removeItem(key); } catch (e) { /* nothing to do */ }
  }

  /* The words the page gave for the reader's language (data-words-* on the form), with
     {n} and {hand} filled in; English if the page gave none. */
  function words(f, name, english, values) {
    var text = (f && f.dataset["words" + name.charAt(0).toUpperCase() + name.slice(1)]) || english;
    Object.keys(values || {}).forEach(function (k) { text = text.split("{" + k + "}").join(values[k]); });
    return text;
  }

  function registerWorker(form) {
    var url = form && form.dataset.serviceWorker;
    if (url && "serviceWorker" in navigator) {
      var scope = form.dataset.serviceWorkerScope || "/";
      navigator.serviceWorker.register(url, { scope: scope }).catch(function () {});
    }
  }

  /* Card by card: a side's boxes are left out of the page until they are chosen (the
     page stays small on a phone); they are fetched and put in place on that choice. */
  function detailUrl(f, side) {
    return f.dataset.detailUrl.replace(/0\/$/, side + "/");
  }

  function openDetail(f, side, then) {
    var slot = document.getElementById("detail-team-" + side);
    if (!slot || !slot.classList.contains("detail-slot")) { if (then) { then(); } return; }
    if (slot.dataset.loading) { return; }
    slot.dataset.loading = "1";
    fetch(detailUrl(f, side), { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.text();
    }).then(function (html) {
      var holder = document.createElement("template");
      holder.innerHTML = html.trim();
      slot.replaceWith(holder.content);
      if (then) { then(); }
    }).catch(function () {
      delete slot.dataset.loading;
      slot.textContent = words(f, "detailFailed",
        "The card-by-card boxes could not be opened (no connection?). " +
        "Choose Quick and back to try again.");
    });
  }

  function sideOf(el) {
    return el.name.split("-")[0].slice(1);
  }

  function watchModes(f, after) {
    f.addEventListener("change", function (event) {
      var el = event.target;
      if (el.type === "radio" && /-mode$/.test(el.name) && el.value === "detailed" && el.checked) {
        openDetail(f, sideOf(el), after ? function () { after(sideOf(el)); } : null);
      }
    });
  }

  function openChosen(f, after) {
    f.querySelectorAll('input[type="radio"][name$="-mode"][value="detailed"]').forEach(function (el) {
      if (el.checked) { openDetail(f, sideOf(el), after ? function () { after(sideOf(el)); } : null); }
    });
  }

  document.querySelectorAll(".hand-form[data-detail-url]").forEach(function (f) {
    if (f.id !== "hand-form") { watchModes(f); openChosen(f); }
  });

  /* The page keeps room at its foot for the bar fixed there, however tall the bar grows
     (three sides' preview, "Larger", a conflict's note): its last lines and links never
     stay hidden under it. */
  function roomForBar(bar) {
    if (!bar || !window.ResizeObserver) { return; }
    new ResizeObserver(function () {
      document.documentElement.style.setProperty("--hand-bar-height", bar.offsetHeight + "px");
    }).observe(bar);
  }

  var form = document.getElementById("hand-form");
  registerWorker(document.querySelector("[data-service-worker]"));
  if (!form) { return; }
  roomForBar(document.getElementById("hand-bar"));

  var game = form.dataset.game;
  var hand = parseInt(form.dataset.hand, 10);
  var savedKeys = (form.dataset.savedKeys || "").split(" ").filter(Boolean);
  var postedKey = form.dataset.postedKey || "";
  var note = document.getElementById("sync-note");
  var preview = document.getElementById("preview");
  var SKIP = { csrfmiddlewaretoken: 1, key: 1, action: 1, replace_number: 1, replace_version: 1 };
  var draftKey = "canasta:draft:" + game + ":" + hand;
  var pendingKey = PENDING_PREFIX + game;
  var sending = false;

  /* How many Saves wait on this phone (one per game at most: a game's page waits for
     its Save to be answered before the next hand). */
  function pendingCount() {
    var n = 0;
    for (var i = 0; i < store.length; i++) {
      var name = store.key(i);
      if (name && name.indexOf(PENDING_PREFIX) === 0) {
        var p = read(name);
        if (p && p.key) { n += 1; }
      }
    }
    return n;
  }

  function sentWords() {
    var n = Math.max(pendingCount(), 1);
    if (n === 1) {
      return words(form, "keptOne",
        "Not sent yet: kept on this phone (1 hand). It is sent by itself when the connection is back.");
    }
    return words(form, "keptMany",
      "Not sent yet: kept on this phone ({n} hands). It is sent by itself when the connection is back.",
      { n: n });
  }

  function say(text) {
    if (!note) { return; }
    note.textContent = text || "";
    note.hidden = !text;
  }

  function fields() {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (!SKIP[name] && typeof value === "string") { out.push([name, value]); }
    });
    return out;
  }

  function fill(pairs, within) {
    var byName = {};
    pairs.forEach(function (pair) { (byName[pair[0]] = byName[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call((within || form).querySelectorAll("input, select, textarea"), function (el) {
      if (!el.name || SKIP[el.name] || el.type === "hidden" || el.type === "submit") { return; }
      var values = byName[el.name] || [];
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = values.indexOf(el.value) !== -1;
      } else {
        el.value = values.length ? values[0] : "";
      }
    });
  }

  function keepDraft(event) {
    if (event && !event.isTrusted) { return; }  // htmx's own events, not typing
    // Boxes not on the page yet (card by card still being fetched) keep what they had.
    var now = fields();
    var present = {};
    Array.prototype.forEach.call(form.elements, function (el) { if (el.name) { present[el.name] = 1; } });
    var before = read(draftKey);
    var kept = before && before.fields ? before.fields.filter(function (pair) { return !present[pair[0]]; }) : [];
    write(draftKey, { at: Date.now(), fields: now.concat(kept) });
  }

  function rememberMode(el) {
    var side = el.name.split("-")[0];
    write("canasta:mode:" + game + ":" + side, el.value);
  }

  function restoreModes() {
    form.querySelectorAll('input[type="radio"][name$="-mode"]').forEach(function (el) {
      var side = el.name.split("-")[0];
      var mode = read("canasta:mode:" + game + ":" + side);
      if (mode) { el.checked = el.value === mode; }
    });
  }

  function pruneDrafts() {
    var prefix = "canasta:draft:" + game + ":";
    for (var i = store.length - 1; i >= 0; i--) {
      var name = store.key(i);
      if (name && name.indexOf(prefix) === 0 && parseInt(name.slice(prefix.length), 10) < hand) {
        forget(name);
      }
    }
  }

  /* The boxes the last preview found wrong are marked; the rest are not. */
  var MARKED = ".pad .cell, .more-side .field, .more-side .check, .pad .segmented";

  function unmark(el) {
    var holder = el.closest(MARKED);
    if (holder) { holder.classList.remove("field-error"); }
    if (el.getAttribute("aria-invalid")) { el.removeAttribute("aria-invalid"); }
  }

  function markInvalid() {
    var answer = preview && preview.querySelector("[data-invalid]");
    if (!answer) { return; }
    form.querySelectorAll(".field-error").forEach(function (el) {
      if (el.matches(MARKED)) { el.classList.remove("field-error"); }
    });
    form.querySelectorAll('[aria-invalid="true"]').forEach(function (el) { el.removeAttribute("aria-invalid"); });
    answer.dataset.invalid.split(" ").filter(Boolean).forEach(function (id) {
      var el = document.getElementById(id);
      if (!el || !form.contains(el)) { return; }
      if (el.matches("input")) { el.setAttribute("aria-invalid", "true"); }
      var holder = el.closest(MARKED);
      if (holder) { holder.classList.add("field-error"); }
    });
  }

  /* The server's refusal above the pad was about the hand as it was saved: once what is
     typed now previews as a hand with scores, it is out of date and goes away (a new
     refusal, if any, is said in the bar). */
  function dropOldRefusal() {
    var refusal = document.getElementById("hand-errors");
    if (refusal && form.contains(refusal) && preview && preview.querySelector(".preview-teams")) {
      refusal.hidden = true;
    }
  }

  /* "More" (the rare items) opens when one of them is set. */
  function openMoreIfSet() {
    var more = form.querySelector("details.more-items");
    if (!more || more.open) { return; }
    var set = Array.prototype.some.call(more.querySelectorAll("input"), function (el) {
      if (el.type === "radio") { return el.checked && el.value === "concealed"; }
      if (el.type === "checkbox") { return el.checked; }
      return el.value !== "" && el.value !== "0";
    });
    if (set) { more.open = true; }
  }

  /* Ask for the preview of what the boxes hold. htmx listens to the form only once the
     page is parsed (DOMContentLoaded), after this deferred script first runs: a draft
     restored at load (a reload, a "Larger" tap) waits for it, else its preview is lost
     and the bar says "type the hand" under a typed hand. */
  var htmxListens = document.readyState === "complete";
  document.addEventListener("DOMContentLoaded", function () { htmxListens = true; });
  function refreshPreview() {
    if (!window.htmx) { return; }
    if (!htmxListens) {
      document.addEventListener("DOMContentLoaded", function () { setTimeout(refreshPreview, 0); });
      return;
    }
    window.htmx.trigger(form, "input");
  }

  function markStale(stale) {
    if (!preview) { return; }
    preview.classList.toggle("stale", stale);
    if (stale) {
      say(readPending() ? sentWords() : words(form, "offline",
        "No connection: the preview is out of date. What you type is kept on this phone."));
    } else if (!readPending()) {
      say("");
    }
  }

  function readPending() {
    var p = read(pendingKey);
    return p && p.key ? p : null;
  }

  function sendPending(p) {
    if (sending || !navigator.onLine) { return; }
    if ((p.tries || 0) >= MAX_TRIES) {
      say(words(form, "notSent",
        "Hand {hand} was not sent yet: it is kept on this phone. Check the boxes, then tap Save again.",
        { hand: p.hand }));
      return;
    }
    p.tries = (p.tries || 0) + 1;
    write(pendingKey, p);
    sending = true;
    say(words(form, "sending", "Sending hand {hand}…", { hand: p.hand }));
    var out = document.createElement("form");
    out.method = "post";
    out.action = p.url;
    out.hidden = true;
    var token = form.querySelector('input[name="csrfmiddlewaretoken"]');
    var pairs = p.fields.concat([["key", p.key], ["action", p.action]]);
    if (token) { pairs.push(["csrfmiddlewaretoken", token.value]); }
    pairs.forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      out.appendChild(input);
    });
    document.body.appendChild(out);
    out.submit();
  }

  function onSubmit(event) {
    var button = event.submitter;
    var action = button && button.name === "action" ? button.value : "preview";
    if (sending) { event.preventDefault(); return; }  // a double tap: the first one is on its way
    if (action !== "save" && action !== "replace") {
      if (!navigator.onLine) { event.preventDefault(); markStale(true); return; }
      sending = true;
      return;
    }
    var keyInput = form.querySelector('input[name="key"]');
    // Each button posts to its own address (formaction); a kept Save is sent there.
    var url = button && button.getAttribute("formaction") || form.getAttribute("action");
    var pending = { key: keyInput ? keyInput.value : "", hand: hand, url: url,
      action: action, fields: fields(), at: Date.now(), tries: 0 };
    if (action === "replace") {
      pending.fields.push(["replace_number", form.elements.replace_number.value]);
      pending.fields.push(["replace_version", form.elements.replace_version.value]);
    }
    write(pendingKey, pending);
    keepDraft();
    if (!navigator.onLine) {
      event.preventDefault();
      say(sentWords());
      markStale(true);
      return;
    }
    pending.tries = 1;
    write(pendingKey, pending);
    sending = true;
  }

  function start() {
    pruneDrafts();
    var pending = readPending();
    if (pending && (savedKeys.indexOf(pending.key) !== -1 || pending.key === postedKey)) {
      forget(pendingKey);  // the server has answered it (saved, or shown on this page)
      pending = null;
    }
    restoreModes();
    var draft = read(draftKey);
    if (draft && draft.fields) {
      fill(draft.fields);
      openMoreIfSet();
      refreshPreview();
    }
    openChosen(form, function (side) {
      var d = read(draftKey);
      if (d && d.fields) { fill(d.fields, document.getElementById("detail-team-" + side)); refreshPreview(); }
    });
    if (pending) {
      if (navigator.onLine) { sendPending(pending); } else { say(sentWords()); markStale(true); }
    }
  }

  watchModes(form);
  form.addEventListener("input", keepDraft);
  form.addEventListener("input", function (event) { if (event.target.name) { unmark(event.target); } });
  form.addEventListener("change", function (event) {
    if (event.target.name && /-mode$/.test(event.target.name)) { rememberMode(event.target); }
    keepDraft(event);
  });
  form.addEventListener("input", function () { if (!navigator.onLine) { markStale(true); } });
  form.addEventListener("submit", onSubmit);
  document.body.addEventListener("htmx:sendError", function () { markStale(true); });
  document.body.addEventListener("htmx:afterSwap", function () { markStale(false); markInvalid(); dropOldRefusal(); });
  document.querySelectorAll("[data-drop-draft]").forEach(function (link) {
    link.addEventListener("click", function () { forget(draftKey); forget(pendingKey); });
  });
  window.addEventListener("online", function () {
    var p = readPending();
    if (p) { sendPending(p); } else { markStale(false); refreshPreview(); }
  });
  window.addEventListener("offline", function () { markStale(true); });
  // Back to a page kept in the browser's memory: it may have a Save under way.
  window.addEventListener("pageshow", function (event) { if (event.persisted) { sending = false; start(); } });
  start();
})();
