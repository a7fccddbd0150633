import Airtable

/// A group of reads, each chosen from the answers before it, then the writes they decide: a rule written once,
/// as a pure state machine, that a `CommitStrategy` runs in one transaction or as calls one after another.
protocol StorePlan: Sendable {
    associatedtype Outcome: Sendable
    /// Where reads cost requests (over the API), the outcome to give without any, when the plan's facts
    /// already tell; nil: read.
    var outcomeWithoutReading: Outcome? { get }
    /// The first step.
    mutating func start() -> PlanStep<Outcome>
    /// The step after the last read answered `records` (a `get` answers its one record).
    mutating func next(after records: [Record]) -> PlanStep<Outcome>
}

/// What a plan does next.
enum PlanStep<Outcome: Sendable>: Sendable {
    /// Lists `table`'s records that `query` finds.
    case list(table: String, ListQuery)
    /// Reads record `id` of `table`.
    case get(table: String, id: String)
    /// Writes `writes`, in order, and ends with `outcome`.
    case write([RecordWrite], then: Outcome)
    /// Ends with `outcome`, writing nothing.
    case done(Outcome)
}

extension StorePlan {
    /// Runs the plan inside a commit: every read and write in `transaction`.
    func run(in transaction: any RecordTransaction) throws(AirtableError) -> Outcome {
        var plan = self
        var step = plan.start()
        while true {
            switch step {
            case .list(let table, let query): step = plan.next(after: try transaction.listRecords(in: table, query: query).records)
            case .get(let table, let id): step = plan.next(after: [try transaction.getRecord(in: table, id: id, options: ReadOptions())])
            case .write(let writes, let outcome):
                for write in writes { _ = try write.apply(in: transaction) }
                return outcome
            case .done(let outcome): return outcome
            }
        }
    }

    /// Runs the plan over the API: each read a request (a listing, every page), then the writes one after another.
    func run(over store: any RecordStore) async throws(ShopError) -> Outcome {
        if let outcome = outcomeWithoutReading { return outcome }
        var plan = self
        var step = plan.start()
        while true {
            switch step {
            case .list(let table, let query):
                let records: [Record]
                do { records = try await store.allRecords(in: table, query: query) } catch { throw .store(error) }
                step = plan.next(after: records)
            case .get(let table, let id):
                let record: Record
                do { record = try await store.getRecord(in: table, id: id, options: ReadOptions()) } catch { throw .store(error) }
                step = plan.next(after: [record])
            case .write(let writes, let outcome):
                _ = try await RecordWrite.apply(writes, to: store)
                return outcome
            case .done(let outcome): return outcome
            }
        }
    }
}
