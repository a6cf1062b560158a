/* The service worker of the table page (served by members.clubs.pwa at /sw.js, which fills
   in SHELL: the static files every table page needs, by their served names, and WORDS:
   what the offline pages say, in the language of the phone that fetched the worker).
   - Static files: from the cache first (their names change when their content does).
   - A table page: from the network. A copy is kept for when there is no network only
     when the server says so (X-Keep-Offline: the page drawn for a table-link holder who
     is not logged in, never one drawn for an officer, player or member). It is kept
     under the grant it was drawn for (table, day) and until that grant's links end,
     and it is the only page kept: keeping a page drops every other one.
   - A table page answered without X-Keep-Offline (logged in, the grant ended, the day
     closed: 404, 410) drops every page kept: this phone is no longer a link holder.
   - Logging out and closing a day drop everything (the server's Clear-Site-Data).
   - The installed app opens START (/app/): online, the server sends it to the table this
     phone opened last (or the room-code box); offline, it goes to the kept table page,
     or gets a page saying what to do.
   - Everything else, and every POST, goes to the network untouched. */
"use strict";
var SHELL_CACHE = "shell-v2";
var PAGES = "table-pages-v2";
var SHELL = [/* SHELL */];
var WORDS = {/* WORDS */};
var KEEP_HEADER = "X-Keep-Offline";
/* The club's root (its pages' addresses start here: "/" or "/<slug>/") and the
   installed app's start, filled in by the server. */
var ROOT = "/";
var START = "/app/";

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

/* "/north/tables/3/" -> "/tables/3/" (the address inside the club). */
function clubPath(url) {
  return url.pathname.indexOf(ROOT) === 0 ? url.pathname.slice(ROOT.length - 1) : "";
}

function isTablePage(url) {
  return /^\/tables\/\d+\/$/.test(clubPath(url));
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
  if (!grant || String(grant.table) !== clubPath(url).split("/")[2]) { return dropAll(); }
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

/* The one table page kept (its path), if its grant has not ended. */
function keptTable() {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      if (!requests.length) { return null; }
      var path = new URL(requests[0].url).pathname;
      return keptCopy(new URL(path, self.location.origin)).then(function (hit) {
        return hit ? path : null;
      });
    });
  });
}

/* A page saying what to do, for a phone without a network and without a kept page. */
function offlinePage(title, words) {
  var body = "<!doctype html><html lang=\"" + WORDS.lang + "\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>" + title + "</title></head><body><main><h1>" + title + "</h1>" +
    words.map(function (w) { return "<p>" + w + "</p>"; }).join("") + "</main></body></html>";
  return new Response(body, {
    status: 503, headers: { "Content-Type": "text/html; charset=utf-8" }
  });
}

function noCopy() {
  return offlinePage(WORDS.title, WORDS.noCopy);
}

function noTable() {
  return offlinePage(WORDS.title, WORDS.noTable);
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
  if (request.mode === "navigate" && url.pathname === START) {
    event.respondWith(
      fetch(request).catch(function () {
        return keptTable().then(function (path) {
          return path ? Response.redirect(path, 302) : noTable();
        });
      })
    );
    return;
  }
  if (request.mode === "navigate" && isTablePage(url)) {
    event.respondWith(
      fetch(request).then(function (response) {
        // 5xx: the proxy or the server is down for a moment (a restart), not an answer
        // about this grant: keep the kept page and show it, as without a network.
        if (response.status >= 500) {
          return keptCopy(url).then(function (hit) { return hit || response; });
        }
        event.waitUntil(remember(url, response.clone()));
        return response;
      }).catch(function () {
        return keptCopy(url).then(function (hit) { return hit || noCopy(); });
      })
    );
  }
});
