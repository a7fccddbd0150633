import Synchronization

/// A value tests can change from a `@Sendable` closure.
final class LockedBox<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    var value: Value { storage.withLock { $0 } }

    func update(_ change: (inout Value) -> Void) { storage.withLock { change(&$0) } }
}

/// The result of a mutating call, passed through so `#expect` can take it: the macro cannot call a
/// mutating method on a variable itself.
func changed(_ result: Bool) -> Bool { result }
