import Foundation

/// Following the settings every counter shares (time zone, business-day start, printers, archiving, online
/// ordering) and whether PINs are on: a change made at another counter reaches this one within
/// `sharedReadingAge`, counters started before it included.
extension Counter {
    /// How long this counter trusts its reading of the shared settings and of whether PINs are on. Two reads
    /// (`Setting`, `User`) per five seconds of use keep a busy counter well inside a remote base's rate limit.
    public static let defaultSharedReadingAge: TimeInterval = 5
    /// On Airtable itself every reading counts against the plan's monthly calls: there, once a minute.
    public static let airtableSharedReadingAge: TimeInterval = 60

    /// Reads the shared settings and whether PINs are on again when the last reading is `sharedReadingAge`
    /// old (never more often, and not at all while it is younger), and applies what another counter changed:
    /// the clock counts business days by a new time zone or day start at once; the rest is read from this
    /// reading where it is used. Called by a front before each command.
    ///
    /// While the store cannot be reached nothing is read: the counter goes by the last known settings and
    /// staff (`SharedSettingsNews.fromLastKnown` is set once per outage, for the front to say so). A read that
    /// fails otherwise keeps the reading as it was until the next one is due.
    public func followSharedSettings() async -> SharedSettingsNews {
        let now = clock.now()
        var news = SharedSettingsNews()
        if delivery.isOffline { return await fromLastKnown(news) }
        let known = reading.current
        if SharedReading.isStale(known.settingsAt, now: now, age: sharedReadingAge) {
            do {
                let stored = try await settings.readFromStore()
                reading.read(settings: stored, at: now)
                // Sold out, restocked or repriced at another counter since the menu copy was read: the menu is read
                // again at its next use.
                await orders.catalog.follow(stored)
                if let old = known.settings {
                    news.changes = SharedSettingChange.changes(from: old, to: stored)
                    if old[ShopSettings.timeZoneKey] != stored[ShopSettings.timeZoneKey]
                        || old[ShopSettings.dayStartsKey] != stored[ShopSettings.dayStartsKey]
                    {
                        news.problems = settings.applyDayRule(stored)
                    }
                }
            } catch {
                if delivery.outbox(after: error, at: now) != nil { return await fromLastKnown(news) }
                if let old = known.settings { reading.read(settings: old, at: now) }
            }
        }
        if SharedReading.isStale(known.pinsAt, now: now, age: sharedReadingAge) {
            if let pins = try? await pinsEnabled(), let old = known.pins, old != pins { news.changes.append(.pins(pins)) }
            if delivery.isOffline { return await fromLastKnown(news) }
        }
        reading.storeAnswered()
        news.settings = reading.current.settings
        return news
    }

    private func fromLastKnown(_ news: SharedSettingsNews) async -> SharedSettingsNews {
        var news = news
        if reading.current.settings == nil, let kept = await settings.lastKnown() {
            reading.read(settings: kept, at: .distantPast)
        }
        if reading.current.pins == nil, let kept = await delivery.outbox?.keptPinsEnabled(at: clock.now(), within: .infinity) {
            reading.read(pins: kept, at: nil)
        }
        news.fromLastKnown = reading.tellLastKnown()
        news.settings = reading.current.settings
        return news
    }
}
