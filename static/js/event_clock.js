/* The countdown of an event's round: the officer's page, the room board and the table
   phones show the time left, counted here every second from the deadline the server
   gave (data-deadline, seconds since 1970), so polling stays cheap. The browser's clock
   is corrected by the server's: data-server-now on the page, then the Date header of
   each board poll. At the warning minutes and when time is called the box changes
   colour and says so (words from the page, in the reader's language). */
(function () {
  "use strict";

  var offset = 0;  // server time minus this browser's time, in ms

  function serverNow() { return Date.now() + offset; }

  function words(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var mm = h ? (m < 10 ? "0" + m : "" + m) : "" + m;
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" + s : s);
  }

  function tick() {
    var clocks = document.querySelectorAll(".event-clock[data-deadline]");
    Array.prototype.forEach.call(clocks, function (box) {
      var deadline = parseInt(box.dataset.deadline, 10);
      if (!deadline) return;
      var left = Math.max(0, Math.ceil((deadline * 1000 - serverNow()) / 1000));
      var warning = parseInt(box.dataset.warning || "0", 10);
      var time = box.querySelector(".event-time");
      var status = box.querySelector(".event-status");
      if (time) time.textContent = words(left);
      var state = left <= 0 ? "time_called" : (left <= warning ? "warning" : "playing");
      if (box.dataset.state !== state) {
        box.classList.remove("event-" + box.dataset.state);
        box.classList.add("event-" + state);
        box.dataset.state = state;
        if (status && state === "time_called") status.textContent = box.dataset.wordsCalled;
        if (status && state === "warning") status.textContent = box.dataset.wordsWarning;
      }
    });
  }

  function fromServer(seconds) {
    if (seconds) offset = seconds * 1000 - Date.now();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var stamped = document.querySelector("[data-server-now]");
    if (stamped) fromServer(parseInt(stamped.dataset.serverNow, 10));
    tick();
    window.setInterval(tick, 1000);
    document.body.addEventListener("htmx:afterRequest", function (event) {
      var xhr = event.detail && event.detail.xhr;
      var date = xhr && xhr.getResponseHeader("Date");
      if (date) fromServer(Date.parse(date) / 1000 + 0.5);
      tick();
    });
  });
})();
