(function () {
  var me = document.currentScript;
  var version = Number(me.getAttribute("data-version")), events = me.getAttribute("data-events");
  var live = document.getElementById("live"), source = null;
  var share = document.getElementById("share");
  if (share) {
    share.value = location.origin + location.pathname;
    share.addEventListener("focus", function () { share.select(); });
  }
  if (document.getElementById("pickup-number") && location.hash) {
    // Sent: the pickup number is what matters, at the top (not the list a line's change jumped to).
    history.replaceState(null, "", location.pathname);
    window.scrollTo(0, 0);
  }
  var steps = ["placed", "preparing", "ready"];
  function showStatus(data) {
    var text = document.getElementById("status-text");
    if (!text) return;
    // Cancelled at the counter: the page drawn again says so, and that nothing is due.
    if (data.status === "cancelled" && text.dataset.status !== "cancelled") { location.reload(); return; }
    text.textContent = data.label;
    text.dataset.status = data.status;
    text.className = data.status === "ready" ? "ready" : "";
    var at = steps.indexOf(data.status);
    if (data.status === "picked up") at = steps.length;
    document.querySelectorAll("#steps li").forEach(function (li, index) {
      li.className = index < at ? "done" : index === at ? "now" : "";
    });
  }
  function connected(on) {
    live.textContent = on ? "即時更新 Live" : "重新連線中… Reconnecting";
    live.className = on ? "" : "off";
  }
  function open() {
    source = new EventSource(events);
    source.onopen = function () { connected(true); };
    source.onerror = function () {
      connected(false);
      if (source.readyState === EventSource.CLOSED) { setTimeout(open, 2000); }
    };
    source.addEventListener("group", function (event) {
      var data = JSON.parse(event.data);
      if (data.version !== version && !document.querySelector("form:focus-within input[type=text]:focus")) {
        location.reload();
      }
    });
    source.addEventListener("status", function (event) { showStatus(JSON.parse(event.data)); });
  }
  open();
})();