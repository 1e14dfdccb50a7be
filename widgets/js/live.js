/* Live widgets on the built book: embed each widget when it nears the viewport, answer a
 * control change from the widget's table of first answers at once, and send any other value
 * to the in-page engine (the project's own Python library running in a module Web Worker).
 *
 * No rules math lives here: this file only builds lookup keys, moves values between a slider
 * and its number box, and shows what the table or the engine returns.
 *
 * Page API (used by the tests and other page scripts):
 *   LiveBook.embedAll()            -> Promise of the number of widgets, once all are embedded
 *   LiveBook.values(uid)           -> {control name: raw value} as the page would send it, or
 *                                     null before the widget is embedded
 *   LiveBook.set(uid, values)      -> Promise: set controls (raw values), answer, resolve when shown
 *   LiveBook.settled(uid)          -> Promise: resolves when the widget's latest change is shown
 *   LiveBook.engineState()         -> "off" | "booting" | "ready" | "failed" | "absent"
 *   LiveBook.ask(origin, values)   -> Promise of the engine's raw answer (tests)
 *   LiveBook.normalise(text)       -> typed text as the library reads it (NFKC, minus signs)
 *   LiveBook.picked(uid, indices)  -> a tapped bar: its exact value under the plot
 *   "live:answer" event on the .live-widget element after every shown answer
 *       (detail: {uid, values, source: "table" | "engine"}); "live:error" likewise.
 */
