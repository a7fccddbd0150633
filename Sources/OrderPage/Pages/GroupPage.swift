import DrinkShop
import DrinkShopCore
import Foundation

/// A group's page for one of its people: everyone's lines by person, each at its price with the promotion the
/// counter would apply (the drink form showed the same), the running total with that promotion, this browser's own lines with their buttons, and (for the organiser) the send button.
/// Once sent: the pickup number and the order's status, followed live, and that payment is at the counter.
enum GroupPage {
    struct Context {
        var shop: String
        var group: GroupSnapshot
        /// Why online ordering is closed now (nil: it is open).
        var closed: OrderPageRefusal?
        var promotion: AppliedPromotion?
        /// The order's status once sent, as last read (nil while unknown).
        var status: OrderStatus?
        /// What the sent order costs at the counter now, as last read (nil while unknown: the total sent).
        var bill: Int?
        /// `http://host` as the browser reached the server, for the link to share.
        var origin: String
        /// When the group expires, in the shop's time zone (`14:30`).
        var expiresAt: String
        var message: String?
        /// The hidden field of the browser's ``FormToken``, in every form.
        var token: String
    }

    static func html(_ context: Context) -> String {
        let e = PageLayout.escape
        let group = context.group
        let id = group.id
        var body = "<h1>\(e(group.organiserName)) 的揪團 <span class=\"en\">\(e(group.organiserName))'s group</span></h1>\n"
        if let name = group.viewerName {
            body += "<p class=\"muted\">你是 \(e(name))\(group.isOrganiser ? "（開團）" : "") · You are \(e(name))\(group.isOrganiser ? " (organiser)" : "")</p>\n"
        }
        if let message = context.message { body += PageLayout.notice(message) + "\n" }

        if case .sent(let ticket, _) = group.state {
            body += sentPart(ticket: ticket, status: context.status, due: context.bill ?? ticket.total)
        } else {
            body += "<p class=\"muted\">揪團保留到 \(e(context.expiresAt))。Kept until \(e(context.expiresAt)).</p>\n"
            if let closed = context.closed { body += PageLayout.notice(closed.description, isError: false) + "\n" }
            if group.state == .sending { body += PageLayout.notice(OrderPageRefusal.sending.description, isError: false) + "\n" }
            body += """
            <div class="card share"><label class="field" for="share" style="margin-top:0">邀請朋友：分享這個連結 <span class="en">Share this link</span></label>
            <input type="text" id="share" readonly value="\(e(context.origin + GroupPaths.base(id)))"></div>

            """
        }

        body += "<h2 id=\"lines\">訂單內容 <span class=\"en\">The order</span></h2>\n"
        let editable = group.state == .open && context.closed == nil
        body += linesPart(group, promotion: context.promotion, editable: editable, token: context.token)
        body += totalsPart(group, promotion: context.promotion, sent: isSent(group), bill: context.bill)

        if editable {
            body += "<a class=\"button\" href=\"\(GroupPaths.menu(id))\">＋ 加點飲料 <span class=\"en\">&nbsp;Add a drink</span></a>\n"
            if group.isOrganiser {
                body += """
                <form method="post" action="\(GroupPaths.send(id))">\(context.token)
                  <button type="submit" class="secondary" id="send">送出訂單 <span class="en">&nbsp;Send the order</span></button>
                </form>
                <p class="muted">送出後不能再修改；付款請至櫃台。Once sent, nothing changes; pay at the counter.</p>

                """
            } else {
                body += "<p class=\"muted\">由 \(e(group.organiserName)) 送出訂單。\(e(group.organiserName)) sends the order.</p>\n"
            }
        }
        let sent = isSent(group)
        return PageLayout.document(
            title: sent ? "取餐號" : "揪團", shop: context.shop, body: body,
            script: .group, scriptData: ["events": GroupPaths.events(id), "version": String(group.version)],
            refreshWithoutScript: sent ? 15 : nil)
    }

    private static func isSent(_ group: GroupSnapshot) -> Bool {
        if case .sent = group.state { return true }
        return false
    }

