/* The theme's sidebars open as dialogs on a phone (the header's ☰ and page-contents buttons).
 * pydata-sphinx-theme closes them only on Escape or a tap outside, so a tap on one of the page's
 * sections scrolled the page behind a dialog that stayed open over it. Close the dialog when one
 * of its links is followed (the theme then puts the sidebar back in its place).
 */
(function () {
  "use strict";
  const DIALOGS = ["pst-primary-sidebar-modal", "pst-secondary-sidebar-modal"];
  document.addEventListener("click", (event) => {
    const link = event.target.closest ? event.target.closest("a[href]") : null;
    const dialog = link ? link.closest("dialog") : null;
    if (!dialog || !dialog.open || !DIALOGS.includes(dialog.id)) return;
    // after the link has been followed (the jump to a section happens first)
    setTimeout(() => dialog.close(), 0);
  });
})();