(function () {
  "use strict";

  const here = document.currentScript ? document.currentScript.src : "";
  const config = window.LiveBookConfig || {};
  const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
  // the same minus signs as widgets.views.live.normalise_typed (NFKC keeps U+2212)
  const MINUS = /[\u2212\u2013\u2012\ufe63]/g;
  const TEXT = {
    booting: "표에 없는 값이라 계산 엔진을 불러오고 있습니다. 처음 한 번만 몇 초 걸립니다… " +
      "흐리게 보이는 답은 앞의 값에 대한 것입니다.",
    computing: "계산하는 중… 흐리게 보이는 답은 앞의 값에 대한 것입니다.",
    absent: "⚠ 이 값은 미리 계산해 둔 표에 없습니다. 이 사이트에는 직접 계산하는 기능이 " +
      "함께 설치되지 않아, 표에 있는 값만 답할 수 있습니다.",
    failed: "⚠ 계산 엔진을 불러오지 못했습니다. 페이지를 새로 고친 뒤 다시 해 보세요. " +
      "표에 있는 값은 그대로 답합니다.",
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
      uid, el, data, doc: null, embedding: null, seq: 0, shownSeq: 0, syncing: false,
      raw: {}, waiters: [],
    };
    widgets[uid] = st;
    if (!data) return;
    el.addEventListener("pointerdown", startEngineSoon, {passive: true});
    el.addEventListener("keydown", startEngineSoon, {passive: true});
    el.addEventListener("focusin", startEngineSoon, {passive: true});
    el.addEventListener("focusin", selectNumber, {passive: true});
  }

  // a tapped number box selects its value, so the reader types over it (no erasing by hand)
  function selectNumber(ev) {
    const input = ev.composedPath ? ev.composedPath()[0] : ev.target;
    if (!input || input.tagName !== "INPUT" || input.type !== "text") return;
    const host = input.getRootNode && input.getRootNode().host;
    if (!host || !host.classList.contains("live-box")) return;
    setTimeout(() => { if (input.matches(":focus")) input.select(); }, 0);
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
      // the output is stored once, in the table: fill it (no event: nothing was changed yet)
      const entry = tableEntry(st, values(st.uid));
      if (entry) {
        model(st, "out").text = entry.h;
        st.ticks = entry.k || null;
        st.axisNames = entry.k ? JSON.stringify(entry.k) : null;   // the plot was built with them
      }
      return st;
    });
    return st.embedding;
  }

  function model(st, name) {
    return st.doc ? st.doc.get_model_by_name(st.uid + "-" + name) : null;
  }

  function embedAll() {
    // one after another: embedding many documents at once makes each wait on the others' layout
    return Object.values(widgets).reduce((done, st) => done.then(() => embed(st)), Promise.resolve())
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

  function tableEntry(st, vals) {
    const key = st.data.names.map((n, i) => keyOf(st.data.kinds[i], vals[n])).join("|");
    const ref = st.data.keys[key];
    if (ref === undefined) return null;
    const entry = {h: st.data.h[ref[0]]};
    if (ref[1] >= 0) Object.assign(entry, st.data.b[ref[1]]);
    else entry.x = null;
    return entry;
  }

  // --- control changes -------------------------------------------------------------
  // attr: the property that changed ("value_input" while typing, "value" on Enter, a slider, a
  // menu or code setting it, "active" for a switch)
  function changed(uid, obj, attr) {
    const st = widgets[uid];
    if (!st || st.syncing || !st.doc || !st.data) return;
    const name = (obj.name || "").slice(uid.length + 1);
    const typed = attr === "value_input" ? obj.value_input : obj.value;
    if (name.endsWith("-box")) {
      const control = name.slice(0, -4);
      const text = typed;
      st.raw[control] = text;
      const slider = model(st, control);
      if (slider && NUMBER.test(normalise(text))) {
        const n = Number(normalise(text));
        if (onSlider(slider, n) && n !== slider.value) sync(st, () => { slider.value = n; });
      }
    } else if (st.data.names.includes(name) && st.data.kinds[st.data.names.indexOf(name)] === "text") {
      st.raw[name] = typed;
    } else if (st.data.names.includes(name) && st.data.kinds[st.data.names.indexOf(name)] === "number") {
      const text = String(obj.value);
      st.raw[name] = text;
      const box = model(st, name + "-box");
      if (box) sync(st, () => { box.value = text; box.value_input = text; });
    }
    request(st);
  }

  // a value the slider shows exactly (one of its steps); any other stays typed in the box only
  function onSlider(slider, n) {
    if (n < slider.start || n > slider.end) return false;
    const steps = (n - slider.start) / slider.step;
    return Math.abs(steps - Math.round(steps)) < 1e-9;
  }

  function sync(st, fn) {
    st.syncing = true;
    try { fn(); } finally { st.syncing = false; }
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
    if (!wasReady) status(st, engineState() === "failed" ? TEXT.failed : TEXT.booting, false);
    else setTimeout(() => { if (st.shownSeq < seq && st.seq === seq) status(st, TEXT.computing, false); }, 150);
    ask(st.data.origin, vals).then((answer) => {
      if (seq !== st.seq) return;            // a newer change was made: drop this late answer
      if (answer.error !== undefined) {
        stale(st, false);
        status(st, "⚠ " + answer.error, true);
        finish(st, seq, "live:error", vals);
      } else {
        show(st, seq, answer, vals, "engine");
      }
    }, () => {
      if (seq !== st.seq) return;
      stale(st, false);
      status(st, TEXT.failed, true);
      finish(st, seq, "live:error", vals);
    });
  }

  function show(st, seq, entry, vals, source) {
    const out = model(st, "out");
    out.text = entry.h;
    stale(st, false);
    status(st, "", false);
    const bars = model(st, "bars");
    if (bars) {
      st.ticks = entry.k || null;
      if (bars.selected.indices.length) bars.selected.indices = [];
      picked(st.uid, []);
      if (!entry.x) {
        bars.data = {x: [], y: [], c: [], t: []};
      } else {
        bars.data = {x: entry.x, y: entry.y, c: entry.c, t: entry.t};
        const plot = model(st, "bar-plot");
        plot.x_range.start = Math.min(...entry.x) - 0.6;
        plot.x_range.end = Math.max(...entry.x) + 0.6;
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
    finish(st, seq, "live:answer", vals, source);
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
    let name = String(x);
    if (st.ticks) {
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

  function status(st, text, isError) {
    const div = model(st, "status-line");
    if (!div) return;
    // read out politely: a refusal or the engine's progress (the answer has its own region)
    div.text = text ? '<p role="status" aria-live="polite" class="' +
      (isError ? "widget-error" : "live-wait") + '">' + escapeHTML(text) + "</p>" : "";
  }

  function escapeHTML(text) {
    return String(text).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
  }

  function finish(st, seq, type, vals, source) {
    st.shownSeq = seq;
    st.lastType = type;
    st.el.dispatchEvent(new CustomEvent(type, {detail: {uid: st.uid, values: vals, source}}));
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
      sync(st, () => {
        st.data.names.forEach((name, i) => {
          if (!(name in vals)) return;
          const kind = st.data.kinds[i];
          const raw = String(vals[name]);
          const m = model(st, name);
          if (kind === "toggle") m.active = raw === "1" || raw === "true";
          else if (kind === "select") m.value = raw;
          else if (kind === "text") {
            st.raw[name] = raw;
            m.value = raw;
            m.value_input = raw;
          }
          else {
            st.raw[name] = raw;
            const box = model(st, name + "-box");
            box.value = raw;
            box.value_input = raw;
            const n = normalise(raw);
            if (NUMBER.test(n) && onSlider(m, Number(n))) m.value = Number(n);
          }
        });
      });
      startEngineSoon();
      request(st);
      return settled(uid);
    });
  }

  // --- the engine --------------------------------------------------------------------
  function startEngineSoon() {
    if (!engine && config.bundle) startEngine();
  }

  function startEngine() {
    const url = new URL(assetURL(config.worker));
    url.searchParams.set("bundle", assetURL(config.bundle));
    url.searchParams.set("pyodide", assetURL(config.pyodide));
    const e = {state: "booting", worker: null, next: 1, pending: new Map(), started: performance.now(), bootMs: null};
    engine = e;
    try {
      e.worker = new Worker(url.href, {type: "module"});
    } catch (err) {
      e.state = "failed";
      return e;
    }
    e.worker.onmessage = (msg) => {
      const m = msg.data;
      if (m.type === "ready") {
        e.state = "ready";
        e.bootMs = performance.now() - e.started;
      } else if (m.type === "failed") {
        e.state = "failed";
        e.pending.forEach(([, reject]) => reject(new Error(m.error)));
        e.pending.clear();
      } else if (m.type === "answer") {
        const p = e.pending.get(m.id);
        e.pending.delete(m.id);
        if (p) p[0](m.answer);
      }
    };
    e.worker.onerror = (ev) => {
      ev.preventDefault();
      e.state = "failed";
      e.pending.forEach(([, reject]) => reject(new Error("engine failed")));
      e.pending.clear();
    };
    return e;
  }

  function ask(origin, vals) {
    const e = engine || startEngine();
    if (e.state === "failed") return Promise.reject(new Error("engine failed"));
    const id = e.next++;
    return new Promise((resolve, reject) => {
      e.pending.set(id, [resolve, reject]);
      e.worker.postMessage({type: "ask", id, request: JSON.stringify({origin, values: vals})});
    });
  }

  function engineState() {
    if (!config.bundle) return "absent";
    return engine ? engine.state : "off";
  }

  function engineBootMs() {
    return engine ? engine.bootMs : null;
  }

  window.LiveBook = {
    changed, embedAll, values, set, settled, ask, engineState, engineBootMs, normalise, picked,
    startEngine: startEngineSoon,
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", observe);
  else observe();
})();
