/* The service worker of the table page (served by clubsite.pwa at /sw.js, which fills
   in SHELL: the static files every table page needs, by their served names).
   - Static files: from the cache first (their names change when their content does).
   - A table page: from the network. A copy is kept for when there is no network only
     when the server says so (X-Keep-Offline: the page drawn for a table-link holder who
     is not logged in, never one drawn for an officer, player or member). It is kept
     under the grant it was drawn for (table, day) and until that grant's links end,
     and it is the only page kept: keeping a page drops every other one.
   - A table page answered without X-Keep-Offline (logged in, the grant ended, the day
     closed: 404, 410) drops every page kept: this phone is no longer a link holder.
   - Logging out and closing a day drop everything (the server's Clear-Site-Data).
   - Everything else, and every POST, goes to the network untouched. */
"use strict";
var SHELL_CACHE = "shell-v2";
var PAGES = "table-pages-v2";
var SHELL = [/* SHELL */];
var KEEP_HEADER = "X-Keep-Offline";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL); }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  // Caches of earlier workers go, with whatever they kept (table-v1 kept every page).
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== SHELL_CACHE && n !== PAGES; })
        .map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function isTablePage(url) {
  return /^\/tables\/\d+\/$/.test(url.pathname);
}

/* "table=3; day=2; until=1767225600000" -> {table: "3", day: "2", until: "1767..."} */
function grantOf(value) {
  var grant = {};
  (value || "").split(";").forEach(function (part) {
    var pair = part.split("=");
    if (pair.length === 2) { grant[pair[0].trim()] = pair[1].trim(); }
  });
  return grant.table && grant.day && grant.until ? grant : null;
}

/* The key a page is kept under: its path and its grant. */
function keyFor(url, grant) {
  return new URL(url.pathname + "?grant=" + grant.table + "-" + grant.day, url.origin).href;
}

function dropAll() {
  return caches.delete(PAGES);
}

/* Keep this page (and nothing else), or, when the server did not say so, drop all. */
function remember(url, response) {
  var grant = response.ok ? grantOf(response.headers.get(KEEP_HEADER)) : null;
  if (!grant || String(grant.table) !== url.pathname.split("/")[2]) { return dropAll(); }
  var key = keyFor(url, grant);
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (r) { return r.url !== key; }).map(function (r) {
        return cache.delete(r);
      }));
    }).then(function () { return cache.put(key, response); });
  });
}

/* The page kept for this path, if its grant has not ended. */
function keptCopy(url) {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      var mine = requests.filter(function (r) { return new URL(r.url).pathname === url.pathname; });
      if (!mine.length) { return null; }
      return cache.match(mine[0]).then(function (hit) {
        var grant = hit && grantOf(hit.headers.get(KEEP_HEADER));
        if (grant && Number(grant.until) > Date.now()) { return hit; }
        return cache.delete(mine[0]).then(function () { return null; });
      });
    });
  });
}

function noCopy() {
  return new Response(
    "No connection, and this table page is not kept on this phone. " +
    "Try again when the connection is back.",
    { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } }
  );
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (SHELL.indexOf(url.pathname) !== -1) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
    return;
  }
  if (request.mode === "navigate" && isTablePage(url)) {
    event.respondWith(
      fetch(request).then(function (response) {
        event.waitUntil(remember(url, response.clone()));
        return response;
      }).catch(function () {
        return keptCopy(url).then(function (hit) { return hit || noCopy(); });
      })
    );
  }
});
