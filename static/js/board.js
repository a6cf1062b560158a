/* The room board on a wall screen. When the tables (or the finished games) do not fit
   the screen, they are shown a screenful at a time, turning every few seconds, with
   "Tables 9–16 of 30 · page 2 of 4" said above them: nobody scrolls a wall screen. The
   body the board fetches every 5 s is paged again as it arrives, on the page shown, so
   the polling costs the server nothing more. Phones and narrow or portrait windows
   scroll as usual; without JavaScript every table is listed. */
(function () {
  "use strict";

  var TURN_SECONDS = 10;
  var BOTTOM_GAP = 6;  // px kept free under the last row (the page's own bottom padding)
  var wall = window.matchMedia("(min-width: 60rem) and (orientation: landscape)");
  var turn = 0;  // how many times the pages have turned; each list shows turn % its pages

  function rows(items) {
    // The items grouped by the row they sit in (a grid's row, or a list's line).
    var grouped = [];
    items.forEach(function (item) {
      var box = item.getBoundingClientRect();
      var last = grouped[grouped.length - 1];
      if (last && Math.abs(box.top - last.top) < 2) {
        last.items.push(item);
        last.bottom = Math.max(last.bottom, box.bottom);
      } else {
        grouped.push({ top: box.top, bottom: box.bottom, items: [item] });
      }
    });
    return grouped;
  }

  function pagesOf(list) {
    // Every item shown, then cut into pages of whole rows that fit between the top of
    // the list and the bottom of the screen.
    var items = Array.prototype.slice.call(list.children);
    items.forEach(function (item) { item.hidden = false; });
    if (!wall.matches || items.length < 2) return [items];
    var all = rows(items);
    var room = window.innerHeight - BOTTOM_GAP - (all[0].top + window.scrollY);
    var pages = [];
    var page = null;
    all.forEach(function (row) {
      if (page && row.bottom - page.top <= room) {
        Array.prototype.push.apply(page.items, row.items);
      } else {
        page = { top: row.top, items: row.items.slice() };
        pages.push(page);
      }
    });
    return pages.map(function (p) { return p.items; });
  }

  function note(list, words) {
    // The line above a paged list that says which part of it is shown.
    var line = list.previousElementSibling;
    if (!line || !line.classList.contains("board-pages")) {
      line = document.createElement("p");
      line.className = "board-pages";
      list.parentNode.insertBefore(line, list);
    }
    line.textContent = words;
    line.hidden = !words;
  }

  function page(list, noun) {
    // Reserve the note's line before measuring, so the pages fit below it.
    note(list, "\u00a0");
    var pages = pagesOf(list);
    if (pages.length < 2) {
      note(list, "");
      return;
    }
    var shown = pages[turn % pages.length];
    var total = list.children.length;
    var first = Array.prototype.indexOf.call(list.children, shown[0]) + 1;
    pages.forEach(function (items) {
      if (items !== shown) items.forEach(function (item) { item.hidden = true; });
    });
    // The words come from the page, in the reader's language (data-words-* on #board-live).
    var live = document.getElementById("board-live");
    var words = (live && live.dataset["words" + noun]) ||
      noun + " {first}–{last} of {total} · page {page} of {pages}";
    var values = {
      first: first, last: first + shown.length - 1, total: total,
      page: turn % pages.length + 1, pages: pages.length
    };
    Object.keys(values).forEach(function (k) { words = words.split("{" + k + "}").join(values[k]); });
    note(list, words);
  }

  function pageAll() {
    var live = document.getElementById("board-live");
    if (!live) return;
    var tables = live.querySelector(".board-tables");
    if (tables) page(tables, "Tables");
    var finished = live.querySelector(".board-finished");
    if (finished) page(finished, "Games");
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!document.getElementById("board-live")) return;
    pageAll();
    window.setInterval(function () { turn += 1; pageAll(); }, TURN_SECONDS * 1000);
    document.body.addEventListener("htmx:afterSwap", function (event) {
      if (event.target && event.target.id === "board-live") pageAll();
    });
    window.addEventListener("resize", pageAll);
    if (wall.addEventListener) wall.addEventListener("change", pageAll);
  });
})();
