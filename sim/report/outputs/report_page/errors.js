// Before anything else: every error and console.error is kept on the page, so a browser test (and a reader) sees them.
window.reportErrors = [];
(function () {
  function keep(text) {
    window.reportErrors.push(String(text));
    document.documentElement.setAttribute('data-errors', String(window.reportErrors.length));
  }
  window.addEventListener('error', function (e) { keep(e.message || 'error'); });
  window.addEventListener('unhandledrejection', function (e) { keep(e.reason || 'unhandled rejection'); });
  var consoleError = console.error;
  console.error = function () { keep(Array.prototype.join.call(arguments, ' ')); consoleError.apply(console, arguments); };
})();
