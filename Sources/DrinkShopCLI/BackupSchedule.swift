import Airtable
import DrinkShop
import Foundation
import HTTPServer
import LocalBase
import Synchronization

/// `serve`'s own backups: every `interval` while the store changes, and soon after a drawer is closed at any
/// counter. Checked once a minute; a store nobody wrote since the last backup is not copied again. A failed
/// backup is said in the log once per failure and the shop goes on selling.
final class BackupSchedule: Sendable {
    let backups: Backups
    let copyTo: String?
    let storePath: String
    let interval: TimeInterval
    let environment: [String: String]
    private let lastFailure = Mutex<String?>(nil)

    init(backups: Backups, copyTo: String?, storePath: String, interval: TimeInterval, environment: [String: String]) {
        self.backups = backups
        self.copyTo = copyTo
        self.storePath = storePath
        self.interval = interval
        self.environment = environment
    }

    /// Whether a backup is due now: the store was written since the newest backup, and that backup is older
    /// than the interval or older than the last close.
    func isDue(now: Date, lastClose: Date?) -> Bool {
        guard let written = Backups.lastWritten(storePath) else { return false }
        guard let newest = backups.list().first else { return true }
        guard written > newest.takenAt else { return false }
        return now.timeIntervalSince(newest.takenAt) >= interval || (lastClose.map { $0 > newest.takenAt } ?? false)
    }

    /// Runs until cancelled.
    func run(shop: Shop) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(60))
            if Task.isCancelled { return }
            let lastClose = (try? await shop.storeFacts())?.lastClose.flatMap { AirtableTimestamp.parse($0.at) }
            guard isDue(now: Date(), lastClose: lastClose) else { continue }
            await takeNow()
        }
    }

    func takeNow() async {
        var failure: String?
        let status = await BackupCommand.takeAndReport(backups, copyTo: copyTo, storePath: storePath, environment: environment,
                                                       say: { Console.complain($0) }, complain: { failure = $0 })
        let said = lastFailure.withLock { last -> Bool in
            defer { last = status == 0 ? nil : failure }
            return last == failure
        }
        if let failure, !said { Console.complain(failure + " (the shop goes on selling)") }
    }
}

/// `GET /health`: whether the store answers and how old its newest backup is; no token, no shop data. For a
/// service manager's or a counter's check: 200 when the store answers, 503 when it does not.
struct HealthRoute: PathRoutes {
    static let path = "/health"
    let store: any RecordStore
    let backups: Backups?

    func respond(to request: HTTPRequest) async -> HTTPResponse? {
        guard Self.claims(request) else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .json(#"{"error":"GET /health only"}"#, status: 405)
        }
        var body: [String: JSONValue] = [:]
        let opened = (try? await store.schema()) != nil
        body["store"] = opened ? "open" : "not answering"
        if let backups {
            if let newest = backups.list().first {
                body["lastBackupAt"] = .string(AirtableTimestamp.format(newest.takenAt))
                body["lastBackupAgeSeconds"] = .int(Int(Date().timeIntervalSince(newest.takenAt)))
            } else {
                body["lastBackupAt"] = .null
            }
        }
        body["status"] = opened ? "ok" : "failing"
        return .json(JSONWriter.bytes(.object(body)), status: opened ? 200 : 503)
    }
}
