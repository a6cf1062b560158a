// What the "Larger" and "High contrast" journeys measure in the page
// (clubsite/tests/test_journey_display.py). One expression: an object of functions.
({
  // Every visible control a finger taps, with its box in page pixels. A radio drawn as a
  // segment and a check box with its words are tapped by their label (the target).
  controls() {
    const selector = "button, select, summary, a, label.check, .segmented label, "
      + "input:not([type=hidden]):not([type=radio]):not([type=checkbox])";
    const out = [];
    for (const el of document.querySelectorAll(selector)) {
      if (!el.checkVisibility({visibilityProperty: true})) continue;
      if (el.closest(".sr-only") || el.getAttribute("aria-hidden") === "true") continue;
      if (el.matches(".skip-link")) continue; // off the screen until it has the focus
      // A link in a sentence is exempt; one laid out on its own (an item of a flex or
      // grid line, as each hand's "Correct") is a target like a button.
      const sentence = el.closest("p, td, li, dd");
      const own = /flex|grid/.test(getComputedStyle(el.parentElement).display);
      if (el.matches("a:not(.button)") && sentence && !own
          && sentence.textContent.trim() !== el.textContent.trim()) continue; // in a sentence
      const target = ".segmented label, label.check";
      if (el.closest(target) && !el.matches(target)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      out.push({what: el.outerHTML.slice(0, 90), x: r.left + scrollX, y: r.top + scrollY,
                w: r.width, h: r.height, fixed: !!el.closest(".hand-bar")});
    }
    return out;
  },

  // Every piece of text with its colour and the colour behind it; every control's border
  // with the colour around it; as [r, g, b].
  colours() {
    const rgb = (c) => {
      const m = c.match(/[\d.]+/g).map(Number);
      return m.length > 3 && m[3] === 0 ? null : m.slice(0, 3);
    };
    const behind = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c) return c;
      }
      return [255, 255, 255];
    };
    const shown = (el) => el.checkVisibility({visibilityProperty: true})
      && !el.closest(".sr-only, [hidden]");
    const texts = [], borders = [];
    for (const el of document.body.querySelectorAll("*")) {
      if (!shown(el)) continue;
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      texts.push({what: el.outerHTML.slice(0, 90), fg: rgb(getComputedStyle(el).color),
                  bg: behind(el)});
    }
    const controls = "button, select, .button, .segmented span, "
      + "input:not([type=hidden]):not([type=radio]):not([type=checkbox])";
    for (const el of document.querySelectorAll(controls)) {
      if (!shown(el)) continue;
      const s = getComputedStyle(el);
      if (parseFloat(s.borderTopWidth) === 0) continue;
      borders.push({what: el.outerHTML.slice(0, 90), fg: rgb(s.borderTopColor),
                    bg: behind(el.parentElement)});
    }
    return {texts, borders};
  },

  // The elements that reach past the right edge (a table may scroll in its own box).
  // Words are measured too: a long word can run out of its box.
  wider(width) {
    const right = (e) => {
      let r = e.getBoundingClientRect().right;
      for (const n of e.childNodes) {
        if (n.nodeType !== 3 || !n.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        r = Math.max(r, range.getBoundingClientRect().right);
      }
      return r;
    };
    return [...document.body.querySelectorAll("*")]
      .filter((e) => e.checkVisibility() && !e.closest(".sr-only") && right(e) > width + 0.5)
      .filter((e) => !e.closest(".table-container") || e.matches(".table-container"))
      .map((e) => `${Math.round(right(e))} ${e.outerHTML.slice(0, 80)}`);
  },
})
