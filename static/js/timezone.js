// "Start a club": the time zone box starts at the browser's own time zone when the
// list has it (the server chose one by the language; without script that one stays).
(function () {
  "use strict";
  var box = document.querySelector("select[data-browser-time-zone]");
  if (!box || !window.Intl || !Intl.DateTimeFormat) return;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (var i = 0; i < box.options.length; i++) {
    if (box.options[i].value === zone) {
      box.value = zone;
      return;
    }
  }
})();
