/* BfGridExplorer: the controller of the Basic Fantasy movement-cost explorer
 * (widgets/views/bfrpg.py GridExplorer), shared by its two homes:
 *
 * - the built site: the explorer's Bokeh models (a Div holding the DOM grid, three Selects, the
 *   output Div and two unrendered ColumnDataSources) call BfGridExplorer.attach(uid, models)
 *   from their CustomJS callbacks; every square is recomputed in the page by the JS twins
 *   (BfrpgOptions, GridCost; checked against Python in the tests);
 * - Jupyter: widgets/js/grid_widget.mjs (the anywidget front end, this file + that one as one ES
 *   module) calls BfGridExplorer.mount(uid, host); the kernel computes every square with the
 *   Python library and the front end only draws what it sends.
 *
 * Both give make() a host: where the squares' data is kept (cells()), how a new floor plan is
 * computed (apply: at once on the site, by the kernel in Jupyter, which then calls c.paint())
 * and how a square's path is found (path: returned at once, or later through c.drawPath).
 * The first controller of a uid is kept (window.__bfGrid[uid], read by the tests and
 * scripts/bench.py).
 *
 * No rules here: every text (status line per movement rate, option names, messages) comes from
 * the Python library through `data` (GridExplorer.export). This file draws the grid, keeps it in
 * a box that pans sideways when it is wider than the page (squares keep their size, see
 * views.bfrpg.grid_css), moves the keyboard cursor and applies the chosen tool.
 *
 * Keyboard: the grid is one tab stop (role="grid"); arrow keys, Home and End move a cursor
 * square; Enter or Space applies the tool there; with the path tool the cheapest path to the
 * cursor square is shown, as when the mouse hovers. Plain ES2015 in the browser.
 */
