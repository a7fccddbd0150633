import HTTPServer

/// The frame every page of `/order` shares: one HTML document with its inline style (and, on the pages that
/// have one, a small script file of this page's own, ``PageScript``); nothing is loaded from anywhere else. Sized for a phone held in one
/// hand (390×844 and up): one column, text at 17 px, every control at least 48 px tall.
enum PageLayout {
    static func document(title: String, shop: String, body: String, script: PageScript? = nil,
                         scriptData: KeyValuePairs<String, String> = [:], refreshWithoutScript: Int? = nil) -> String
    {
        let scriptElement = script.map { script in
            "<script src=\"\(script.path)\"" + scriptData.map { " data-\($0.key)=\"\(escape($0.value))\"" }.joined() + "></script>"
        } ?? ""
        let refresh = refreshWithoutScript.map { "<noscript><meta http-equiv=\"refresh\" content=\"\($0)\"></noscript>\n" } ?? ""
        return """
        <!DOCTYPE html>
        <html lang="zh-Hant">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="same-origin">
        \(refresh)<title>\(escape(title)) · \(escape(shop))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <header class="bar"><a href="/order" class="brand">\(escape(shop))<small>網路點餐 Online order</small></a><span id="live"></span></header>
        <main>
        \(body)
        </main>
        \(scriptElement)
        </body>
        </html>

        """
    }

    /// Text for HTML content and quoted attribute values.
    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    /// NT$ as the shop writes it: `$55`, `−$27`.
    static func money(_ amount: Int) -> String { amount < 0 ? "−$\(-amount)" : "$\(amount)" }

