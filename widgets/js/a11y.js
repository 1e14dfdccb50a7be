/* BookA11y: page-level accessibility of the book's widgets (loaded on every page of the site by
 * book/_ext/vendor_assets.py; no rules, no numbers: it only names, announces and colours).
 *
 * After Bokeh renders a page's widgets (and again whenever more are rendered), it
 * - names every slider handle (role="slider") with its slider's Korean title and every switch
 *   with the Korean text beside it; a switch is one tab stop that Enter or Space toggles;
 * - gives each widget's result (the output Div, class "live-out") a polite live region that
 *   repeats the result's text once it has settled (DELAY ms without a change), so that dragging
 *   a slider across ten values is announced once, with the last value's result;
 * - lets the widgets follow the page's colour mode (html[data-theme], set by the theme): Bokeh's
 *   own colour variables are pointed at the --book-w-* colours of book/_ext/book.css, and plots
 *   get dark backgrounds and light axes in dark mode;
 * - names the theme's search and colour-mode buttons in Korean, matching their visible text.
 * Plain ES2015; defines the global BookA11y (scan, style, announcer) for the tests and for
 * widgets/js/live.js (style: the widgets' stylesheets, as soon as a widget is embedded).
 */
var BookA11y = (function () {
  "use strict";
  var DELAY = 600;  // ms a result must stay unchanged before it is announced
  var SHEET_CSS = [
    ":host {",
    "  --color: var(--book-w-color, #18191D);",
    "  --background-color: var(--book-w-bg, #fff);",
    "  --hover-color: var(--book-w-hover, #F9F9F9);",
    "  --border-color: var(--book-w-border, #BBBBBD);",
    "  --divider-color: var(--book-w-divider, #D7D7D8);",
    "  --surface-background-color: var(--book-w-surface, #EBEBEB);",
    "  --inactive-bg: var(--book-w-inactive-bg, #EBEBEB);",
    "  --inactive-fg: var(--book-w-inactive-fg, #9A9B9D);",
    "  --active-bg: var(--book-w-active-bg, #C3DBEB);",
    "  --active-fg: var(--book-w-active-fg, #267BB6);",
    "  --disabled-color: var(--book-w-disabled, #747679);",
    "  --placeholder-color: var(--book-w-placeholder, #9A9B9D);",
    "}",
    "select.bk-input { background-image: var(--book-w-caret, none); color: var(--color); }",
    "input.bk-input { color: var(--color); }",
    ".noUi-target { background: var(--book-w-inactive-bg, #FAFAFA); border-color: var(--book-w-border, #D3D3D3); }",
    ".noUi-handle { background: var(--book-w-bg, #FFF); border-color: var(--book-w-border, #D9D9D9); }",
    ".noUi-connect { background: var(--book-w-active-fg, #3FB8AF); }",
    ":host(.bk-Switch:focus-visible) { outline: 3px solid var(--book-w-focus, #1a5fb4); outline-offset: 2px; border-radius: 8px; }",
    // a result cell highlighted with its own (light) background keeps dark text in dark mode
    "tr[style*='background'], td[style*='background'], th[style*='background'] { color: #18191D; }",
    // the −/+ beside a number box (widgets/views/static_page.py): a sign a reader can read
    ":host(.live-step) .bk-btn { font-size: 20px; line-height: 1; padding: 2px 0; min-width: 40px; }",
    // touch screens: controls a thumb can hit (WCAG 2.2 target size): boxes and menus 44 px
    // high, switches and slider handles at least 28 px with a larger touch area around them
    "@media (pointer: coarse), (max-width: 600px) {",
    "  :host { --input-min-height: 44px; --switch-width: 52px; --switch-size: 28px; --bar-height: 16px;",
    "          --slider-size: 12px; --handle-width: 30px; --handle-height: 30px; }",
    "  input.bk-input, select.bk-input { min-height: 44px; font-size: 16px; }",
    "  .bk-knob { border-radius: 14px; }",
    "  :host(.bk-Switch) { min-height: 44px; align-items: center; padding: 8px 0; }",
    "  :host(.live-step) .bk-btn { min-height: 44px; min-width: 44px; }",
    "  .noUi-handle { border-radius: 50%; }",
    "  .noUi-handle::before { display: none; }",
    "  .noUi-handle::after { content: ''; display: block; position: absolute; left: -9px; top: -9px;",
    "                        width: calc(100% + 18px); height: calc(100% + 18px); background: transparent; }",
    "  .noUi-target { touch-action: pan-y; }",
    // the bigger handle stays inside the widget at both ends of the track
    "  .noUi-target.noUi-horizontal { margin-left: 15px; margin-right: 15px; width: calc(100% - 30px); }",
    "}"
  ].join("\n");
  var sheet = null;
  var announcers = {};  // uid -> {el, timer, last}

  // Korean names of the theme's buttons (their English titles come from pydata-sphinx-theme).
  var THEME_NAMES = {
    "Color mode": "색상 모드", "Light": "밝게", "Dark": "어둡게", "System Settings": "시스템 설정",
    "Toggle primary sidebar": "책 목차 열고 닫기", "Toggle secondary sidebar": "이 페이지 목차 열고 닫기",
    "Fullscreen mode": "전체 화면", "Download this page": "이 페이지 내려받기",
    "Download source file": "원본 파일 내려받기", "Print to PDF": "PDF로 인쇄"
  };

  var MODES = {light: "밝게", dark: "어둡게", auto: "시스템 설정"};

  function themeButtons() {
    var i, els = document.querySelectorAll(".search-button__button");
    for (i = 0; i < els.length; i++) {
      // the visible text ("검색 Ctrl+K") is the accessible name; an icon-only button keeps "검색"
      var text = (els[i].textContent || "").replace(/\s+/g, " ").replace(/ ?\+ ?/g, "+").trim();
      if (text && els[i].getAttribute("aria-label") !== text) els[i].setAttribute("aria-label", text);
    }
    els = document.querySelectorAll("[aria-label], [title], [data-bs-title], [data-bs-original-title]");
    for (i = 0; i < els.length; i++) {
      var el = els[i];
      ["aria-label", "title", "data-bs-title", "data-bs-original-title"].forEach(function (a) {
        var v = el.getAttribute(a);
        if (v && THEME_NAMES[v]) el.setAttribute(a, THEME_NAMES[v]);
      });
    }
    // the colour-mode button shows one icon, titled with the current mode: its name says both
    var mode = MODES[document.documentElement.dataset.mode] || MODES.auto;
    els = document.querySelectorAll(".theme-switch-button");
    for (i = 0; i < els.length; i++) {
      var name = "색상 모드: " + mode;
      if (els[i].getAttribute("aria-label") !== name) els[i].setAttribute("aria-label", name);
      var titles = els[i].querySelectorAll("title, [title]");
      for (var k = 0; k < titles.length; k++) {
        var t = titles[k], v = t.tagName.toLowerCase() === "title" ? t.textContent : t.getAttribute("title");
        if (THEME_NAMES[v]) {
          if (t.tagName.toLowerCase() === "title") t.textContent = THEME_NAMES[v];
          else t.setAttribute("title", THEME_NAMES[v]);
        }
      }
    }
  }

  function plainText(html) {
    var doc = new DOMParser().parseFromString("<body>" + html, "text/html");
    var blocks = doc.body.querySelectorAll("p, li, tr, td, th, caption, h1, h2, h3, h4, div");
    for (var i = 0; i < blocks.length; i++) blocks[i].append(" ");
    return (doc.body.textContent || "").replace(/\s+/g, " ").trim();
  }

  function wrapperOf(el) {
    // climb out of shadow roots to the light-DOM [data-live] wrapper
    var node = el;
    while (node) {
      if (node.closest) {
        var hit = node.closest("[data-live]");
        if (hit) return hit;
      }
      var root = node.getRootNode ? node.getRootNode() : null;
      node = root && root.host ? root.host : null;
    }
    return null;
  }

  function announcer(uid) { return announcers[uid] ? announcers[uid].el : null; }

  function watchOutput(view) {
    var model = view.model;
    if (model.__bookAnnounced) return;
    var wrap = wrapperOf(view.el);
    if (!wrap) return;
    model.__bookAnnounced = true;
    var uid = wrap.getAttribute("data-live");
    var el = document.createElement("div");
    el.className = "book-announce";
    el.setAttribute("role", "status");
    el.setAttribute("aria-live", "polite");
    el.setAttribute("aria-atomic", "true");
    el.dataset.for = uid;
    el.dataset.count = "0";
    wrap.appendChild(el);
    var a = announcers[uid] = {el: el, timer: 0, last: plainText(model.text)};
    model.properties.text.change.connect(function () {
      soon();   // a new answer may hold a table that scrolls
      clearTimeout(a.timer);
      a.timer = setTimeout(function () {
        var text = plainText(model.text);
        if (text === a.last) return;
        a.last = text;
        el.textContent = text;
        el.dataset.count = String(+el.dataset.count + 1);
      }, DELAY);
    });
  }

  function labelFor(view) {
    var m = view.model;
    if (m.type === "Switch") {
      if (m.label) return m.label;
      var parent = view.parent;  // the row (switch, Div with its words) of views/live.py
      if (parent && parent.model && parent.model.children) {
        var kids = parent.model.children;
        for (var i = 0; i < kids.length; i++)
          if (kids[i] !== m && kids[i].type === "Div") return plainText(kids[i].text);
      }
      return "";
    }
    if (m.title) return m.title;
    // a slider without its own title sits beside a number box that has it (views/static_page.py)
    var row = view.parent;
    if (row && row.model && row.model.children) {
      for (var j = 0; j < row.model.children.length; j++)
        if (row.model.children[j] !== m && row.model.children[j].title) return row.model.children[j].title;
    }
    return "";
  }

  function fixControl(view) {
    var m = view.model, shadow = view.shadow_el, i;
    if (!shadow) return;
    if (/Slider$/.test(m.type)) {
      var name = labelFor(view), handles = shadow.querySelectorAll('[role="slider"]');
      for (i = 0; i < handles.length; i++)
        if (name && handles[i].getAttribute("aria-label") !== name) handles[i].setAttribute("aria-label", name);
    } else if (m.type === "Switch") {
      var host = view.el, label = labelFor(view);
      if (label && host.getAttribute("aria-label") !== label) host.setAttribute("aria-label", label);
      // one tab stop, on the element that carries role="switch", its name and aria-checked
      var knob = shadow.querySelector(".bk-knob");
      if (knob && knob.tabIndex !== -1) knob.tabIndex = -1;
      if (host.tabIndex !== 0) host.tabIndex = 0;
      if (!host.__bookKeys) {
        host.__bookKeys = true;
        host.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            if (!m.disabled) m.active = !m.active;
          }
        });
      }
    }
  }

  // the widgets' own stylesheet (book/_ext/widget.css, linked by every page): its rules, copied
  // once into a sheet every widget view adopts (a page's <link> sheet cannot be adopted itself)
  var widgetSheet = null;
  function widgetCSS() {
    if (widgetSheet) return widgetSheet;    // (not found yet: looked for again at the next view)
    for (var i = 0; i < document.styleSheets.length; i++) {
      var s = document.styleSheets[i];
      if (!s.href || !/\/widget\.css(\?|$)/.test(s.href)) continue;
      try {
        var text = Array.prototype.map.call(s.cssRules, function (r) { return r.cssText; }).join("\n");
        widgetSheet = new CSSStyleSheet();
        widgetSheet.replaceSync(text);
      } catch (err) { widgetSheet = null; }
    }
    return widgetSheet;
  }

  function adopt(view) {
    var root = view.shadow_el;
    if (!root || !("adoptedStyleSheets" in root)) return;
    if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(SHEET_CSS); }
    var wanted = [sheet, widgetCSS()].filter(function (x) { return x && root.adoptedStyleSheets.indexOf(x) < 0; });
    if (wanted.length) root.adoptedStyleSheets = root.adoptedStyleSheets.concat(wanted);
  }

  // Plot colours per mode (light: Bokeh's defaults, kept from the first time they are changed).
  var DARK = {bg: "#1e2329", fg: "#ced6dd", line: "#9ca4af", grid: "#3a3f46"};
  function isDark() { return document.documentElement.dataset.theme === "dark"; }
  function setAll(model, values) {
    if (!model.__bookLight) {
      model.__bookLight = {};
      for (var k in values) model.__bookLight[k] = model[k];
    }
    var want = isDark() ? values : model.__bookLight;
    for (var key in want) if (model[key] !== want[key]) model[key] = want[key];
  }
  function themePlot(plot) {
    if (!isDark() && !plot.__bookLight) return;
    setAll(plot, {background_fill_color: DARK.bg, border_fill_color: DARK.bg, outline_line_color: DARK.grid});
    var axes = [].concat(plot.left || [], plot.below || [], plot.right || [], plot.above || []);
    axes.forEach(function (ax) {
      if (!("axis_label_text_color" in ax)) return;
      setAll(ax, {axis_label_text_color: DARK.fg, major_label_text_color: DARK.fg,
                  axis_line_color: DARK.line, major_tick_line_color: DARK.line,
                  minor_tick_line_color: DARK.line});
    });
    (plot.center || []).forEach(function (g) {
      if ("grid_line_color" in g && g.grid_line_color !== null) setAll(g, {grid_line_color: DARK.grid});
    });
  }

  function walk(view, fn) {
    fn(view);
    var kids = view.child_views || [];
    for (var i = 0; i < kids.length; i++) walk(kids[i], fn);
  }

  function visit(view) {
    var m = view.model;
    if (!m) return;
    adopt(view);
    fixControl(view);
    if (view.shadow_el) scrollBoxes(view.shadow_el);
    if (m.type === "Div" && m.css_classes && m.css_classes.indexOf("live-out") >= 0) watchOutput(view);
    if (m.type === "Figure" || m.type === "Plot") themePlot(m);
  }

  // a table wider than the screen scrolls in its own box (widgets/views/table.py): a keyboard
  // reaches and scrolls it, and a screen reader names it by its caption; a block formula wider
  // than the screen (widget.css) is reached the same way and keeps its own role (a formula)
  function scrollBoxes(root) {
    var boxes = root.querySelectorAll('.table-wrap, .pst-scrollable-table-container, math[display="block"]');
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i], scrolls = box.scrollWidth > box.clientWidth + 1;
      var formula = box.localName === "math";
      if (scrolls && box.getAttribute("tabindex") !== "0") {
        box.setAttribute("tabindex", "0");
        if (formula) continue;
        box.setAttribute("role", "region");
        var cap = box.querySelector("caption");
        box.setAttribute("aria-label", cap ? cap.textContent.trim() : "표 (옆으로 밀어 보기)");
      } else if (!scrolls && box.getAttribute("tabindex") === "0") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  }

  function scan() {
    themeButtons();
    scrollBoxes(document);
    if (!window.Bokeh || !Bokeh.index || !Bokeh.index.roots) return;
    var roots = Array.from(Bokeh.index.roots);
    for (var i = 0; i < roots.length; i++) walk(roots[i], visit);
  }

  var pending = 0;
  function soon() {
    if (pending) return;
    pending = setTimeout(function () { pending = 0; scan(); }, 50);
  }

  function start() {
    scan();
    // widgets render after this script (and later ones when scrolled near): scan again then
    new MutationObserver(soon).observe(document.body, {childList: true, subtree: true});
    window.addEventListener("resize", soon, {passive: true});
    new MutationObserver(soon).observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme", "data-mode"]});
    var n = 0, t = setInterval(function () { scan(); if (++n >= 10) clearInterval(t); }, 300);
  }
  // every widget view's stylesheets, before anything else (widgets/js/live.js calls it as soon as
  // a widget is embedded, before its answer shows; the scan that watches answers comes after)
  function style() {
    if (!window.Bokeh || !Bokeh.index || !Bokeh.index.roots) return;
    var roots = Array.from(Bokeh.index.roots);
    for (var i = 0; i < roots.length; i++) walk(roots[i], adopt);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  return {scan: scan, style: style, announcer: announcer, plainText: plainText, DELAY: DELAY};
})();
