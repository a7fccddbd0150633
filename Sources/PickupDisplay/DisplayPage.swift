import HTTPServer

/// The pickup screen's one page: inline style and one script file (``DisplayScript/path``), nothing fetched from anywhere but this
/// server's event stream. Numbers arrive as `board` events (``PickupBoard/json``); the browser's
/// EventSource reconnects by itself, and the script opens a new one if the browser gave up (e.g. after a
/// server restart). Layout and paging are the script's (``DisplayScript``): only the browser knows how
/// many numbers fit on its screen.
enum DisplayPage {
    /// Seconds each page of a panel stays up before the next: long enough to find one's number on a
    /// page of 30, short enough that a full cycle of a busy evening (two or three pages) stays under 20 s.
    static let pageSeconds = 6
    /// Seconds a number that just became ready stands out.
    static let freshSeconds = 10

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
        \(style)
        </style>
        </head>
        <body data-page-seconds="\(pageSeconds)" data-fresh-seconds="\(freshSeconds)" data-events="\(escape(eventsPath))">
        <header><span>\(title)</span><span id="state">連線中…</span></header>
        <main>
          <section id="preparing-panel" class="panel">
            <div class="head"><h2>製作中</h2><span class="pagemark" id="preparing-page"></span></div>
            <ol id="preparing" class="numbers"></ol>
          </section>
          <section id="ready-panel" class="panel">
            <div class="head"><h2>可取餐</h2><span class="pagemark" id="ready-page"></span></div>
            <div id="newest" hidden><span class="label">最新</span><span id="newest-was"></span><span id="newest-number"></span></div>
            <ol id="ready" class="numbers"></ol>
          </section>
        </main>
        <footer id="earlier-strip" hidden>
          <span class="label">前日未取<small>earlier days</small></span>
          <ol id="earlier" class="numbers"></ol>
          <span class="pagemark" id="earlier-page"></span>
        </footer>
        <footer id="renamed-strip" hidden>
          <span class="label">臨時號碼<small>P numbers</small></span>
          <ol id="renamed" class="numbers"></ol>
          <span class="pagemark" id="renamed-page"></span>
        </footer>
        <script src="\(DisplayScript.path)"></script>
        </body>
        </html>

        """
    }

    // No `overflow: hidden` on the number lists: the script sizes each page to what fits, and should it
    // ever be wrong (a font with wider digits), a number that spills stays visible instead of silently cut.
    private static let style = """
    html, body { margin: 0; height: 100%; background: #111; color: #f5f5f5;
      font-family: "Noto Sans CJK TC", "PingFang TC", "Microsoft JhengHei", "WenQuanYi Zen Hei", sans-serif; }
    body { display: flex; flex-direction: column; }
    header { display: flex; justify-content: space-between; align-items: center; padding: 1vh 3vw;
      font-size: 3vh; color: #bbb; flex: none; }
    #state { font-size: 2.2vh; }
    #state.offline { color: #ff8a65; }
    main { display: grid; grid-template-columns: 1fr 1fr; grid-template-rows: minmax(0, 1fr); gap: 2vw; padding: 0 3vw 2vh; flex: 1; min-height: 0; }
    .panel { border-radius: 2vh; padding: 1.5vh 1.5vw; display: flex; flex-direction: column; min-height: 0; }
    #preparing-panel { background: #263238; }
    #ready-panel { background: #1b5e20; }
    .head { display: flex; align-items: baseline; justify-content: center; position: relative; flex: none; }
    h2 { margin: 0 0 1vh; font-size: 6vh; letter-spacing: 0.3em; }
    .pagemark { font-size: 3.2vh; font-weight: 700; color: #111; background: #ffe082; border-radius: 1vh;
      padding: 0.2vh 1vw; font-variant-numeric: tabular-nums; }
    .pagemark:empty { display: none; }
    footer .pagemark { width: 7vw; text-align: center; box-sizing: border-box; }
    footer .pagemark:empty { display: block; visibility: hidden; }
    .head .pagemark { position: absolute; right: 0; top: 1vh; }
    .numbers { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; align-content: flex-start;
      justify-content: center; column-gap: 1vw; row-gap: 0.8vh; flex: 1; min-height: 0; }
    .numbers li { font-weight: 700; font-variant-numeric: tabular-nums; text-align: center; line-height: 1.15;
      border-radius: 1vh; box-sizing: border-box; white-space: nowrap; padding: 0 0.08em; }
    #ready li { color: #fff59d; }
    #ready li.fresh { background: #ffeb3b; color: #111; }
    #newest { display: flex; align-items: center; justify-content: center; gap: 1.5vw; margin: 0 0 1.2vh;
      border-radius: 1.5vh; flex: none; border: 0.4vh solid #fff59d; }
    #newest[hidden] { display: none; }
    #newest .label { font-size: 3.5vh; color: #fff59d; }
    #newest-number { font-size: 11vh; line-height: 1.1; font-weight: 700; font-variant-numeric: tabular-nums;
      color: #fff59d; }
    #newest.fresh { background: #ffeb3b; animation: pulse 1s ease-in-out infinite alternate; }
    #newest.fresh .label, #newest.fresh #newest-number { color: #111; }
    @keyframes pulse { from { box-shadow: 0 0 0 0 #ffeb3b; } to { box-shadow: 0 0 3vh 1vh #ffeb3b; } }
    footer { display: flex; align-items: center; gap: 1.5vw; margin: 0 3vw 2vh; padding: 1vh 1.5vw;
      border-radius: 1.5vh; background: #3e2723; height: 9vh; box-sizing: border-box; flex: none; }
    footer[hidden] { display: none; }
    footer .label { font-size: 3vh; color: #ffcc80; white-space: nowrap; display: flex; flex-direction: column;
      line-height: 1.1; }
    footer .label small { font-size: 1.8vh; color: #bcaaa4; }
    #earlier { justify-content: flex-start; align-items: center; height: 100%; }
    #earlier li { color: #ffcc80; }
    #earlier li small { font-size: 0.45em; font-weight: 400; color: #d7ccc8; margin-left: 0.3em; }
    #newest-was { font-size: 5vh; color: #fff59d; }
    #newest.fresh #newest-was { color: #111; }
    #renamed-strip { background: #0d47a1; }
    #renamed-strip .label { color: #90caf9; }
    #renamed { justify-content: flex-start; align-items: center; height: 100%; }
    #renamed li small.was { font-weight: 400; color: #bbdefb; }
    .empty { font-size: 4vh; color: #888; text-align: center; }
    """

    private static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
