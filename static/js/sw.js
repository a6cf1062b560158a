/* The service worker of the table page (served by clubsite.pwa at /sw.js, which fills
   in SHELL: the static files every table page needs, by their served names).
   - Static files: from the cache first (their names change when their content does).
   - A table page: from the network, and the last copy kept for when there is none.
   - Everything else, and every POST, goes to the network untouched. */
"use strict";
var CACHE = "table-v1";
var SHELL = [/* SHELL */];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) {
        return caches.delete(n);
      }));
    }).then(function () { return self.clients.claim(); })
  );
});

function isTablePage(url) {
  return /^\/tables\/\d+\/$/.test(url.pathname);
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
        if (response.ok) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
        }
        return response;
      }).catch(function () {
        return caches.match(url.pathname).then(function (hit) {
          return hit || new Response(
            "No connection, and this table page was not kept on this phone yet. " +
            "Try again when the connection is back.",
            { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } }
          );
        });
      })
    );
  }
});
