// With the script, a board is shown by a class rather than by :target, so
// that stepping does not scroll the page; links, the keys and the address
// (#r3t12) all go through show(), which also keeps the board and the
// current turn of the move list in view. Without the script the page
// still works: each board is a section shown by CSS :target, and picking
// a candidate play draws its ghost tile by CSS alone.
(function () {
  "use strict";
  var boards = Array.prototype.slice.call(document.querySelectorAll("section.board"));
  var ids = boards.map(function (b) { return b.id; });
  var costly = [];
  boards.forEach(function (b, i) {
    var v = b.getAttribute("data-verdict");
    if (v === "mistake" || v === "blunder") { costly.push(i); }
  });
  var now = document.querySelector("svg.chart .now");
  var slot = document.querySelector(".turn-slot");
  var wide = window.matchMedia ? window.matchMedia("(min-width: 1000px)") : null;
  var lent = null;
  var list = document.querySelector(".moves");
  var at = 0;
  if (!boards.length) { return; }
  document.documentElement.classList.add("js");

  function markList(id) {
    var old = document.querySelectorAll(".moves .current");
    for (var k = 0; k < old.length; k++) { old[k].classList.remove("current"); }
    var link = document.querySelector('.moves li > a[data-board="' + id + '"]') ||
      document.querySelector('.moves h3 > a[data-board="' + id + '"]');
    if (!link) { return null; }
    link.parentNode.classList.add("current");
    return link.parentNode;
  }

  // The current turn into the part of the list that is on screen (the
  // list may run past the window's bottom while the title is above it),
  // a third of the way down.
  function scrollList(item) {
    if (!item || !list) { return; }
    var l = list.getBoundingClientRect();
    var top = Math.max(l.top, 0);
    var bottom = Math.min(l.bottom, window.innerHeight);
    var r = item.getBoundingClientRect();
    if (r.top < top || r.bottom > bottom) {
      list.scrollTop += r.top - top - Math.max(0, (bottom - top) / 3);
    }
  }

  // After a jump: the table and the move list in the window. Wide, the
  // list is pinned beside the table, and the page only scrolls back when
  // the table has gone half out of sight (the chart under it stays where
  // it was clicked); narrow, the list is under the table and both are
  // brought in together.
  function keepInView() {
    var board = boards[at];
    var bar = board.querySelector(".bar");
    var table = board.querySelector(".table-wrap");
    if (!bar || !table) { return; }
    var high = window.innerHeight;
    var t = table.getBoundingClientRect();
    var seen = Math.min(t.bottom, high) - Math.max(t.top, 0);
    var listOk = true;
    if (list) {
      var l = list.getBoundingClientRect();
      listOk = Math.min(l.bottom, high) - Math.max(l.top, 0) >= Math.min(l.height, 120);
    }
    if (seen < t.height / 2 || !listOk) {
      window.scrollBy(0, bar.getBoundingClientRect().top - 4);
    }
  }

  // Wide, the weighing of the turn shown sits beside the table, over the
  // move list, as an analysis board has it; it goes back into its own
  // section when another turn is shown or the window narrows.
  function lend() {
    if (lent) { boards[lent.at].appendChild(lent.panel); lent = null; }
    if (!slot || !wide || !wide.matches) { return; }
    var panel = boards[at].querySelector(":scope > .turn");
    if (panel) { slot.appendChild(panel); lent = { at: at, panel: panel }; }
  }

  function show(i, keep) {
    if (i < 0 || i >= ids.length) { return; }
    boards[at].classList.remove("shown");
    at = i;
    boards[at].classList.add("shown");
    lend();
    var id = ids[at];
    if (!keep) { history.replaceState(null, "", "#" + id); }
    var item = markList(id);
    if (!keep) { keepInView(); }
    scrollList(item);
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

  function nextCostly(step) {
    for (var k = 0; k < costly.length; k++) {
      var j = step > 0 ? costly[k] : costly[costly.length - 1 - k];
      if ((step > 0 && j > at) || (step < 0 && j < at)) { show(j); return; }
    }
  }

  // Up and down pick the previous or next candidate play of the turn shown.
  function pick(step) {
    var home = lent ? lent.panel : boards[at];
    var picks = Array.prototype.slice.call(home.querySelectorAll("input.pick"));
    if (!picks.length) { return; }
    var k = picks.findIndex(function (p) { return p.checked; });
    k = Math.max(0, Math.min(picks.length - 1, (k < 0 ? 0 : k + step)));
    picks[k].checked = true;
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
    var key = e.key;
    var done = true;
    if (key === "ArrowRight") { show(at + 1); }
    else if (key === "ArrowLeft") { show(at - 1); }
    else if (key === "Home") { show(0); }
    else if (key === "End") { show(ids.length - 1); }
    else if (key === "ArrowDown") { pick(1); }
    else if (key === "ArrowUp") { pick(-1); }
    else if (key === "n" || key === "N") { nextCostly(1); }
    else if (key === "p" || key === "P") { nextCostly(-1); }
    else { done = false; }
    if (done) { e.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  if (wide && wide.addEventListener) { wide.addEventListener("change", lend); }
  boards[0].classList.add("shown");
  fromHash();
  // Opened at an address (#r3t12): the board is shown where it stands,
  // under the title, instead of the page jumping to it.
  window.addEventListener("load", function () {
    setTimeout(function () { window.scrollTo(0, 0); }, 0);
  });
})();
