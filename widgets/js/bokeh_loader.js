/* BokehJS when a widget needs it, not with every page.
 *
 * BokehJS (about 1.6 MB) draws the widgets; a reader who opens a chapter to read one rule near
 * its top should not wait for it. Until it is needed, window.Bokeh is a stand-in whose
 * embed.embed_item (the one call widgets/js/live.js makes to show a widget, when the widget
 * nears the screen) loads the real scripts from this site, in order, then hands the call on.
 * The real BokehJS replaces the stand-in as it loads (it does so for any window.Bokeh it did not
 * make), so everything after the first widget talks to the real one.
 *
 * The file names come from the page's settings (window.LiveBookConfig.bokeh, written by
 * book/_ext/vendor_assets.py), relative to this script's own address (the site's _static/).
 *
 *   BokehLoader.load()   -> Promise of the real BokehJS, loading it if need be
 */
(function () {
  "use strict";
  if (window.Bokeh) return;                       // already on the page (e.g. a notebook's own)
  const here = document.currentScript ? document.currentScript.src : document.baseURI;
  const files = (window.LiveBookConfig || {}).bokeh || [];
  let loading = null;

  function script(name) {
    return new Promise((resolve, reject) => {
      const el = document.createElement("script");
      el.src = new URL(name, here).href;
      el.async = false;                           // run in order: the widgets plug-in needs the core
      el.onload = resolve;
      el.onerror = () => { el.remove(); reject(new Error("BokehJS did not load: " + name)); };
      document.head.appendChild(el);
    });
  }

  function load() {
    if (window.Bokeh && window.Bokeh.__bokeh__) return Promise.resolve(window.Bokeh);
    if (!loading) {
      loading = Promise.all(files.map(script)).then(() => window.Bokeh, (err) => {
        loading = null;                           // offline and not kept yet: try again next time
        throw err;
      });
    }
    return loading;
  }

  window.BokehLoader = {load};
  window.Bokeh = {
    documents: [],
    embed: {
      embed_item(item, target) {
        return load().then((bokeh) => bokeh.embed.embed_item(item, target));
      },
    },
  };
})();
