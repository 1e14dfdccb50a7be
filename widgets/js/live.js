/* Live widgets on the built book: embed each widget when it nears the viewport, answer a
 * control change from the widget's table of first answers at once, and send any other value
 * to the in-page engine (the project's own Python library running in a module Web Worker).
 *
 * No rules math lives here: this file only builds lookup keys, moves values between a slider
 * and its number box, and shows what the table or the engine returns.
 *
 * Page API (used by the tests and other page scripts):
 *   LiveBook.tables                -> Promise: the page's widget data has arrived (below)
 *   LiveBook.embedAll()            -> Promise of the number of widgets, once all are embedded
 *   LiveBook.values(uid)           -> {control name: raw value} as the page would send it, or
 *                                     null before the widget is embedded
 *   LiveBook.set(uid, values)      -> Promise: set controls (raw values), answer, resolve when shown
 *   LiveBook.settled(uid)          -> Promise: resolves when the widget's latest change is shown
 *   LiveBook.engineState()         -> "off" | "booting" | "ready" | "failed" | "absent"
 *   LiveBook.ask(origin, values)   -> Promise of the engine's raw answer (tests)
 *   LiveBook.engineTimeline()      -> Promise of how the engine booted: {steps, files} (the
 *                                     worker's own clock, ms since the epoch; bench_engine.py)
 *   LiveBook.normalise(text)       -> typed text as the library reads it (NFKC, minus signs)
 *   LiveBook.picked(uid, indices)  -> a tapped bar: its exact value under the plot
 *   "live:answer" event on the .live-widget element after every shown answer
 *       (detail: {uid, values, source: "table" | "engine"}); "live:error" likewise.
 *
 * The page's widget data (each widget's Bokeh document and page table) is not in the page: it
 * comes in a script of its own (book/_ext/page_tables.py, named by <link rel="live-tables">),
 * which this file asks for when it runs, after the page has been parsed and painted, so the
 * first paint does not wait for it. Widgets are registered once it has run.
 */
