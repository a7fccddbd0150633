(function () {
  "use strict";
  var body = document.body;
  var PAGE_MS = (Number(body.getAttribute("data-page-seconds")) || 6) * 1000;
  var FRESH_MS = (Number(body.getAttribute("data-fresh-seconds")) || 10) * 1000;
  var MANY_AT_ONCE = 6;
  // Type sizes to try, as fractions of the window's height, largest first; the last is the smallest
  // still readable across a shop, below which a list pages instead of shrinking further.
  var SIZES = { preparing: [0.13, 0.11, 0.095, 0.08, 0.07], ready: [0.13, 0.11, 0.095, 0.08, 0.07],
                earlier: [0.06], renamed: [0.06] };
  var lists = {};
  ["preparing", "ready", "earlier", "renamed"].forEach(function (name) {
    lists[name] = { list: document.getElementById(name), mark: document.getElementById(name + "-page"),
                    entries: [] };
  });
  var state = document.getElementById("state");
  var newestBox = document.getElementById("newest");
  var newestNumber = document.getElementById("newest-number");
  var newestWas = document.getElementById("newest-was");
  var strip = document.getElementById("earlier-strip");
  var renamedStrip = document.getElementById("renamed-strip");
  var tick = 0;
  var freshUntil = {};
  var newest = null;
  var lastReady = null;
  var formerly = {};
  var chime = /[?&]chime\b/.test(location.search);

  function numbersOf(value) {
    return Array.isArray(value) ? value.filter(function (n) { return typeof n === "number"; }) : [];
  }

  function fill(item, entry) {
    item.textContent = "";
    if (entry.was) {
      // The number its cup was printed with while the store was away: `P1 → 47`.
      var was = document.createElement("small");
      was.className = "was";
      was.textContent = entry.was + " → ";
      item.appendChild(was);
    }
    item.appendChild(document.createTextNode(entry.text));
    if (entry.small) {
      var small = document.createElement("small");
      small.textContent = entry.small;
      item.appendChild(small);
    }
  }

  // The type size and page size for `entries` in `list`: as few pages as the smallest type allows,
  // at the largest type that still needs no more pages, the entries spread evenly over them. Every
  // item is as wide as the widest, so a row holds exactly as many as computed.
  function fit(name, list, entries) {
    var style = getComputedStyle(list);
    var gapX = parseFloat(style.columnGap) || 0, gapY = parseFloat(style.rowGap) || 0;
    var width = list.clientWidth, height = list.clientHeight;
    function characters(entry) { return (entry.was ? entry.was.length + 3 : 0) + entry.text.length + (entry.small || "").length; }
    var widest = entries.reduce(function (a, b) { return characters(b) > characters(a) ? b : a; }, { text: "88" });
    var layouts = SIZES[name].map(function (size) {
      var probe = document.createElement("li");
      probe.style.position = "absolute";
      probe.style.visibility = "hidden";
      probe.style.fontSize = Math.round(size * window.innerHeight) + "px";
      fill(probe, widest);
      list.appendChild(probe);
      var box = probe.getBoundingClientRect();
      list.removeChild(probe);
      var cell = { w: Math.ceil(box.width), h: Math.ceil(box.height) };
      var columns = Math.floor((width + gapX) / (cell.w + gapX));
      var rows = Math.floor((height + gapY) / (cell.h + gapY));
      var room = Math.max(1, columns * rows);
      return { font: probe.style.fontSize, cell: cell, pages: Math.ceil(entries.length / room) };
    });
    var fewest = layouts[layouts.length - 1].pages;
    var chosen = layouts.filter(function (layout) { return layout.pages <= fewest; })[0];
    chosen.perPage = Math.ceil(entries.length / chosen.pages);
    return chosen;
  }

  function render(name) {
    var view = lists[name], list = view.list, entries = view.entries;
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (entries.length === 0) {
      view.mark.textContent = "";
      list.setAttribute("data-pages", "0");
      return;
    }
    var layout = fit(name, list, entries);
    var pages = layout.pages;
    var page = tick % pages;
    var now = Date.now();
    entries.slice(page * layout.perPage, (page + 1) * layout.perPage).forEach(function (entry) {
      var item = document.createElement("li");
      fill(item, entry);
      item.style.fontSize = layout.font;
      item.style.width = layout.cell.w + "px";
      item.setAttribute("data-number", String(entry.number));
      if (name === "ready" && (freshUntil[entry.number] || 0) > now) { item.className = "fresh"; }
      list.appendChild(item);
    });
    view.mark.textContent = pages > 1 ? (page + 1) + "/" + pages : "";
    list.setAttribute("data-pages", String(pages));
    list.setAttribute("data-page", String(page + 1));
  }

  function renderAll() {
    newestBox.hidden = newest === null;
    newestNumber.textContent = newest === null ? "" : String(newest);
    newestWas.textContent = newest !== null && formerly[newest] ? formerly[newest] + " → " : "";
    newestBox.className = newest !== null && (freshUntil[newest] || 0) > Date.now() ? "fresh" : "";
    // The strips first: showing or hiding one changes how much room the panels have.
    strip.hidden = lists.earlier.entries.length === 0;
    renamedStrip.hidden = lists.renamed.entries.length === 0;
    render("earlier");
    render("renamed");
    render("preparing");
    render("ready");
  }

  function ring() {
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      var audio = new Context();
      [660, 880].forEach(function (pitch, index) {
        var tone = audio.createOscillator(), volume = audio.createGain();
        var start = audio.currentTime + index * 0.25;
        tone.frequency.value = pitch;
        volume.gain.setValueAtTime(0.25, start);
        volume.gain.exponentialRampToValueAtTime(0.001, start + 0.6);
        tone.connect(volume).connect(audio.destination);
        tone.start(start);
        tone.stop(start + 0.6);
      });
      setTimeout(function () { audio.close(); }, 2000);
    } catch (e) { /* no sound: the highlight still shows */ }
  }

  function showBoard(board) {
    var ready = numbersOf(board.ready);
    var now = Date.now();
    // A number that was not ready at the last board stands out; on the first board nothing is
    // "new" but the newest, which stands out whenever it changes. Many at once is a catch-up (the
    // screen was away), not a call: lighting them all would drown the newest.
    var arrived = lastReady === null ? [] : ready.filter(function (n) { return lastReady.indexOf(n) < 0; });
    if (arrived.length <= MANY_AT_ONCE) {
      arrived.forEach(function (n) { freshUntil[n] = now + FRESH_MS; });
    }
    var next = typeof board.newestReady === "number" ? board.newestReady : null;
    // Only a number that just became ready is called: when the newest is collected, the one ready
    // before it takes its place quietly.
    if (next !== null && next !== newest && (lastReady === null || lastReady.indexOf(next) < 0)) {
      freshUntil[next] = now + FRESH_MS;
      if (chime && lastReady !== null) { ring(); }
    }
    newest = next;
    lastReady = ready;
    // Numbers first given out as P numbers while the store was away, in a strip of their own
    // (`P1 → 47`): the grids keep one cell size for every number.
    formerly = {};
    lists.renamed.entries = (Array.isArray(board.formerly) ? board.formerly : []).filter(function (e) {
      return e && typeof e.number === "number" && typeof e.was === "string";
    }).map(function (e) {
      formerly[e.number] = e.was;
      return { number: e.number, text: String(e.number), was: e.was };
    });
    lists.preparing.entries = numbersOf(board.preparing).map(function (n) { return { number: n, text: String(n) }; });
    lists.ready.entries = ready.map(function (n) { return { number: n, text: String(n) }; });
    lists.earlier.entries = (Array.isArray(board.earlier) ? board.earlier : []).filter(function (e) {
      return e && typeof e.number === "number";
    }).map(function (e) { return { number: e.number, text: String(e.number), small: String(e.label || e.day || "") }; });
    renderAll();
    // Take the highlight off when it is due.
    setTimeout(renderAll, FRESH_MS + 50);
  }

  setInterval(function () { tick += 1; renderAll(); }, PAGE_MS);
  window.addEventListener("resize", renderAll);
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(renderAll); }

  function connected(ok) {
    state.textContent = ok ? "即時更新" : "重新連線中…";
    state.className = ok ? "" : "offline";
  }
  var source = null;
  function open() {
    source = new EventSource(body.getAttribute("data-events"));
    source.addEventListener("board", function (event) {
      var board;
      try { board = JSON.parse(event.data); } catch (e) { return; }
      showBoard(board || {});
      body.setAttribute("data-updated", String(Date.now()));
      connected(true);
    });
    source.onopen = function () { connected(true); };
    source.onerror = function () {
      connected(false);
      // The browser retries on its own unless it gave up (a refused or odd response).
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(open, 2000);
      }
    };
  }
  open();
})();