    /// A message box: a refusal (`role=alert`) or a note.
    static func notice(_ text: String, isError: Bool = true) -> String {
        "<p class=\"notice\(isError ? " error" : "")\"\(isError ? " role=\"alert\"" : "")>\(escape(text))</p>"
    }

    private static let style = """
    :root { --ink: #23213b; --paper: #f6f1e7; --card: #fffdf8; --line: #ddd3c2; --accent: #8c1d2f; --gold: #b8893b;
      --muted: #6d6a75; --ok: #1b5e20; }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body { margin: 0; background: var(--paper); color: var(--ink); font-size: 17px; line-height: 1.45;
      font-family: "Noto Sans CJK TC", "PingFang TC", "Microsoft JhengHei", "WenQuanYi Zen Hei", system-ui, sans-serif; }
    .bar { position: sticky; top: 0; z-index: 5; display: flex; justify-content: space-between; align-items: center;
      background: var(--ink); color: #f3e9d2; padding: 10px 16px; min-height: 56px; }
    .brand { color: #f3e9d2; text-decoration: none; font-weight: 700; font-size: 18px; display: flex; flex-direction: column; line-height: 1.2; }
    .brand small { font-weight: 400; font-size: 13px; color: #cbbf9f; }
    #live { font-size: 13px; color: #cbbf9f; }
    #live.off { color: #ffab91; }
    main { max-width: 560px; margin: 0 auto; padding: 16px 16px 120px; }
    h1 { font-size: 24px; margin: 4px 0 4px; }
    h2 { font-size: 19px; margin: 24px 0 8px; scroll-margin-top: 72px; }
    .en { color: var(--muted); font-weight: 400; font-size: 0.82em; }
    p { margin: 8px 0; }
    .muted { color: var(--muted); font-size: 15px; }
    a { color: var(--accent); }
    label.field { display: block; margin: 14px 0 4px; font-weight: 700; }
    input[type=text], input[type=tel], input[type=number] { width: 100%; min-height: 48px; font-size: 18px; padding: 8px 12px;
      border: 1px solid var(--line); border-radius: 10px; background: #fff; color: var(--ink); }
    .button, button { display: flex; align-items: center; justify-content: center; width: 100%; min-height: 52px;
      margin: 12px 0; padding: 10px 16px; font-size: 18px; font-weight: 700; border-radius: 12px; border: none;
      background: var(--accent); color: #fff; text-decoration: none; cursor: pointer; font-family: inherit; }
    .button .en, button .en { color: #f3dcdc; }
    .button.secondary, button.secondary { background: var(--card); color: var(--accent); border: 2px solid var(--accent); }
    .button.secondary .en, button.secondary .en { color: var(--muted); }
    .notice { padding: 12px 14px; border-radius: 10px; background: #fff6dc; border: 1px solid #ecd9a0; }
    .notice.error { background: #fde8e8; border-color: #e3a3a3; color: #7a1020; font-weight: 700; }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: 14px; padding: 12px 14px; margin: 10px 0; }
    nav.tabs { position: sticky; top: 56px; z-index: 4; display: flex; gap: 8px; overflow-x: auto; padding: 10px 16px;
      margin: -16px -16px 8px; background: var(--paper); border-bottom: 1px solid var(--line); }
    nav.tabs a { flex: none; display: flex; align-items: center; min-height: 44px; padding: 0 14px; border-radius: 22px;
      background: var(--card); border: 1px solid var(--line); color: var(--ink); text-decoration: none; font-weight: 700; }
    section.category { scroll-margin-top: 120px; }
    ul.drinks { list-style: none; margin: 0; padding: 0; }
    .drink { display: flex; justify-content: space-between; align-items: center; gap: 12px; min-height: 64px; padding: 10px 14px;
      margin: 8px 0; background: var(--card); border: 1px solid var(--line); border-radius: 12px; color: var(--ink); text-decoration: none; }
    .drink .name { font-weight: 700; }
    .drink .price { white-space: nowrap; font-variant-numeric: tabular-nums; }
    .drink.soldout { opacity: 0.55; }
    .tag { display: inline-block; font-size: 13px; padding: 0 8px; border-radius: 10px; background: #efe4cf; color: #6b4b12; margin-left: 4px; }
    .tag.out { background: #e0dcdc; color: #555; }
    fieldset { border: none; margin: 18px 0 0; padding: 0; }
    legend { font-weight: 700; font-size: 18px; padding: 0; margin-bottom: 6px; width: 100%; }
    legend .need { font-size: 13px; font-weight: 700; color: #fff; background: var(--gold); border-radius: 8px; padding: 1px 8px; margin-left: 8px; }
    legend .need.missing { background: #c62828; }
    .choices { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
    .choice { display: flex; align-items: center; gap: 10px; min-height: 52px; padding: 6px 12px; background: var(--card);
      border: 2px solid var(--line); border-radius: 12px; cursor: pointer; }
    .choice input { width: 22px; height: 22px; margin: 0; accent-color: var(--accent); flex: none; }
    .choice:has(input:checked) { border-color: var(--accent); background: #fbeff0; }
    .choice.disabled { opacity: 0.45; cursor: not-allowed; }
    .choice .extra { margin-left: auto; color: var(--muted); font-size: 14px; white-space: nowrap; }
    .choice small { display: block; color: var(--muted); font-size: 13px; line-height: 1.2; }
    .total-bar { position: fixed; left: 0; right: 0; bottom: 0; z-index: 6; background: var(--card); border-top: 1px solid var(--line);
      padding: 8px 16px calc(8px + env(safe-area-inset-bottom)); }
    .total-bar .inner { max-width: 560px; margin: 0 auto; display: flex; align-items: center; gap: 12px; }
    .total-bar .sum { font-size: 22px; font-weight: 700; white-space: nowrap; font-variant-numeric: tabular-nums; }
    .total-bar button, .total-bar .button { margin: 0; }
    .person h3 { margin: 0 0 4px; font-size: 17px; }
    .line { display: flex; justify-content: space-between; gap: 8px; padding: 8px 0; border-top: 1px dashed var(--line); }
    .line:first-of-type { border-top: none; }
    .line .what { flex: 1; }
    .line .options { color: var(--muted); font-size: 15px; }
    .line .amount { white-space: nowrap; font-variant-numeric: tabular-nums; text-align: right; }
    s.was { color: var(--muted); font-weight: 400; font-size: 0.8em; margin-right: 6px; }
    s.was:empty { display: none; }
    .line .actions { display: flex; gap: 8px; margin-top: 6px; }
    .line .actions a, .line .actions button { width: auto; min-height: 44px; min-width: 72px; margin: 0; font-size: 16px; padding: 6px 14px; }
    .totals { display: grid; grid-template-columns: 1fr auto; gap: 4px 12px; font-variant-numeric: tabular-nums; }
    .totals .grand { font-size: 22px; font-weight: 700; }
    .share input { font-size: 14px; }
    .pickup { text-align: center; padding: 18px 12px; }
    .pickup .number { font-size: 72px; font-weight: 800; line-height: 1.1; color: var(--accent); font-variant-numeric: tabular-nums; }
    ol.steps { list-style: none; display: flex; justify-content: space-between; gap: 6px; padding: 0; margin: 14px 0 6px; }
    ol.steps li { flex: 1; text-align: center; padding: 10px 4px; border-radius: 10px; background: #ebe5d8; color: var(--muted); font-weight: 700; }
    ol.steps li.done { background: #d8e8d8; color: var(--ok); }
    ol.steps li.now { background: var(--ok); color: #fff; }
    #status-text { font-size: 26px; font-weight: 800; margin: 6px 0; }
    #status-text.ready { color: var(--ok); }
    """
}
