// With the script, a board is shown by a class rather than by :target, so
// that stepping does not scroll the page; links, the arrow keys and the
// address (#r3t12) all go through show(). Without the script the page
// still works: each board is a section shown by CSS :target.
(function () {
  "use strict";
  var boards = Array.prototype.slice.call(document.querySelectorAll("section.board"));
  var ids = boards.map(function (b) { return b.id; });
  var now = document.querySelector("svg.chart .now");
  var list = document.querySelector(".moves");
  var at = 0;
  if (!boards.length) { return; }
  document.documentElement.classList.add("js");

  function show(i, keep) {
    if (i < 0 || i >= ids.length) { return; }
    boards[at].classList.remove("shown");
    at = i;
    boards[at].classList.add("shown");
    var id = ids[at];
    if (!keep) { history.replaceState(null, "", "#" + id); }
    var old = document.querySelectorAll(".moves .current");
    for (var k = 0; k < old.length; k++) { old[k].classList.remove("current"); }
    var link = document.querySelector('.moves li > a[data-board="' + id + '"]');
    if (link && list) {
      var item = link.parentNode;
      item.classList.add("current");
      var top = item.getBoundingClientRect().top - list.getBoundingClientRect().top +
        list.scrollTop;
      var bottom = top + item.offsetHeight;
      if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 3);
      }
    }
    var hit = document.querySelector('svg.chart .hit[data-board="' + id + '"]');
    if (now && hit) {
      var x = parseFloat(hit.getAttribute("x")) + parseFloat(hit.getAttribute("width")) / 2;
      now.setAttribute("x1", x);
      now.setAttribute("x2", x);
      now.style.visibility = "visible";
    }
  }

  function fromHash() {
    var i = ids.indexOf(decodeURIComponent(location.hash.slice(1)));
    show(i < 0 ? 0 : i, true);
  }

  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a") : null;
    if (!a) { return; }
    var href = a.getAttribute("href") || "";
    var i = href.charAt(0) === "#" ? ids.indexOf(href.slice(1)) : -1;
    if (i >= 0) { e.preventDefault(); show(i); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.key === "ArrowRight") { show(at + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { show(at - 1); e.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  boards[0].classList.add("shown");
  fromHash();
  // Opened at an address (#r3t12): the board is shown where it stands,
  // below the chart, instead of the page jumping to it.
  window.addEventListener("load", function () {
    setTimeout(function () { window.scrollTo(0, 0); }, 0);
  });
})();