(function () {
  "use strict";

  const here = document.currentScript ? document.currentScript.src : "";
  const tables = new Promise((done) => {
    const link = document.querySelector('link[rel="live-tables"]');
    if (!link) {
      done();
      return;
    }
    const script = document.createElement("script");
    script.src = link.href;
    script.onload = script.onerror = () => done();
    document.head.appendChild(script);
  });
  const config = window.LiveBookConfig || {};
  const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
  // the same minus signs as widgets.views.live.normalise_typed (NFKC keeps U+2212)
  const MINUS = /[\u2212\u2013\u2012\ufe63]/g;
  const STALE = " 흐리게 보이는 답은 앞의 값에 대한 것입니다.";
  const KEPT = " 기본값에서 한 가지만 바꾼 값(슬라이더 눈금·메뉴·스위치)은 이 페이지의 표로 언제나 바로 답합니다.";
  const TEXT = {
    booting: "표에 없는 값이라 계산 엔진을 준비하고 있습니다…" + STALE,
    firstBoot: "표에 없는 값이라 계산 엔진을 준비하고 있습니다. 이 브라우저에서는 처음이라 엔진을 " +
      "내려받아 준비하느라 몇 초 걸립니다…" + STALE,
    computing: "계산하는 중…" + STALE,
    absent: "⚠ 이 값은 미리 계산해 둔 표에 없습니다. 이 사이트에는 직접 계산하는 기능이 " +
      "함께 설치되지 않아, 표에 있는 값만 답할 수 있습니다." + STALE + KEPT,
    offline: "⚠ 인터넷에 연결되어 있지 않고 계산 엔진이 이 기기에 저장되어 있지 않아, 표에 없는 이 값은 " +
      "계산할 수 없습니다." + STALE + KEPT + " 인터넷에 연결되면 값을 다시 바꾸어 보세요. " +
      "‘책 전체를 기기에 저장’을 눌러 두면 다음부터는 인터넷 없이도 모든 값을 계산합니다.",
    failed: "⚠ 계산 엔진을 불러오지 못했습니다." + STALE + KEPT + " 값을 다시 바꾸면 엔진을 다시 불러옵니다.",
    save: "책 전체를 기기에 저장",
  };
  const widgets = {};
  let engine = null;

  function normalise(text) {
    return String(text).normalize("NFKC").replace(MINUS, "-");
  }

  function assetURL(path) {
    return new URL(path, here || document.baseURI).href;
  }

  // --- widgets ---------------------------------------------------------------------
  function register(el) {
    const uid = el.dataset.live;
    if (!uid || widgets[uid] || !el.querySelector("script.live-doc")) return;
    // a widget without page data (the grid explorer) is only embedded: its page code answers it
    const dataEl = el.querySelector("script.live-data");
    const data = dataEl ? JSON.parse(dataEl.textContent) : null;
    const st = {
      uid, el, data, doc: null, embedding: null, seq: 0, shownSeq: 0, quiet: new Map(),
      raw: {}, waiters: [],
    };
    widgets[uid] = st;
    if (!data) return;
    el.addEventListener("pointerdown", intent, {passive: true});
    el.addEventListener("keydown", intent, {passive: true});
    el.addEventListener("focusin", intent, {passive: true});
    el.addEventListener("click", saveFromWidget);
  }

  // A tapped, clicked or focused number box selects its value, so the reader types over it: on
  // entering the box, and on a tap in the box after the reader finished a value there (Enter),
  // as a phone keeps the box focused. The listeners sit on each box itself: a widget's boxes
  // share one shadow tree, and a "focusin" moving from one box to another inside it never
  // reaches the page (the event stops where the box it left and the box it enters are the same
  // host), so a listener on the widget saw only the first box a reader tapped. The click that
  // focused the box would put the caret where it landed and undo the selection: its mouseup is
  // cancelled and the click selects again.
  function selectOnFocus(input) {
    let fresh = false;
    let finished = false;
    input.addEventListener("focus", () => {
      fresh = true;
      input.select();
      setTimeout(() => { if (fresh && input.matches(":focus")) input.select(); }, 0);
    });
    input.addEventListener("pointerdown", () => {
      if (finished && input.matches(":focus")) fresh = true;
      finished = false;
    });
    input.addEventListener("mouseup", (ev) => { if (fresh) ev.preventDefault(); });
    input.addEventListener("click", () => {
      if (fresh && input.matches(":focus")) input.select();
      fresh = false;
    });
    input.addEventListener("keydown", (ev) => {
      fresh = false;
      finished = ev.key === "Enter";
    });
    input.addEventListener("blur", () => { fresh = false; finished = false; });
  }

  function embed(st) {
    if (st.embedding) return st.embedding;
    const item = JSON.parse(st.el.querySelector("script.live-doc").textContent);
    const mount = st.el.querySelector(".live-mount");
    mount.id = "live-mount-" + st.el.dataset.table;
    mount.textContent = "";
    st.embedding = Promise.resolve(window.Bokeh.embed.embed_item(item, mount.id)).then(() => {
      st.doc = window.Bokeh.documents[window.Bokeh.documents.length - 1];
      for (const doc of window.Bokeh.documents) {
        if (doc.get_model_by_name(st.uid + "-out") || doc.get_model_by_name(st.uid + "-root")) st.doc = doc;
      }
      if (!st.data) return st;
      st.data.names.forEach((name, i) => {
        const kind = st.data.kinds[i];
        if (kind === "number") st.raw[name] = model(st, name + "-box").value;
        else if (kind === "text") st.raw[name] = model(st, name).value;
      });
      decorate(st);
      if (window.BookA11y) window.BookA11y.style();   // the widgets' stylesheet, before any answer shows
      // the output is stored once, in the table: fill it (no event: nothing was changed yet)
      const entry = tableEntry(st, values(st.uid));
      if (entry) {
        model(st, "out").text = withFold(st, entry.h);
        st.axisNames = entry.k ? JSON.stringify(entry.k) : null;   // the plot was built with them
        draw(st, entry);
      }
      return st;
    });
    return st.embedding;
  }

  function model(st, name) {
    return st.doc ? st.doc.get_model_by_name(st.uid + "-" + name) : null;
  }

  function viewOf(m) {
    try {
      return m && window.Bokeh.index.find_one(m);
    } catch (err) {
      return null;
    }
  }

  // What Bokeh's models do not say: a number box asks a phone for its number keypad (decimal
  // where the value may be negative or fractional: the −/+ beside it enter those), a text box
  // (a dice expression) is not spell-checked or capitalised, a switch's label toggles it, and an
  // opened "N 이상 · N 이하" stays open. Applied again after changes (a view may render anew).
  function decorate(st) {
    st.data.names.forEach((name, i) => {
      const kind = st.data.kinds[i];
      if (kind === "number" || kind === "text") {
        const view = viewOf(model(st, kind === "number" ? name + "-box" : name));
        const input = view && view.input_el;
        if (!input || input.dataset.liveDecorated) return;
        input.dataset.liveDecorated = "1";
        input.autocomplete = "off";
        if (kind === "number") {
          const slider = model(st, name);
          const whole = slider && Number.isInteger(slider.step) && Number.isInteger(slider.start);
          input.inputMode = whole && slider.start >= 0 ? "numeric" : "decimal";
          input.enterKeyHint = "done";
          selectOnFocus(input);
          for (const [end, what] of [["down", "한 단계 내리기"], ["up", "한 단계 올리기"]]) {
            const button = viewOf(model(st, name + "-" + end));
            if (button && button.button_el) button.button_el.setAttribute("aria-label", st.data.labels[i] + " " + what);
          }
        } else {
          input.spellcheck = false;
          input.setAttribute("autocapitalize", "off");
          input.setAttribute("autocorrect", "off");
        }
      } else if (kind === "toggle") {
        const view = viewOf(model(st, name + "-label"));
        if (!view || view.el.dataset.liveDecorated) return;
        view.el.dataset.liveDecorated = "1";
        view.el.addEventListener("click", () => {
          const m = model(st, name);
          if (m) m.active = !m.active;           // its own callback answers the change
        });
      }
    });
    const out = viewOf(model(st, "out"));
    const root = out && out.shadow_el;
    if (root && !root.liveFold) {
      root.liveFold = true;
      // "toggle" does not bubble out of the shadow tree: listen inside it
      root.addEventListener("toggle", (ev) => {
        if (!ev.target.matches || !ev.target.matches("details.cumulative")) return;
        if (st.foldOpen === ev.target.open) return;
        st.foldOpen = ev.target.open;
        st.el.dispatchEvent(new CustomEvent("live:fold", {bubbles: true, detail: {uid: st.uid, open: st.foldOpen}}));
      }, true);
    }
  }

  // whether the widget's "N 이상 · N 이하" is open; with a value, open or close it
  function fold(uid, open) {
    const st = widgets[uid];
    if (!st) return false;
    if (open !== undefined) {
      st.foldOpen = Boolean(open);
      const out = model(st, "out");
      if (out) out.text = withFold(st, out.text);
    }
    return Boolean(st.foldOpen);
  }

  function withFold(st, html) {
    const shut = String(html).replace('<details class="cumulative" open>', '<details class="cumulative">');
    return st.foldOpen ? shut.replace('<details class="cumulative">', '<details class="cumulative" open>') : shut;
  }

  function embedAll() {
    // one after another: embedding many documents at once makes each wait on the others' layout
    return tables.then(() => Object.values(widgets)
      .reduce((done, st) => done.then(() => embed(st)), Promise.resolve()))
      .then(() => Object.keys(widgets).length);
  }

  function observe() {
    const els = Array.from(document.querySelectorAll(".live-widget[data-live]"));
    els.forEach(register);
    if (!("IntersectionObserver" in window)) {
      embedAll();
      return;
    }
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        io.unobserve(e.target);
        const st = widgets[e.target.dataset.live];
        if (st) embed(st);
      }
    }, {rootMargin: "600px 0px"});
    els.forEach((el) => io.observe(el));
  }

  // --- values and keys -------------------------------------------------------------
  function values(uid) {
    const st = widgets[uid];
    if (!st || !st.doc || !st.data) return null;   // not embedded yet (LiveBook.set embeds first)
    const out = {};
    st.data.names.forEach((name, i) => {
      const kind = st.data.kinds[i];
      const m = model(st, name);
      if (kind === "number" || kind === "text") out[name] = st.raw[name];
      else if (kind === "toggle") out[name] = m.active ? "1" : "0";
      else out[name] = m.value;
    });
    return out;
  }

  // the lookup key of a raw value: the same text as Control.key in widgets/views/live.py
  function keyOf(kind, raw) {
    if (kind === "text") return String(raw).replace(/%/g, "%25").replace(/\|/g, "%7C");
    if (kind !== "number") return String(raw);
    const text = normalise(raw);
    return NUMBER.test(text) ? String(Number(text)) : "\u0000" + text;
  }

  // the page's table (widgets/views/static_page.py pack): answers cut into shared pieces
  function tableEntry(st, vals) {
    const key = st.data.names.map((n, i) => keyOf(st.data.kinds[i], vals[n])).join("|");
    const ref = st.data.keys[key];
    if (ref === undefined) return null;
    const [hi, bi] = String(ref).split(".").map((r) => parseInt(r, 36));
    const entry = {h: pieces(st, st.data.h[hi]).join("")};
    if (bi === undefined || Number.isNaN(bi)) {
      entry.x = null;
      return entry;
    }
    const [x, t, c, k, n, w] = st.data.b[bi];
    entry.x = x.length === 2 ? Array.from({length: x[1]}, (_, i) => x[0] + i) : x[0];
    entry.t = pieces(st, t);
    entry.y = entry.t.map(labelHeight);
    entry.c = pieces(st, c);
    if (k) entry.k = k;
    if (n) entry.n = pieces(st, n);
    if (w !== undefined) entry.w = w;
    return entry;
  }

  function pieces(st, ids) {
    return ids ? ids.split(".").map((i) => st.data.p[parseInt(i, 36)]) : [];
  }

  // a bar's height from its exact label ("5/12 (41.67%)"), as static_page.label_height reads it
  function labelHeight(label) {
    const exact = String(label).split(" ")[0];
    const [num, den = "1"] = exact.split("/");
    if (num.length < 16 && den.length < 16) return Number(num) / Number(den);
    const shift = Math.max(0, den.length - 17);           // both to about 17 digits
    return Number(BigInt(num) / 10n ** BigInt(shift)) / Number(BigInt(den) / 10n ** BigInt(shift));
  }

  // --- control changes -------------------------------------------------------------
  // attr: the property that changed ("value_input" while typing, "value" on Enter, a slider, a
  // menu or code setting it, "active" for a switch)
  function changed(uid, obj, attr) {
    const st = widgets[uid];
    if (!st || !st.doc || !st.data || ours(st, obj, attr)) return;
    const name = (obj.name || "").slice(uid.length + 1);
    const typed = attr === "value_input" ? obj.value_input : obj.value;
    if (name.endsWith("-box")) {
      const control = name.slice(0, -4);
      const text = typed;
      st.raw[control] = text;
      follow(st, model(st, control), text);
    } else if (st.data.names.includes(name) && st.data.kinds[st.data.names.indexOf(name)] === "text") {
      st.raw[name] = typed;
    } else if (st.data.names.includes(name) && st.data.kinds[st.data.names.indexOf(name)] === "number") {
      const text = String(snap(obj, obj.value));   // a slider's own step, never 9.000000000000002
      st.raw[name] = text;
      const box = model(st, name + "-box");
      put(st, box, "value", text);
      put(st, box, "value_input", text);
    }
    request(st);
  }

  // the slider's step nearest to n, within its ends, the lower of two as near (the same rule as
  // widgets.views.jupyter.nearest_option in Jupyter), written with the step's own decimals
  function snap(slider, n) {
    const at = (Math.min(Math.max(n, slider.start), slider.end) - slider.start) / slider.step;
    const steps = Math.ceil(at - 0.5 - 1e-9);
    const decimals = (String(slider.step).split(".")[1] || "").length +
      (String(slider.start).split(".")[1] || "").length;
    return Number((slider.start + steps * slider.step).toFixed(decimals));
  }

  // a typed (or linked) number moves the knob to the nearest step; the box keeps the exact value
  function follow(st, slider, text) {
    if (!slider || !NUMBER.test(normalise(text))) return;
    const at = snap(slider, Number(normalise(text)));
    put(st, slider, "value", at);
  }

  // the −/+ beside a number box: the typed value one step down or up (from the knob's step
  // when the box holds no number), moving the knob with it
  function step(uid, name, direction) {
    const st = widgets[uid];
    const slider = st && model(st, name);
    const box = st && model(st, name + "-box");
    if (!slider || !box) return;
    const text = normalise(st.raw[name]);
    const from = NUMBER.test(text) ? Number(text) : slider.value;
    const decimals = Math.max((String(slider.step).split(".")[1] || "").length,
                              (text.split(".")[1] || "").length);
    const next = String(Number((from + direction * slider.step).toFixed(decimals)));
    st.raw[name] = next;
    put(st, box, "value", next);
    put(st, box, "value_input", next);
    follow(st, slider, next);
    request(st);
  }

  // Set a model's property from here (not the reader): Bokeh runs the control's callback later
  // (CustomJS runs asynchronously), so the change is remembered and its callback ignored.
  function put(st, m, prop, value) {
    if (!m || m[prop] === value) return;
    st.quiet.set(m.name + "." + prop, value);
    m[prop] = value;
  }

  function ours(st, obj, attr) {
    const k = obj.name + "." + attr;
    if (!st.quiet.has(k)) return false;
    const mine = st.quiet.get(k) === obj[attr];
    st.quiet.delete(k);
    return mine;
  }

  // controls shown only while another control has some value (Control.when in live.py)
  function showDependent(st, vals) {
    if (!st.data.when) return;
    st.data.names.forEach((name, i) => {
      const when = st.data.when[i];
      if (!when) return;
      const on = when[1].includes(String(vals[when[0]]));
      const kind = st.data.kinds[i];
      const part = model(st, (kind === "number" || kind === "toggle") ? name + "-row" : name);
      if (part && part.visible !== on) part.visible = on;
    });
  }

  function request(st) {
    const vals = values(st.uid);
    showDependent(st, vals);
    const seq = ++st.seq;
    const entry = tableEntry(st, vals);
    if (entry) {
      show(st, seq, entry, vals, "table");
      return;
    }
    if (!config.bundle) {
      stale(st, true);
      status(st, TEXT.absent, true);
      finish(st, seq, "live:error", vals);
      return;
    }
    const wasReady = engineState() === "ready";
    // the answer shown is for the values before: dim it if the new one is not there at once
    // (marking restyles the output and the plot, so a quick answer is not marked at all)
    clearTimeout(st.staleTimer);
    st.staleTimer = setTimeout(() => { if (st.shownSeq < seq && st.seq === seq) stale(st, true); },
                               wasReady ? 150 : 0);
    if (!wasReady) status(st, engineUsed() ? TEXT.booting : TEXT.firstBoot, false);
    else setTimeout(() => { if (st.shownSeq < seq && st.seq === seq) status(st, TEXT.computing, false); }, 150);
    ask(st.data.origin, vals).then((answer) => {
      if (seq !== st.seq) return;            // a newer change was made: drop this late answer
      if (answer.error !== undefined) {
        // refused: the answer left standing is the previous values', dimmed and marked so
        stale(st, true);
        status(st, "⚠ " + answer.error + STALE, true);
        finish(st, seq, "live:error", vals);
      } else {
        show(st, seq, answer, vals, "engine");
      }
    }, () => {
      if (seq !== st.seq) return;
      // the answer shown stays marked as the previous values' (never at full strength)
      stale(st, true);
      reachable().then((online) => {
        if (seq !== st.seq) return;
        status(st, online ? TEXT.failed : TEXT.offline, true, !online && window.LiveOffline);
        finish(st, seq, "live:error", vals);
      });
    });
  }

  // Whether the site answers (the engine could not start: offline, or another failure).
  // navigator.onLine alone cannot tell: it says true on a network with no way out, and where the
  // browser emulates a cut link. A HEAD request goes past the service worker (it keeps GETs), so
  // only the site itself answers it.
  function reachable() {
    if (navigator.onLine === false) return Promise.resolve(false);
    return fetch(assetURL(config.worker), {method: "HEAD", cache: "no-store"})
      .then(() => true, () => false);
  }

  function show(st, seq, entry, vals, source) {
    const out = model(st, "out");
    out.text = withFold(st, entry.h);
    decorate(st);
    stale(st, false);
    status(st, "", false);
    draw(st, entry);
    finish(st, seq, "live:answer", vals, source);
  }

  // an answer's bars (or none), the plot's ranges and its outcome names on the axis
  function draw(st, entry) {
    const bars = model(st, "bars");
    if (bars) {
      st.ticks = entry.k || null;
      if (bars.selected.indices.length) bars.selected.indices = [];
      picked(st.uid, []);
      st.names = entry.n || null;
      if (!entry.x) {
        bars.data = {x: [], y: [], c: [], t: [], w: []};
      } else {
        const w = entry.w || 0.8;
        bars.data = {x: entry.x, y: entry.y, c: entry.c, t: entry.t, w: entry.x.map(() => w)};
        const plot = model(st, "bar-plot");
        plot.x_range.start = Math.min(...entry.x) - w * 0.75;
        plot.x_range.end = Math.max(...entry.x) + w * 0.75;
        plot.y_range.end = (Math.max(...entry.y) * 1.15) || 1;
        if (entry.k && plot.below.length && JSON.stringify(entry.k) !== st.axisNames) {
          const axis = plot.below[0];                // outcomes named on the axis (set only when
          st.axisNames = JSON.stringify(entry.k);    // they change: it redraws the plot)
          axis.ticker.ticks = entry.k.map((k) => k[0]);
          const names = {};
          entry.k.forEach((k) => { names[k[0]] = k[1]; });
          axis.major_label_overrides = names;
        }
      }
    }
  }

  // a tapped bar (phones have no hover): "피해 7: 1/12 (8.33%)" on the line under the plot
  function picked(uid, indices) {
    const st = widgets[uid];
    const div = st && model(st, "picked");
    const bars = st && model(st, "bars");
    if (!div || !bars) return;
    const i = indices && indices.length ? indices[indices.length - 1] : -1;
    if (i < 0 || i >= bars.data.x.length) {
      if (div.text) div.text = "";
      return;
    }
    const x = bars.data.x[i];
    let name = st.names ? st.names[i] : String(x);
    if (st.ticks && !st.names) {
      const tick = st.ticks.find((k) => k[0] === x);
      if (tick) name = tick[1];
    }
    const what = st.data.xl ? st.data.xl + " " : "";
    div.text = '<p class="live-picked-text">' + escapeHTML(what + name) + ": <b>" +
      escapeHTML(bars.data.t[i]) + "</b></p>";
  }

  function stale(st, on) {
    if (!on) clearTimeout(st.staleTimer);
    if (Boolean(st.stale) === on) return;
    st.stale = on;
    st.el.classList.toggle("live-computing", on);
    for (const part of ["out", "bar-plot"]) {
      const m = model(st, part);
      if (!m) continue;
      const classes = m.css_classes.filter((c) => c !== "live-stale");
      m.css_classes = on ? classes.concat(["live-stale"]) : classes;
    }
  }

  function status(st, text, isError, withSave) {
    const div = model(st, "status-line");
    if (!div) return;
    // read out politely: a refusal or the engine's progress (the answer has its own region)
    const save = withSave ? '<button type="button" class="live-save">' + escapeHTML(TEXT.save) + "</button>" : "";
    div.text = text ? '<p role="status" aria-live="polite" class="' +
      (isError ? "widget-error" : "live-wait") + '">' + escapeHTML(text) + "</p>" + save : "";
  }

  // the status line's "책 전체를 기기에 저장" (inside the widget's shadow DOM): the footer's save
  function saveFromWidget(ev) {
    const path = ev.composedPath ? ev.composedPath() : [ev.target];
    const button = path.find((n) => n && n.classList && n.classList.contains("live-save"));
    if (!button || !window.LiveOffline) return;
    button.disabled = true;
    button.textContent = "저장하는 중…";
    LiveOffline.saveAll().then((failed) => {
      button.textContent = failed === null ? "이 브라우저에서는 저장할 수 없습니다"
        : failed ? `${failed}개를 저장하지 못했습니다` : "저장했습니다";
    });
  }

  function escapeHTML(text) {
    return String(text).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
  }

  function finish(st, seq, type, vals, source) {
    st.shownSeq = seq;
    st.lastType = type;
    st.el.dispatchEvent(new CustomEvent(type, {bubbles: true, detail: {uid: st.uid, values: vals, source}}));
    const waiters = st.waiters;
    st.waiters = [];
    waiters.forEach((w) => w(type));
  }

  function settled(uid) {
    const st = widgets[uid];
    if (!st) return Promise.reject(new Error("no widget " + uid));
    if (st.shownSeq === st.seq) return Promise.resolve(st.lastType || "live:answer");
    return new Promise((resolve) => st.waiters.push(resolve));
  }

  function set(uid, vals) {
    const st = widgets[uid];
    if (!st || !st.data) return Promise.reject(new Error("no live widget " + uid));
    return embed(st).then(() => {
      st.data.names.forEach((name, i) => {
        if (!(name in vals)) return;
        const kind = st.data.kinds[i];
        const raw = String(vals[name]);
        const m = model(st, name);
        if (kind === "toggle") put(st, m, "active", raw === "1" || raw === "true");
        else if (kind === "select") put(st, m, "value", raw);
        else if (kind === "text") {
          st.raw[name] = raw;
          put(st, m, "value", raw);
          put(st, m, "value_input", raw);
        } else {
          st.raw[name] = raw;
          const box = model(st, name + "-box");
          put(st, box, "value", raw);
          put(st, box, "value_input", raw);
          follow(st, m, raw);
        }
      });
      startEngineSoon();
      request(st);
      return settled(uid);
    });
  }

  // --- the engine --------------------------------------------------------------------
  // One engine per visit: a SharedWorker where the browser has one (every page and tab of the book
  // asks the same engine, and `extendedLifetime` keeps it running while the next page opens),
  // else a Worker per page, which restores the engine's memory snapshot (engine-worker.mjs). Once
  // this browser has run the engine, every page starts it as soon as it is idle, so the first
  // value no table holds is answered at once; before that, on a reader's first touch of a widget.
  const USED = "book-engine-used";

  function engineUsed() {
    try {
      return localStorage.getItem(USED) === "1";
    } catch (err) {
      return false;
    }
  }

  // A reader's first touch of a widget starts the engine, so that a value no table holds finds
  // it under way; not where the browser asks to save data (the engine is then fetched only for
  // such a value).
  function intent() {
    if (!(navigator.connection && navigator.connection.saveData)) startEngineSoon();
  }

  function startEngineSoon() {
    if ((!engine || engine.state === "failed") && config.bundle) startEngine();
  }

  function startEngine() {
    const url = new URL(assetURL(config.worker));
    url.searchParams.set("bundle", assetURL(config.bundle));
    url.searchParams.set("pyodide", assetURL(config.pyodide));
    if (config.unzstd) url.searchParams.set("unzstd", assetURL(config.unzstd));   // the wasm and zip packed
    const e = {state: "booting", worker: null, port: null, shared: false, next: 1,
               pending: new Map(), started: performance.now(), bootMs: null, boot: null,
               timelines: []};
    engine = e;
    const told = (state) => document.dispatchEvent(new CustomEvent("live:engine", {detail: {state}}));
    told("booting");                     // offline.js holds the background copy meanwhile
    const fail = (why) => {
      if (e.state === "failed") return;
      e.state = "failed";
      told("failed");
      e.pending.forEach(([, reject]) => reject(new Error(why)));
      e.pending.clear();
      if (!e.shared && e.worker) e.worker.terminate();   // the next value starts a new one
    };
    const receive = (msg) => {
      const m = msg.data;
      if (m.type === "ready") {
        e.state = "ready";
        told("ready");
        e.bootMs = performance.now() - e.started;
        e.boot = m.boot || null;
        try { localStorage.setItem(USED, "1"); } catch (err) { /* private mode: no memory */ }
      } else if (m.type === "failed") {
        fail(m.error);
      } else if (m.type === "timeline") {
        e.timelines.splice(0).forEach((done) => done({steps: m.steps, files: m.files}));
      } else if (m.type === "answer") {
        const p = e.pending.get(m.id);
        e.pending.delete(m.id);
        if (p) p[0](m.answer);
      }
    };
    try {
      if (window.SharedWorker && config.sharedEngine !== false) {
        e.worker = new SharedWorker(url.href, {type: "module", name: "book-engine", extendedLifetime: true});
        e.shared = true;
        e.port = e.worker.port;
        e.port.onmessage = receive;
        e.port.start();
      } else {
        e.worker = new Worker(url.href, {type: "module"});
        e.port = e.worker;
        e.worker.onmessage = receive;
      }
      e.worker.onerror = (ev) => {
        if (ev.preventDefault) ev.preventDefault();
        fail("engine failed");
      };
    } catch (err) {
      fail(String(err));
    }
    return e;
  }

  function ask(origin, vals) {
    const e = engine && engine.state !== "failed" ? engine : startEngine();
    if (e.state === "failed") return Promise.reject(new Error("engine failed"));
    const id = e.next++;
    return new Promise((resolve, reject) => {
      e.pending.set(id, [resolve, reject]);
      e.port.postMessage({type: "ask", id, request: JSON.stringify({origin, values: vals})});
    });
  }

  function engineTimeline() {
    if (!engine || engine.state === "failed") return Promise.resolve(null);
    return new Promise((done) => {
      engine.timelines.push(done);
      engine.port.postMessage({type: "timeline"});
    });
  }

  function engineState() {
    if (!config.bundle) return "absent";
    return engine ? engine.state : "off";
  }

  function engineBootMs() {
    return engine ? engine.bootMs : null;
  }

  // how the running engine started: {ms, from: "snapshot" | "start", shared}, and whether this
  // page found it running already (a shared engine started by an earlier page)
  function engineInfo() {
    if (!engine) return null;
    return {state: engine.state, shared: engine.shared, bootMs: engine.bootMs, boot: engine.boot};
  }

  // a page of a visit that has run the engine before starts it once idle (not to save data)
  function prestart() {
    if (!config.bundle || !engineUsed() || (navigator.connection && navigator.connection.saveData)) return;
    const later = window.requestIdleCallback || ((fn) => setTimeout(fn, 300));
    later(() => startEngineSoon(), {timeout: 1500});
  }

  window.LiveBook = {
    changed, embedAll, values, set, settled, ask, engineState, engineBootMs, engineInfo, engineTimeline, normalise,
    picked, step, fold, startEngine: startEngineSoon, tables,
  };
  function start() {
    tables.then(() => {
      observe();
      prestart();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
