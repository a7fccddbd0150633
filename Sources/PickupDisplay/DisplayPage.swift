/// The pickup screen's one page: inline style and script, nothing fetched from anywhere but this
/// server's event stream. Numbers arrive as `board` events; the browser's EventSource reconnects by
/// itself, and the script opens a new one if the browser gave up (e.g. after a server restart).
enum DisplayPage {
    static func html(title: String, eventsPath: String) -> String {
        let title = escape(title)
        return """
        <!DOCTYPE html>
        <html lang="zh-Hant">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <style>
        html, body { margin: 0; height: 100%; background: #111; color: #f5f5f5;
          font-family: "Noto Sans CJK TC", "PingFang TC", "Microsoft JhengHei", sans-serif; }
        header { display: flex; justify-content: space-between; align-items: center; padding: 1vh 3vw;
          font-size: 3vh; color: #bbb; }
        #state { font-size: 2.2vh; }
        #state.offline { color: #ff8a65; }
        main { display: grid; grid-template-columns: 1fr 1fr; gap: 2vw; padding: 0 3vw 3vh; height: 86vh; }
        section { border-radius: 2vh; padding: 2vh 2vw; overflow: hidden; }
        #preparing-panel { background: #263238; }
        #ready-panel { background: #1b5e20; }
        h2 { margin: 0 0 2vh; font-size: 6vh; text-align: center; letter-spacing: 0.3em; }
        ol { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 2vh 2vw;
          justify-content: center; }
        li { font-size: 11vh; font-weight: 700; font-variant-numeric: tabular-nums; min-width: 3ch;
          text-align: center; }
        #ready li { color: #fff59d; }
        .empty { font-size: 4vh; color: #888; text-align: center; }
        </style>
        </head>
        <body>
        <header><span>\(title)</span><span id="state">連線中…</span></header>
        <main>
          <section id="preparing-panel"><h2>製作中</h2><ol id="preparing"></ol></section>
          <section id="ready-panel"><h2>可取餐</h2><ol id="ready"></ol></section>
        </main>
        <script>
        (function () {
          "use strict";
          var state = document.getElementById("state");
          function show(id, numbers) {
            var list = document.getElementById(id);
            while (list.firstChild) { list.removeChild(list.firstChild); }
            numbers.forEach(function (n) {
              var item = document.createElement("li");
              item.textContent = String(n);
              list.appendChild(item);
            });
          }
          function connected(ok) {
            state.textContent = ok ? "即時更新" : "重新連線中…";
            state.className = ok ? "" : "offline";
          }
          var source = null;
          function open() {
            source = new EventSource("\(eventsPath)");
            source.addEventListener("board", function (event) {
              var board;
              try { board = JSON.parse(event.data); } catch (e) { return; }
              show("preparing", Array.isArray(board.preparing) ? board.preparing : []);
              show("ready", Array.isArray(board.ready) ? board.ready : []);
              document.body.setAttribute("data-updated", String(Date.now()));
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
        </script>
        </body>
        </html>

        """
    }

    private static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
