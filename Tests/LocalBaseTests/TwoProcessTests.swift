import Airtable
import Foundation
import LocalBase
import Testing

/// Two processes writing one base file at once, as two counters of a shop would: the test starts a
/// copy of this test binary that runs `writerProcess` against the same file.
@Suite struct TwoProcessTests {
    static let pathVariable = "LOCALBASE_TEST_WRITER_PATH"
    static let recordsPerWriter = 200

    /// The child's side; it runs only when the parent test starts it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[pathVariable] != nil))
    func writerProcess() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.pathVariable])
        let base = try LocalBase(path: path)
        for n in 1...Self.recordsPerWriter {
            _ = try await base.createRecord(in: "Orders", ["name": .string("child \(n)")])
        }
    }

    @Test func twoProcessesWriteOneFileAtOnce() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let base = try LocalBase(path: path)
        _ = try await base.createTable(TableSpec(name: "Orders", fields: orderFields))

        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "TwoProcessTests/writerProcess"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.pathVariable] = path
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        let exited = AsyncStream<Int32> { continuation in
            child.terminationHandler = { process in
                continuation.yield(process.terminationStatus)
                continuation.finish()
            }
        }
        try child.run()
        // Start writing once the child is writing, so that the two really contend for the file.
        for _ in 0..<500 {
            let childStarted = try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 1)).records.isEmpty == false
            if childStarted { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        for n in 1...Self.recordsPerWriter {
            _ = try await base.createRecord(in: "Orders", ["name": .string("parent \(n)")])
        }
        var status: Int32 = -1
        for await code in exited { status = code }
        #expect(status == 0)

        let records = try await base.allRecords(in: "Orders")
        let names = records.compactMap { $0.fields["name"]?.stringValue }
        #expect(names.filter { $0.hasPrefix("parent") }.count == Self.recordsPerWriter)
        #expect(names.filter { $0.hasPrefix("child") }.count == Self.recordsPerWriter)  // nothing lost
        let numbers = records.compactMap { $0.fields["number"]?.intValue }
        #expect(numbers == Array(1...(2 * Self.recordsPerWriter)))  // unique, increasing, in commit order
    }
}