var BfGridExplorer = (function () {
  "use strict";
  var registry = (window.__bfGrid = window.__bfGrid || {});

  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  }
  // Same rules as views.bfrpg.cell_label / cell_class (checked by the browser tests).
  function label(code, opt, feet, enemy) {
    if (code === "@") return "나";
    if (code === "e") return enemy ? "적" + enemy : "적";
    if (code === "a") return "아군";
    if (feet < 0) return "";
    return opt.indexOf("flee") === 0 ? feet + "!" : String(feet);
  }
  function cellClass(code, opt) {
    return "c o-" + opt + (code === "e" ? " k-e" : code === "b" ? " k-b" : code === "d" ? " k-d" : "");
  }
  function error(text) { return '<p class="widget-error" role="alert">⚠ ' + esc(text) + "</p>"; }
  // The enemies' numbers on the grid (1, 2, … in square order), as GridResult.enemy_numbers.
  function enemyNumbers(codes) {
    var num = {}, n = 0;
    for (var i = 0; i < codes.length; i++) if (codes[i] === "e") num[i] = ++n;
    return num;
  }

  /* host: {data, cells() → {w, h, k, opt, feet, shots, label, cls}, findGrid() → the .bfg
   * element or null, setGridHtml(html), tool(), status() → the status line of the rate in use,
   * getMsg(), setMsg(html), apply(codes, w, h) (a new floor plan: codes as an array),
   * path(i) → the squares of i's path, or null when it comes later (c.drawPath), setPath(p)} */
  function make(uid, host) {
    var data = host.data;
    var c = {uid: uid, host: host, root: null, els: null, shown: null, text: null, path: [],
             cursor: -1, pathFor: -1};

    // Same markup as views.bfrpg.GridExplorer.grid_html.
    function gridHtml(w, h, cls, lab) {
      var out = [data.openTag.replace(/\{w\}/g, w).replace(/\{h\}/g, h).replace(/\{wp\}/g, w + 1)];
      for (var i = 0; i < cls.length; i++) {
        if (i % w === 0) out.push('<div class="r" role="row">');
        out.push('<div class="' + cls[i] + '" role="gridcell" data-i="' + i + '">' + esc(lab[i]) + "</div>");
        if (i % w === w - 1) out.push("</div>");
      }
      out.push("</div>");
      return out.join("");
    }
    // The grid in its frame: the pan box and its hint (views.bfrpg.grid_frame_html).
    function frame(html) { return data.frame.split("{grid}").join(html); }
    c.frame = frame;
    function findRoot() {
      if (c.root && c.root.isConnected) return c.root;
      c.root = null; c.els = null; c.shown = null; c.text = null;  // a new element: write every square once
      var el = host.findGrid();
      if (el) bind(el);
      return c.root;
    }
    function bind(el) {
      c.root = el;
      c.els = el.querySelectorAll(".c");
      if (el.__bfBound) return;
      el.__bfBound = true;
      el.addEventListener("click", c.click);
      el.addEventListener("mouseover", c.over);
      el.addEventListener("keydown", c.key);
      // a tap or click focuses the grid too: only focus by keyboard puts the cursor on a square
      // (and pans to it); a tap's own square becomes the cursor in c.click
      el.addEventListener("pointerdown", function () { c.pointing = true; });
      el.addEventListener("focus", function () {
        if (c.pointing) { c.pointing = false; return; }
        moveCursor(c.cursor < 0 ? startSquare() : c.cursor);
      });
      showMover();
    }
    // The pan box (the grid's parent) says "옆으로 밀어 보기" when the grid is wider than the
    // page, and starts with the mover's square in view.
    function showMover() {
      var box = c.root && c.root.parentElement, el = c.els && c.els[startSquare()];
      if (!box) return;
      var wide = box.scrollWidth > box.clientWidth + 1, hint = box.previousElementSibling;
      if (hint && hint.classList.contains("bfg-hint")) hint.hidden = !wide;
      if (wide && el) {
        var at = el.getBoundingClientRect(), frame = box.getBoundingClientRect();
        box.scrollLeft += at.left - frame.left - (box.clientWidth - at.width) / 2;
      }
    }
    function startSquare() {
      var k = host.cells().k;
      for (var i = 0; i < k.length; i++) if (k[i] === "@") return i;
      return 0;
    }
    // What a screen reader hears for the cursor square (and, with the path tool, the line under
    // the grid): column, row, option, feet and who gets a parting shot. Same text as
    // views.bfrpg.GridResult.describe.
    function describe(i) {
      var d = host.cells(), w = d.w, k = d.k[i], opt = d.opt[i], feet = d.feet[i];
      var num = enemyNumbers(d.k);
      var what = k === "e" ? data.names.e + num[i] : k === "@" ? data.names["@"] : data.optionsKo[opt];
      var parts = ["열 " + (i % w) + ", 행 " + Math.floor(i / w), what];
      if (feet >= 0 && k !== "@") parts.push(feet + "피트");
      if (k === "b" || k === "d") parts.push(data.names[k]);
      var shots = d.shots && d.shots[i] ? d.shots[i].split(" ") : [];
      if (shots.length) {
        parts.push(data.messages.shots.replace("{who}", shots.map(function (e) {
          return data.names.e + num[+e];
        }).join(", ")));
      }
      return parts.join(", ");
    }
    function markCursor() {
      var root = findRoot();
      if (!root) return;
      var old = root.querySelector(".cur");
      var el = c.cursor >= 0 ? c.els[c.cursor] : null;
      if (old && old !== el) { old.classList.remove("cur"); old.removeAttribute("id"); old.removeAttribute("aria-label"); }
      if (!el) { root.removeAttribute("aria-activedescendant"); return; }
      el.classList.add("cur");
      el.id = uid + "-cursor";
      el.setAttribute("aria-label", describe(c.cursor));
      root.setAttribute("aria-activedescendant", el.id);
    }
    function moveCursor(i) {
      var n = host.cells().k.length;
      c.cursor = Math.max(0, Math.min(n - 1, i));
      markCursor();
      if (host.tool() === "path") c.showPath(c.cursor);
      var el = c.els && c.els[c.cursor];
      if (el && el.scrollIntoView) el.scrollIntoView({block: "nearest", inline: "nearest"});
    }
    // Draw the squares as host.cells() says: a new grid for a new size, else only what changed.
    function paint() {
      var d = host.cells(), root = findRoot(), cls = d.cls, lab = d.label, n = cls.length, i;
      if (!root || c.els.length !== n || +root.dataset.w !== d.w) {
        var focused = root && root.getRootNode().activeElement === root;
        host.setGridHtml(gridHtml(d.w, d.h, cls, lab));  // new size: new markup
        c.root = null; findRoot();
        c.shown = cls.slice(); c.text = lab.slice(); c.path = [];
        if (c.cursor >= n) c.cursor = -1;
        markCursor();
        if (focused && c.root) c.root.focus();
        return;
      }
      var kids = c.els, shown = c.shown || new Array(n), text = c.text || new Array(n);
      var mark = new Uint8Array(n);
      for (i = 0; i < c.path.length; i++) mark[c.path[i]] = 1;
      for (i = 0; i < n; i++) {
        var want = mark[i] ? cls[i] + " p" : cls[i];
        if (i === c.cursor) want += " cur";
        if (shown[i] !== want) { kids[i].className = want; shown[i] = want; }
        if (text[i] !== lab[i]) { kids[i].textContent = lab[i]; text[i] = lab[i]; }
      }
      c.shown = shown; c.text = text;
      if (c.cursor >= 0) kids[c.cursor].setAttribute("aria-label", describe(c.cursor));
    }
    // After a key applies the tool, say what the square is now, through the widget's polite
    // live region (made by widgets/js/a11y.js, or the Jupyter view's own); an error message
    // has role="alert" itself.
    function announce(text) {
      var el = host.announcer ? host.announcer() : document.querySelector('.book-announce[data-for="' + uid + '"]');
      if (!el || (host.getMsg() || "").indexOf("widget-error") >= 0) return;
      el.textContent = text;
      el.dataset.count = String(+(el.dataset.count || 0) + 1);
    }
    function setMsg(html) { if (host.getMsg() !== html) host.setMsg(html); }

    // The squares' path to square i (i < 0: none), with the square's option, feet and who gets
    // a parting shot under the grid.
    c.showPath = function (i) {
      var n = host.cells().k.length;
      if (i >= 0 && i < n) {
        c.pathFor = i;
        var p = host.path(i);
        if (p) c.drawPath(p, i);
        return;
      }
      c.pathFor = -1;
      if ((host.getMsg() || "").indexOf("widget-error") < 0 || c.res) setMsg(host.status());
      if (c.path.length) c.drawPath([], -1);
    };
    // Show path p (square indices) found for square i (-1: clear the path).
    c.drawPath = function (p, i) {
      if (i >= 0 && i !== c.pathFor) return;       // an answer for a square left since
      if (i >= 0) setMsg(host.status() + "<p>" + esc(describe(i)) + "</p>");
      if (!p.length && !c.path.length) return;
      c.path = p;
      host.setPath(p);
      paint();
    };
    c.tap = function (i) {
      var d = host.cells();
      if (!(i >= 0 && i < d.k.length)) return;
      var W = d.w, tool = host.tool();
      if (tool === "path") { c.showPath(i); return; }
      var codes = Array.prototype.slice.call(d.k), here = codes[i], code = data.codes[tool];
      if (code === "@") {
        if (here === "@") return;
        if (here !== ".") {
          setMsg(error(data.messages.occupied.replace("{col}", i % W).replace("{row}", Math.floor(i / W))
                       .replace("{what}", data.names[here])));
          return;
        }
        for (var j = 0; j < codes.length; j++) if (codes[j] === "@") codes[j] = ".";
      } else if (here === "@") {
        setMsg(error(data.messages.mover));
        return;
      }
      codes[i] = code;
      c.path = [];
      host.apply(codes, d.w, d.h);
    };
    function square(ev) {
      var el = ev.target && ev.target.closest ? ev.target.closest("[data-i]") : null;
      if (!el) return -1;
      if (ev.currentTarget && ev.currentTarget !== c.root) bind(ev.currentTarget);
      return +el.dataset.i;
    }
    c.click = function (ev) {
      var i = square(ev);
      c.pointing = false;
      if (i < 0) return;
      c.cursor = i;  // the keyboard cursor follows the mouse
      c.tap(i);
      markCursor();
    };
    c.over = function (ev) {
      if (host.tool() !== "path") return;
      var i = square(ev);
      if (i >= 0 && i !== c.pathFor) c.showPath(i);
    };
    c.key = function (ev) {
      var d = host.cells(), w = d.w, i = c.cursor < 0 ? startSquare() : c.cursor, row = Math.floor(i / w);
      var n = d.k.length;
      switch (ev.key) {
        case "ArrowLeft": if (i % w > 0) i -= 1; break;
        case "ArrowRight": if (i % w < w - 1) i += 1; break;
        case "ArrowUp": if (i - w >= 0) i -= w; break;
        case "ArrowDown": if (i + w < n) i += w; break;
        case "Home": i = ev.ctrlKey ? 0 : row * w; break;
        case "End": i = ev.ctrlKey ? n - 1 : row * w + w - 1; break;
        case "Enter": case " ": case "Spacebar":
          ev.preventDefault();
          ev.stopPropagation();
          c.cursor = i;
          c.tap(i);
          markCursor();
          c.pendingAnnounce = i;   // said once the square's new state is drawn (c.painted)
          if (!host.later) { c.pendingAnnounce = -1; announce(describe(i)); }
          return;
        default: return;
      }
      ev.preventDefault();
      ev.stopPropagation();
      moveCursor(i);
    };
    // The host drew new squares (Jupyter: the kernel's answer came): draw them, say the square
    // a key changed.
    c.painted = function () {
      c.path = [];
      paint();
      markCursor();
      if (c.pendingAnnounce >= 0) { var i = c.pendingAnnounce; c.pendingAnnounce = -1; announce(describe(i)); }
    };
    c.pendingAnnounce = -1;
    c.paint = paint;
    c.setMsg = setMsg;
    c.describe = describe;
    c.moveCursor = moveCursor;
    c.find = findRoot;
    c.showMover = showMover;
    return c;
  }

  // The grid's element inside the Bokeh Div's shadow root (found again after Bokeh re-renders it).
  function findInPage(uid) {
    var stack = [document.querySelector('[data-live="' + uid + '"]') || document];
    while (stack.length) {
      var r = stack.pop();
      var hit = r.querySelector('.bfg[data-uid="' + uid + '"]');
      if (hit) return hit;
      var all = r.querySelectorAll("*");
      for (var k = 0; k < all.length; k++) if (all[k].shadowRoot) stack.push(all[k].shadowRoot);
    }
    return null;
  }

  /* The site's explorer: its host on the Bokeh models `m` ({cells, path, grid, tool, rate,
   * scene, msg, data}); squares recomputed by the JS twins. */
  function siteExplorer(uid, m) {
    var data = m.data, c;
    function rateNow() {
      return m.rate.value === "scene" ? data.scenes[m.scene.value].rate : data.rates[m.rate.value];
    }
    var host = {
      data: data,
      cells: function () {
        var d = m.cells.data;
        return {w: m.cells.tags[0], h: m.cells.tags[1], k: d.k, opt: d.opt, feet: d.feet,
                shots: d.shots, label: d.label, cls: d.cls};
      },
      findGrid: function () { return findInPage(uid); },
      setGridHtml: function (html) { m.grid.text = c.frame(html); },
      tool: function () { return m.tool.value; },
      status: function () { return data.status[String(rateNow())]; },
      getMsg: function () { return m.msg.text; },
      setMsg: function (html) { m.msg.text = html; },
      apply: function (codes, w, h) { safely(function () { return recompute(codes, w, h); }); },
      path: function (i) {
        // The first data came from Python: compute the JS result once before showing a path.
        var res = c.res || safely(function () { return recompute(); });
        return res ? BfrpgOptions.pathTo(res, i) : [];
      },
      setPath: function (p) {
        var W = m.cells.tags[0];
        m.path.data = {x: p.map(function (s) { return s % W + 0.5; }),
                       y: p.map(function (s) { return Math.floor(s / W) + 0.5; })};
      }
    };
    c = make(uid, host);
    function recompute(codes, w, h) {
      var t0 = performance.now();
      w = w || m.cells.tags[0]; h = h || m.cells.tags[1];
      codes = codes || m.cells.data.k.slice();
      var n = w * h, lists = {"#": [], "b": [], "d": [], "a": [], "e": []}, start = -1, i;
      for (i = 0; i < n; i++) {
        var k = codes[i];
        if (k === "@") start = i; else if (lists[k]) lists[k].push(i);
      }
      var res = null;
      if (start >= 0) {
        res = BfrpgOptions.options({width: w, height: h, start: start, rate: rateNow(),
          blocked: lists["#"], barrier: lists.b, difficult: lists.d, allies: lists.a,
          enemies: lists.e, maxWork: data.maxWork});
      }
      var opt = new Array(n), feet = new Array(n), lab = new Array(n), cls = new Array(n);
      var shots = new Array(n), num = enemyNumbers(codes);
      for (i = 0; i < n; i++) {
        var code = codes[i];
        opt[i] = res ? res.option[i] : (code === "#" || code === "e" ? "blocked" : code === "a" ? "pass" : "out");
        feet[i] = res ? res.feet[i] : -1;
        shots[i] = res ? res.shots[i].join(" ") : "";
        lab[i] = label(code, opt[i], feet[i], num[i]);
        cls[i] = cellClass(code, opt[i]);
      }
      c.res = res;
      c.path = [];
      m.cells.tags = [w, h];
      m.cells.data = {k: codes, opt: opt, feet: feet, shots: shots, label: lab, cls: cls};
      if (m.path.data.x.length) m.path.data = {x: [], y: []};
      c.paint();
      c.setMsg(start < 0 ? error(data.messages.noStart) : host.status());
      (window.__bfGridTimes = window.__bfGridTimes || []).push(performance.now() - t0);
      return res;
    }
    // A recompute that says in Korean why it could not be done (too many ways to flee).
    function safely(fn) {
      try { return fn(); } catch (err) {
        c.setMsg(error(err && err.tooMany ? data.messages.tooMany
                                          : data.messages.failed + String(err && err.message || err)));
        return null;
      }
    }
    c.recompute = recompute;
    c.loadScene = function () {
      var s = data.scenes[m.scene.value];
      if (m.rate.value !== "scene") m.rate.value = "scene";  // its callback recomputes the old scene
      c.cursor = -1;
      safely(function () { return recompute(s.codes.split(""), s.w, s.h); });
      c.showMover();
    };
    c.changeRate = function () { safely(function () { return recompute(); }); };
    return c;
  }

  /* The controller of the site's explorer `uid` (made on the first call). `models`: the
   * CustomJS args {cells, path, grid, tool, rate, scene, msg, data}. */
  function attach(uid, models) {
    var c = registry[uid];
    if (!c) {
      c = registry[uid] = siteExplorer(uid, models);
      // Bind the grid's listeners as soon as it is drawn, then (when the page is idle) one
      // recompute of the shown squares (same result as Python's) warms up the JS so that the
      // first click is quick too.
      var tries = 0;
      (function find() { if (!c.find() && tries++ < 100) requestAnimationFrame(find); })();
      (window.requestIdleCallback || setTimeout)(function () {
        if (!c.res) { try { c.recompute(); } catch (err) { /* Python's first answer stays */ } }
      });
    }
    return c;
  }

  /* A controller on any host (the Jupyter view: widgets/js/grid_widget.mjs). */
  function mount(uid, host) {
    var c = make(uid, host);
    registry[uid] = c;
    return c;
  }

  return {attach: attach, mount: mount, get: function (uid) { return registry[uid]; },
          label: label, cellClass: cellClass, error: error};
})();
