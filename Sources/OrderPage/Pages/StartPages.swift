/// The pages before a group: who you are (start one), joining one from its link, and a refusal.
enum StartPages {
    /// `/order`: a name (and a member's mobile number, if any) starts a group; alone is a group of one.
    /// `token` is the hidden field of the browser's ``FormToken``, in every form.
    static func landing(shop: String, closed: OrderPageRefusal?, message: String? = nil, name: String = "", mobile: String = "",
                        limits: OrderPageLimits, token: String) -> String
    {
        let e = PageLayout.escape
        var body = """
        <h1>網路點餐 <span class="en">Order online</span></h1>
        <p>一個人點，或揪團一起點：開始後把連結分享給朋友，每個人用自己的手機點自己的飲料，最後由開團的人送出一張訂單。</p>
        <p class="muted">Order alone, or start a group: share the link, everyone orders their own drinks from their own phone, and whoever started it sends one order.</p>
        <p class="notice">付款請至櫃台，付款前訂單為未付款。Pay at the counter; the order is unpaid until then.</p>

        """
        if let message { body += PageLayout.notice(message) + "\n" }
        if closed == nil {
            body += """
            <form method="post" action="/order/start">\(token)
              <label class="field" for="name">你的名字 <span class="en">Your name</span></label>
              <input type="text" id="name" name="name" value="\(e(name))" maxlength="\(limits.nameLength)" required autocomplete="nickname">
              <label class="field" for="mobile">會員手機（選填）<span class="en">Member mobile (optional)</span></label>
              <input type="tel" id="mobile" name="mobile" value="\(e(mobile))" placeholder="09XXXXXXXX" maxlength="20" inputmode="tel" autocomplete="tel">
              <p class="muted">集點與會員卡請於櫃台付款時出示。Stamps and passes are applied at the counter when you pay.</p>
              <button type="submit">開始點餐 <span class="en">&nbsp;Start</span></button>
            </form>
            <p class="muted">揪團保留 \(hours(limits.groupLifetime))，送出後可在本頁看取餐號與製作進度。A group is kept for \(hoursEnglish(limits.groupLifetime)); after sending, this page shows the pickup number and the order's progress.</p>

            """
        } else {
            body += PageLayout.notice(closed?.description ?? "", isError: false) + "\n"
        }
        return PageLayout.document(title: "網路點餐", shop: shop, body: body)
    }

    /// A group's link opened by a browser not yet in it: its name joins.
    static func join(shop: String, group: GroupSnapshot, closed: OrderPageRefusal?, message: String? = nil, name: String = "",
                     limits: OrderPageLimits, token: String) -> String
    {
        let e = PageLayout.escape
        var body = """
        <h1>\(e(group.organiserName)) 的揪團 <span class="en">\(e(group.organiserName))'s group</span></h1>
        <p>目前 \(group.people.count) 人、\(group.cups) 杯。\(group.people.count) people, \(group.cups) cups so far.</p>

        """
        if let message { body += PageLayout.notice(message) + "\n" }
        switch group.state {
        case .open where closed == nil:
            body += """
            <form method="post" action="\(GroupPaths.base(group.id))/join">\(token)
              <label class="field" for="name">你的名字 <span class="en">Your name</span></label>
              <input type="text" id="name" name="name" value="\(e(name))" maxlength="\(limits.nameLength)" required autocomplete="nickname">
              <button type="submit">加入揪團 <span class="en">&nbsp;Join</span></button>
            </form>

            """
        case .open:
            body += PageLayout.notice((closed ?? .closed).description, isError: false)
        case .sending, .sent:
            body += PageLayout.notice(OrderPageRefusal.alreadySent.description, isError: false)
        }
        return PageLayout.document(title: "加入揪團", shop: shop, body: body)
    }

    /// A refusal with nothing else to show, and the way back.
    static func refusal(shop: String, _ message: String, back: (href: String, label: String)) -> String {
        let body = PageLayout.notice(message) + "\n<a class=\"button secondary\" href=\"\(PageLayout.escape(back.href))\">\(PageLayout.escape(back.label))</a>\n"
        return PageLayout.document(title: "無法完成", shop: shop, body: body)
    }

    static func hours(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        return minutes % 60 == 0 ? "\(minutes / 60) 小時" : "\(minutes) 分鐘"
    }

    static func hoursEnglish(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes) min"
    }
}

/// The paths of one group's pages.
enum GroupPaths {
    static func base(_ id: GroupID) -> String { "/order/g/\(id.hex)" }
    static func menu(_ id: GroupID) -> String { base(id) + "/menu" }
    static func drink(_ id: GroupID, _ name: String) -> String { base(id) + "/drink?d=" + FormFields.encode(name) }
    static func lines(_ id: GroupID) -> String { base(id) + "/lines" }
    static func line(_ id: GroupID, _ line: Int) -> String { base(id) + "/lines/\(line)" }
    static func events(_ id: GroupID) -> String { base(id) + "/events" }
    static func send(_ id: GroupID) -> String { base(id) + "/send" }
}
