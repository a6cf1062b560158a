// "Start a club": the time zone box starts at the browser's own time zone when the
// list has it (the server chose one by the language; without script that one stays).
// Some browsers still say an old name of the zone ("America/Cordoba", "Asia/Calcutta"):
// the box's data-aliases maps each old name to the one in the list.
(function () {
  "use strict";
  var box = document.querySelector("select[data-browser-time-zone]");
  if (!box || !window.Intl || !Intl.DateTimeFormat) return;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var aliases = {};
  try {
    aliases = JSON.parse(box.getAttribute("data-aliases") || "{}");
  } catch (e) {
    aliases = {};
  }
  var names = [zone];
  if (Object.prototype.hasOwnProperty.call(aliases, zone)) names.push(aliases[zone]);
  for (var n = 0; n < names.length; n++) {
    for (var i = 0; i < box.options.length; i++) {
      if (box.options[i].value === names[n]) {
        box.value = names[n];
        return;
      }
    }
  }
})();
