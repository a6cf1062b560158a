// The day sheet's "Print this sheet" button (no inline script: the CSP forbids it).
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print-page]")) {
    window.print();
  }
});