    private static func sentPart(ticket: OnlineTicket, status: OrderStatus?, due: Int) -> String {
        if status == .cancelled {
            // Cancelled (or voided) at the counter: nothing is owed and no stamps are earned; whatever was paid is
            // the counter's to give back.
            return """
            <div class="card pickup">
              <div>取餐號 <span class="en">Pickup number</span></div>
              <div class="number" id="pickup-number">\(ticket.number)</div>
              <div id="status-text" data-status="\(OrderStatus.cancelled.rawValue)">\(OrderStatus.cancelled.chineseLabel) \(englishStatus(.cancelled))</div>
            </div>
            <p class="notice">這張訂單已取消，不需付款；已付的款項由櫃台退還。This order was cancelled: nothing is due, and the counter gives back anything paid.</p>

            """
        }
        let steps: [OrderStatus] = [.placed, .preparing, .ready]
        let current = status ?? .placed
        let position = steps.firstIndex(of: current) ?? (current == .pickedUp ? steps.count : -1)
        var stepsHTML = "<ol class=\"steps\" id=\"steps\">"
        for (index, step) in steps.enumerated() {
            let kind = index < position ? "done" : index == position ? "now" : ""
            stepsHTML += "<li data-status=\"\(step.rawValue)\" class=\"\(kind)\">\(step.chineseLabel)</li>"
        }
        stepsHTML += "</ol>"
        let label = status.map { "\($0.chineseLabel) \(englishStatus($0))" } ?? "已下單 Placed"
        return """
        <div class="card pickup">
          <div>取餐號 <span class="en">Pickup number</span></div>
          <div class="number" id="pickup-number">\(ticket.number)</div>
          <div id="status-text" class="\(status == .ready ? "ready" : "")" data-status="\(status?.rawValue ?? "placed")">\(PageLayout.escape(label))</div>
          \(stepsHTML)
        </div>
        <p class="notice">付款請至櫃台，付款前訂單為未付款。應付 \(PageLayout.money(due))。Pay at the counter; the order is unpaid until then. Due: \(PageLayout.money(due)).</p>
        \(ticket.stamps.map { "<p class=\"notice\">會員集點：櫃台付款後集 \($0) 點。Member stamps: \($0) once paid at the counter.</p>" } ?? "")

        """
    }

    static func englishStatus(_ status: OrderStatus) -> String {
        switch status {
        case .placed: "Placed"
        case .preparing: "Being made"
        case .ready: "Ready to collect"
        case .pickedUp: "Collected"
        case .cancelled: "Cancelled"
        }
    }

    private static func linesPart(_ group: GroupSnapshot, promotion: AppliedPromotion?, editable: Bool, token: String) -> String {
        let e = PageLayout.escape
        guard !group.lines.isEmpty else {
            return "<p class=\"muted\">還沒有飲料。No drinks yet.</p>\n"
        }
        // By person, in the order people first added a line; the viewer's own first.
        var owners: [SecretDigest] = []
        for line in group.lines where !owners.contains(line.owner) { owners.append(line.owner) }
        if let viewer = group.viewerDigest, let mine = owners.firstIndex(of: viewer) { owners.insert(owners.remove(at: mine), at: 0) }
        var html = ""
        for owner in owners {
            let lines = group.lines.filter { $0.owner == owner }
            let name = group.people[owner] ?? "?"
            let mine = owner == group.viewerDigest
            html += "<div class=\"card person\" data-person=\"\(e(name))\"><h3>\(e(name))\(mine ? " <span class=\"tag\">我 me</span>" : "")</h3>\n"
            for groupLine in lines {
                let line = groupLine.line
                html += "<div class=\"line\" data-line=\"\(groupLine.id)\"><div class=\"what\"><div>\(e(line.drinkName))"
                    + (line.quantity > 1 ? " × \(line.quantity)" : "") + "</div>"
                html += "<div class=\"options\">\(e(line.optionSummary))</div>"
                if let note = line.note { html += "<div class=\"options\">備註：\(e(note))</div>" }
                if mine && editable {
                    html += """
                    <div class="actions"><a class="button secondary" href="\(GroupPaths.line(group.id, groupLine.id))">修改</a>
                    <form method="post" action="\(GroupPaths.line(group.id, groupLine.id))/delete">\(token)<button type="submit" class="secondary">刪除</button></form></div>
                    """
                }
                // The line's price with its share of the promotion taken off, the price before it struck through.
                let discount = group.lines.firstIndex { $0.id == groupLine.id }.map { promotion?.discount(forLine: $0) ?? 0 } ?? 0
                let was = discount > 0 ? "<s class=\"was\">\(PageLayout.money(line.lineTotal))</s> " : ""
                html += "</div><div class=\"amount\">\(was)\(PageLayout.money(line.lineTotal - discount))</div></div>\n"
            }
            html += "</div>\n"
        }
        return html
    }

    private static func totalsPart(_ group: GroupSnapshot, promotion: AppliedPromotion?, sent: Bool, bill: Int?) -> String {
        guard !group.lines.isEmpty else { return "" }
        let e = PageLayout.escape
        var html = "<div class=\"card totals\" id=\"totals\"><span>共 \(group.cups) 杯 · \(group.people.count) 人</span><span></span>"
        html += "<span>小計 Subtotal</span><span>\(PageLayout.money(group.subtotal))</span>"
        if let promotion, promotion.totalDiscount > 0 {
            html += "<span>\(e(promotion.name))</span><span>\(PageLayout.money(-promotion.totalDiscount))</span>"
        }
        let total = bill ?? group.subtotal - (promotion?.totalDiscount ?? 0)
        html += "<span class=\"grand\">合計 Total</span><span class=\"grand\" id=\"total\">\(PageLayout.money(total))</span>"
        if !sent { html += "<span class=\"muted\" style=\"grid-column: 1 / -1\">預估金額，以櫃台結帳為準。An estimate; the counter's bill is final.</span>" }
        html += "</div>\n"
        return html
    }
}
