// The replay viewer: one step at a time, with the buttons and the arrow keys.
// Without this script every step stays listed.
(function () {
  "use strict";
  var viewer = document.getElementById("viewer");
  if (!viewer) { return; }
  var steps = viewer.querySelectorAll(".step");
  var at = document.getElementById("at");
  var controls = viewer.querySelector(".controls");
  var current = 0;

  function show(i) {
    current = Math.max(0, Math.min(steps.length - 1, i));
    for (var k = 0; k < steps.length; k++) {
      steps[k].hidden = k !== current;
    }
    at.textContent = String(current + 1);
    if (history.replaceState) {
      history.replaceState(null, "", "#step-" + (current + 1));
    }
  }

  var moves = {
    first: function () { show(0); },
    prev: function () { show(current - 1); },
    next: function () { show(current + 1); },
    last: function () { show(steps.length - 1); }
  };
  controls.hidden = false;
  viewer.classList.add("stepping");
  controls.addEventListener("click", function (e) {
    var go = e.target.closest("[data-go]");
    if (go) { moves[go.getAttribute("data-go")](); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var keys = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" };
    var go = keys[e.key];
    if (go) { e.preventDefault(); moves[go](); }
  });
  var m = /^#step-(\d+)$/.exec(location.hash);
  show(m ? parseInt(m[1], 10) - 1 : 0);
})();
