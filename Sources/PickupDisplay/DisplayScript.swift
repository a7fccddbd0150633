/// The pickup page's script: follows the board over Server-Sent Events and lays each list out on the
/// screen it runs on. Every number is shown: a list takes the largest type at which all its numbers fit;
/// when even the smallest type cannot hold them, it shows them a page at a time with a page mark (`1/3`),
/// as few pages as that type allows, in the largest type that needs no more, spread evenly; every list
/// turns its page together every ``DisplayPage/pageSeconds``, so one cycle shows each number.
/// An update keeps the page being shown (a busy evening changes the board every few seconds, and a
/// reset would never let page 2 come up). The newest ready number stays on screen above the ready list
/// and stands out, with any other number just ready, for ``DisplayPage/freshSeconds``; `?chime` adds a
/// short chime for it (a kiosk browser must allow sound without a click). Numbers a counter first gave out as
/// P numbers while the store was away are listed in a strip of their own, `P1 → 47`, until collected.
/// A file (`/display/display.js`), never inline: the page's policy is `script-src 'self'`. The event stream's
/// path is the page's `data-events`. Its text is `Scripts/display.js`, embedded in the binary by
/// scripts/embed-page-scripts (`source`, in `EmbeddedScripts.swift`).
enum DisplayScript {
    static let path = "/display/display.js"
}
