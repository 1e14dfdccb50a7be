/* The Jupyter host of the grid explorer (widgets/views/grid_widget.py): the anywidget front end.
 * widgets/views/grid_widget.esm() puts widgets/js/grid_explorer.js (BfGridExplorer) before this
 * file, as one ES module.
 *
 * It draws what the site draws (the three menus, the legend, the DOM grid in its pan box, the
 * line under the grid) and hands BfGridExplorer a host whose squares come from the kernel:
 * a tool's new plan and a square's path are sent as messages ({type: "codes"} / {type: "path"})
 * and the kernel answers by setting the model's `cells` / `path` (computed by the Python library),
 * which this file then draws. No rules here, and no texts: every word comes in `data`.
 */
function render({ model, el }) {
  const data = model.get("data");
  const uid = data.uid;
  const root = document.createElement("div");
  root.className = "bfw";
  root.dataset.jupyterGrid = uid;

  const bar = document.createElement("div");
  bar.className = "bfw-bar";
  function menu(name, title, options, value, changed) {
    const label = document.createElement("label");
    const text = document.createElement("span");
    text.textContent = title;
    const select = document.createElement("select");
    select.name = name;
    for (const [key, words] of options) {
      const o = document.createElement("option");
      o.value = key;
      o.textContent = words;
      select.appendChild(o);
    }
    select.value = value;
    select.addEventListener("change", () => changed(select.value));
    label.append(text, select);
    bar.appendChild(label);
    return select;
  }
  const tool = menu("tool", data.titles.tool, data.tools, model.get("tool"), (v) => {
    model.set("tool", v);
    model.save_changes();
    c.showPath(-1);
  });
  const rate = menu("rate", data.titles.rate, data.rateOptions, model.get("rate_key"), (v) => {
    model.set("rate_key", v);
    model.save_changes();
  });
  const scene = menu("scene", data.titles.scene, data.sceneOptions, model.get("scene"), (v) => {
    model.set("scene", v);
    model.save_changes();
  });
  const legend = document.createElement("div");
  legend.innerHTML = data.legend;
  const gridBox = document.createElement("div");
  const out = document.createElement("div");
  out.className = "bfw-out";
  out.innerHTML = model.get("msg");
  const said = document.createElement("div");     // the polite live region for keyboard taps
  said.className = "bfw-sr book-announce";
  said.setAttribute("aria-live", "polite");
  said.dataset.for = uid;
  root.append(bar, legend, gridBox, out, said);
  el.appendChild(root);

  let shown = "";        // the html last written under the grid (innerHTML reads it back changed)
  const host = {
    data: data,
    later: true,          // answers come from the kernel, after apply()/path() return
    cells: () => model.get("cells"),
    findGrid: () => {
      const grid = gridBox.querySelector(".bfg");
      // keys on the grid move its cursor, not JupyterLab's cells
      if (grid) grid.setAttribute("data-lm-suppress-shortcuts", "true");
      return grid;
    },
    setGridHtml: (html) => { gridBox.innerHTML = c.frame(html); },
    tool: () => tool.value,
    status: () => data.status[String(model.get("cells").rate)],
    getMsg: () => shown,
    setMsg: (html) => { shown = html; out.innerHTML = html; },
    apply: (codes, w, h) => { model.send({ type: "codes", codes: codes.join(""), w: w, h: h }); },
    path: (i) => { model.send({ type: "path", i: i }); return null; },
    setPath: () => {},
    announcer: () => said,
  };
  const c = BfGridExplorer.mount(uid, host);
  c.paint();
  host.setMsg(model.get("msg"));

  const onCells = () => c.painted();
  const onMsg = () => host.setMsg(model.get("msg"));
  const onPath = () => { const p = model.get("path"); c.drawPath(p.squares || [], p.i); };
  const onRate = () => { rate.value = model.get("rate_key"); };
  const onScene = () => { scene.value = model.get("scene"); c.cursor = -1; };
  model.on("change:cells", onCells);
  model.on("change:msg", onMsg);
  model.on("change:path", onPath);
  model.on("change:rate_key", onRate);
  model.on("change:scene", onScene);
  requestAnimationFrame(() => c.showMover());
  return () => {
    model.off("change:cells", onCells);
    model.off("change:msg", onMsg);
    model.off("change:path", onPath);
    model.off("change:rate_key", onRate);
    model.off("change:scene", onScene);
  };
}

export default { render };
