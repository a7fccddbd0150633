/// The pages' small scripts: niceties only (every page works without them). They are files, served from one
/// place (`/order/script/<name>.js`, ``OrderPage/Route/script(_:)``), never inline: the pages' policy is
/// `script-src 'self'`, so markup that slipped into a page could run nothing. What a script needs to know of
/// its page it reads from its own `<script>` element's `data-` attributes.
enum PageScript: String, CaseIterable, Sendable {
    case price, group

    /// Where the page loads it from.
    var path: String { OrderPage.path + "/script/" + rawValue + ".js" }

    /// The file's text.
    var source: String {
        switch self {
        case .price: Self.priceScript
        case .group: Self.groupScript
        }
    }

    /// The script for `path`'s last part (`group.js`), or nil.
    init?(file: String) {
        guard file.hasSuffix(".js"), let script = PageScript(rawValue: String(file.dropLast(3))) else { return nil }
        self = script
    }

    /// The drink form: the line's price follows the size, add-ons and cups as they change.
    static let priceScript = #"""
    (function () {
      var form = document.getElementById("drink-form"), price = document.getElementById("price");
      if (!form || !price) return;
      function update() {
        var size = form.querySelector('input[name="size"]:checked');
        var first = form.querySelector('input[name="size"]');
        var cup = Number((size || first || {dataset: {price: 0}}).dataset.price || 0);
        form.querySelectorAll('input[name="addon"]:checked').forEach(function (box) { cup += Number(box.dataset.price || 0); });
        var cups = Math.max(1, Math.floor(Number(form.elements.cups.value) || 1));
        price.textContent = "$" + cup * cups;
      }
      form.addEventListener("change", update);
      form.addEventListener("input", update);
      update();
    })();
    """#

    /// The group page: the list follows everyone's changes (the page is drawn again when the group's version
    /// moves on), and once sent the order's status follows the counter (已下單 → 製作中 → 可取餐). The
    /// browser's EventSource reconnects by itself; should it give up (the server restarted), a new one is
    /// opened after two seconds. Its element carries the group's `data-events` path and `data-version`.
    static let groupScript = #"""
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
        """#
}
