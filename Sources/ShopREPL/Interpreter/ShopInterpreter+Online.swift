import DrinkShop

/// Ordering from the customers' page (`/order` of `drinkshop serve`): `online [on | off]`.
extension ShopInterpreter {
    /// `online`: whether the page takes orders now; `online on|off` opens or closes it for every counter (a
    /// manager's change, in the audit trail); the page follows with its next request.
    func online(_ on: Bool?) async throws {
        if let on {
            try await shop.counter.setOnlineOrdering(on, by: try await acting())
            say(on ? "Online ordering is open (網路點單開放): customers may order at /order of drinkshop serve.\n"
                   : "Online ordering is closed (網路點單關閉): the page at /order takes no new orders.\n")
            return
        }
        let open = try await shop.counter.isOnlineOrderingOpen()
        say(open ? "Online ordering is open (網路點單開放); `online off` closes it.\n"
                 : "Online ordering is closed (網路點單關閉); a manager opens it with `online on`.\n")
    }
}
