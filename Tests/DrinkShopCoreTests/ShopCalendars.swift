import DrinkShopCore
import Foundation

/// The calendars the core's tests stand in (the shop's own comes from its settings).
extension ShopCalendar {
    /// Taiwan time, UTC+8 all year, days from midnight.
    static let taiwan = ShopCalendar(timeZone: TimeZone(identifier: "Asia/Taipei")!)

    /// A zone a fixed number of seconds from UTC.
    init(utcOffsetSeconds: Int) {
        self.init(timeZone: TimeZone(secondsFromGMT: utcOffsetSeconds)!)
    }
}
