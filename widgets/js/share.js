/* Widget settings in the page address, and a "링크 복사" control per widget.
 *
 * The address keeps the values of every widget the reader has used, one parameter per control:
 *     chapter.html#pf-strikes.bonus=7&pf-strikes.ac=23
 * and a copied link adds `go=<widget>` to open the page scrolled to that widget:
 *     chapter.html#go=pf-strikes&pf-strikes.bonus=7&pf-strikes.ac=23&pf-strikes.agile1=0…
 * An opened "N 이상 · N 이하" is kept too (`uf-damage.fold=1`), and opens again with the link.
 * On load the values are handed to LiveBook.set, the same path as values typed into the widget:
 * a number or a text control's text goes in as typed text and the library checks it (a bad one
 * shows the library's Korean
 * message, the default answer stays); a choice or a switch must be one of the control's own keys,
 * or it is left at its default with a Korean note. Nothing from the address is ever inserted as
 * markup (text only). The address follows every shown answer (history.replaceState).
 *
 *   LiveShare.restored     -> Promise: the address's values are applied (each widget settled)
 *   LiveShare.linkFor(uid) -> the link the widget's "링크 복사" control copies
 */
(function () {
  "use strict";

  const GO = "go";
  const FOLD = "fold";                   // not a control's name (widgets.views.live._PAGE_PARTS)
  const MAX_TEXT = 200;                  // longer text from an address is cut (it is refused anyway;
                                         // widgets.views.live.MAX_TEXT_INPUT)
  const TEXT = {
    copy: "링크 복사",
    copyName: "이 위젯의 지금 값으로 여는 링크 복사",
    copied: "링크를 복사했습니다.",
    manual: "링크를 복사하지 못했습니다. 아래 칸의 링크를 직접 복사하세요.",
    field: "이 위젯의 링크",
    badChoice: (label) => `주소에 적힌 「${label}」 값은 고를 수 있는 값이 아니라서 처음 값을 그대로 둡니다.`,
  };
  const widgets = new Map();             // uid -> {el, data, note, field}
  const kept = new Map();                // uid -> {name: raw}: what the address keeps, page order
  const folds = new Set();               // uids whose "N 이상 · N 이하" is open
  let restored = Promise.resolve();

  // --- reading and writing the address ---------------------------------------------
  function parse(hash) {
    const out = {go: null, values: new Map(), folds: new Set()};
    let params;
    try {
      params = new URLSearchParams(String(hash).replace(/^#/, ""));
    } catch (err) {
      return out;
    }
    for (const [key, value] of params) {
      if (key === GO) {
        if (widgets.has(value)) out.go = value;
        continue;
      }
      const dot = key.indexOf(".");
      if (dot < 1) continue;                                   // a section anchor, not ours
      const uid = key.slice(0, dot);
      const name = key.slice(dot + 1);
      const w = widgets.get(uid);
      if (w && name === FOLD && value === "1") {
        out.folds.add(uid);
        continue;
      }
      if (!w || !w.data.names.includes(name)) continue;        // unknown widget or control
      if (!out.values.has(uid)) out.values.set(uid, Object.create(null));
      out.values.get(uid)[name] = value.slice(0, MAX_TEXT);
    }
    return out;
  }

  function isOurs(hash) {
    const p = parse(hash);
    return p.go !== null || p.values.size > 0 || p.folds.size > 0;
  }

  function params(uids, go) {
    const p = new URLSearchParams();
    if (go) p.set(GO, go);
    for (const uid of uids) {
      const w = widgets.get(uid);
      const vals = kept.get(uid);
      if (!w || !vals) continue;
      w.data.names.forEach((name) => {
        if (name in vals) p.set(uid + "." + name, String(vals[name]));
      });
      if (folds.has(uid)) p.set(uid + "." + FOLD, "1");
    }
    return p.toString();
  }

  function pageOrder() {
    return Array.from(widgets.keys()).filter((uid) => kept.has(uid));
  }

  function writeAddress() {
    const hash = params(pageOrder(), null);
    if (!hash) return;
    const url = location.pathname + location.search + "#" + hash;
    try {
      history.replaceState(history.state, "", url);
    } catch (err) { /* a sandboxed frame: the address just stays */ }
  }

  function linkFor(uid) {
    const w = widgets.get(uid);
    if (!w) throw new Error("no widget " + uid);
    if (!kept.has(uid)) {
      try { kept.set(uid, window.LiveBook.values(uid)); } catch (err) { /* not shown yet: defaults */ }
    }
    const base = location.href.split("#")[0];
    return base + "#" + params([uid], uid);
  }

  // --- applying values from the address ----------------------------------------------
  function optionKeys(w, name) {
    const target = w.data.uid + "-" + name;
    let doc;
    try {
      doc = JSON.parse(w.el.querySelector("script.live-doc").textContent);
    } catch (err) {
      return null;
    }
    const stack = [doc];
    while (stack.length) {
      const node = stack.pop();
      if (!node || typeof node !== "object") continue;
      if (node.attributes && node.attributes.name === target && Array.isArray(node.attributes.options)) {
        return node.attributes.options.map((o) => (Array.isArray(o) ? String(o[0]) : String(o)));
      }
      for (const v of Object.values(node)) if (v && typeof v === "object") stack.push(v);
    }
    return null;
  }

  function checked(w, vals) {
    const good = Object.create(null);
    const refused = [];
    w.data.names.forEach((name, i) => {
      if (!(name in vals)) return;
      const raw = vals[name];
      const kind = w.data.kinds[i];
      if (kind === "number" || kind === "text") {
        good[name] = raw;                               // the library checks it, as if typed
      } else if (kind === "toggle") {
        if (raw === "0" || raw === "1") good[name] = raw;
        else refused.push(w.data.labels[i]);
      } else {
        const keys = optionKeys(w, name);
        if (keys && keys.includes(raw)) good[name] = raw;
        else refused.push(w.data.labels[i]);
      }
    });
    return {good, refused};
  }

  function apply(hash, scroll) {
    const p = parse(hash);
    const jobs = [];
    for (const [uid, vals] of p.values) {
      const w = widgets.get(uid);
      const {good, refused} = checked(w, vals);
      say(w, refused.map(TEXT.badChoice).join(" "), refused.length > 0);
      kept.set(uid, Object.assign(Object.create(null), good));
      if (Object.keys(good).length) {
        jobs.push(window.LiveBook.set(uid, good).catch(() => "live:error"));
      }
    }
    for (const uid of p.folds) {
      folds.add(uid);
      if (!kept.has(uid)) kept.set(uid, Object.create(null));
      window.LiveBook.fold(uid, true);
    }
    const done = Promise.all(jobs);
    if (scroll && p.go) {
      const el = widgets.get(p.go).el;
      bring(el);
      done.then(() => bring(el, 1500));
    }
    return done;
  }

  /** Scroll a widget into view and keep it there while widgets above it render (for `ms`), unless
   *  the reader scrolls first. */
  function bring(el, ms) {
    el.scrollIntoView({block: "start"});
    if (!ms || !("ResizeObserver" in window)) return;
    let stop = false;
    const quit = () => { stop = true; };
    const opts = {once: true, passive: true};
    ["wheel", "touchstart", "keydown", "pointerdown"].forEach((t) => window.addEventListener(t, quit, opts));
    const ro = new ResizeObserver(() => { if (!stop) el.scrollIntoView({block: "start"}); });
    ro.observe(document.body);
    setTimeout(() => ro.disconnect(), ms);
  }

  // A plain "#<widget>" (the chapter's 「이 장의 계산기」 links): keep that widget in view while
  // the widgets above it render and change the page's height.
  function jumped() {
    const id = decodeURIComponent(String(location.hash).slice(1));
    if (widgets.has(id)) bring(widgets.get(id).el, 1500);
  }

  // --- the control -------------------------------------------------------------------
  function addControl(w) {
    const bar = document.createElement("div");
    bar.className = "live-share";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "live-share-copy";
    button.textContent = TEXT.copy;
    button.setAttribute("aria-label", TEXT.copyName);
    button.title = TEXT.copyName;
    const note = document.createElement("span");
    note.className = "live-share-note";
    note.setAttribute("role", "status");
    note.setAttribute("aria-live", "polite");
    const field = document.createElement("input");
    field.type = "text";
    field.readOnly = true;
    field.className = "live-share-field";
    field.setAttribute("aria-label", TEXT.field);
    field.hidden = true;
    bar.append(button, note, field);
    const mount = w.el.querySelector(".live-mount");
    if (mount && mount.nextSibling) w.el.insertBefore(bar, mount.nextSibling);
    else w.el.appendChild(bar);
    w.note = note;
    w.field = field;
    button.addEventListener("click", () => copy(w));
  }

  function say(w, text, warn) {
    if (!w.note) return;
    w.note.textContent = text;
    w.note.classList.toggle("live-share-warn", Boolean(warn));
  }

  // The link carries the values of the answer shown once the widget has settled: tapped while
  // the engine still computes, it waits for that answer (the clipboard item is written at once
  // with a promise of the text, so the tap's permission is not lost while waiting).
  function copy(w) {
    const uid = w.data.uid;
    const link = Promise.resolve(window.LiveBook.settled(uid)).catch(() => null)
      .then(() => linkFor(uid));
    const manual = (text) => {
      w.field.value = text;
      w.field.hidden = false;
      w.field.focus();
      w.field.select();
      say(w, TEXT.manual, false);
      return false;
    };
    const done = () => {
      w.field.hidden = true;
      say(w, TEXT.copied, false);
      return true;
    };
    const clip = navigator.clipboard;
    if (clip && clip.write && window.ClipboardItem) {
      let item;
      try {
        item = new ClipboardItem({"text/plain": link.then((t) => new Blob([t], {type: "text/plain"}))});
      } catch (err) {
        item = null;
      }
      if (item) {
        return clip.write([item]).then(done, () => link.then((t) => (clip.writeText
          ? clip.writeText(t).then(done, () => manual(t)) : manual(t))));
      }
    }
    if (!clip || !clip.writeText) return link.then(manual);
    return link.then((t) => clip.writeText(t).then(done, () => manual(t)));
  }

  // --- start -------------------------------------------------------------------------
  // once the page's widget data has arrived (live.js asks for it after the first paint)
  function start() {
    if (!window.LiveBook) return;
    window.LiveShare.restored = (window.LiveBook.tables || Promise.resolve()).then(begin);
  }

  function begin() {
    document.querySelectorAll(".live-widget[data-live]").forEach((el) => {
      const script = el.querySelector("script.live-data");
      if (!script) return;
      let data;
      try { data = JSON.parse(script.textContent); } catch (err) { return; }
      const w = {el, data, note: null, field: null};
      widgets.set(data.uid, w);
      addControl(w);
      el.addEventListener("live:answer", (ev) => {
        kept.set(ev.detail.uid, Object.assign(Object.create(null), ev.detail.values));
        if (w.note && w.note.classList.contains("live-share-warn")) say(w, "", false);
        writeAddress();
      });
      el.addEventListener("live:fold", (ev) => {
        if (ev.detail.open) folds.add(ev.detail.uid);
        else folds.delete(ev.detail.uid);
        if (!kept.has(ev.detail.uid)) {
          try { kept.set(ev.detail.uid, window.LiveBook.values(ev.detail.uid)); } catch (err) { /* later */ }
        }
        writeAddress();
      });
    });
    restored = isOurs(location.hash) ? apply(location.hash, true) : Promise.resolve([]);
    jumped();
    window.addEventListener("hashchange", () => {
      if (isOurs(location.hash)) window.LiveShare.restored = apply(location.hash, true);
      else jumped();
    });
    return restored;
  }

  window.LiveShare = {restored, linkFor};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
