// Card pictures that type their card into a field (the meld checker, the table question):
// a click adds the card's token to the text field used last. No library, no network.
(function () {
  "use strict";
  var fields = document.querySelectorAll("input.pick-target");
  var last = fields[0];
  fields.forEach(function (f) { f.addEventListener("focus", function () { last = f; }); });
  document.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b || !last) return;
    if (b.classList.contains("pick")) {
      var tok = b.getAttribute("data-token"), v = last.value.replace(/\s+$/, "");
      last.value = (v ? v + " " : "") + tok;
    } else if (b.id === "clear-cards") {
      last.value = "";
    }
  });
  document.body.classList.add("js");
})();
