import Airtable
import Foundation
import LocalBase
import Testing
import TestSupport

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
            if n == 1 { FileHandle.standardOutput.write(Data((Self.startedLine + "\n").utf8)) }
        }
    }

    /// What the child writes once its first record is in, so the parent starts writing only then.
    static let startedLine = "TwoProcessTests: the child is writing"

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
        let childOutput = Pipe()
        child.standardOutput = childOutput
        child.standardError = FileHandle.nullDevice
        let exited = AsyncStream<Int32> { continuation in
            child.terminationHandler = { process in
                continuation.yield(process.terminationStatus)
                continuation.finish()
            }
        }
        try child.run()
        try? childOutput.fileHandleForWriting.close()
        // Start writing once the child says it is writing, so that the two really contend for the file.
        // Its output is read off the cooperative pool, and read on to the end so it can never fill the pipe.
        let reader = childOutput.fileHandleForReading
        let childStarted = await ChildProcess.offThePool("TwoProcessTests child output") {
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains(Self.startedLine) {
                let chunk = reader.availableData
                if chunk.isEmpty { return false }
                seen.append(chunk)
            }
            return true
        }
        async let rest = ChildProcess.readToEnd(reader)
        #expect(childStarted, "the child never started writing")
        for n in 1...Self.recordsPerWriter {
            _ = try await base.createRecord(in: "Orders", ["name": .string("parent \(n)")])
        }
        var status: Int32 = -1
        for await code in exited { status = code }
        _ = await rest
        #expect(status == 0)

        let records = try await base.allRecords(in: "Orders")
        let names = records.compactMap { $0.fields["name"]?.stringValue }
        #expect(names.filter { $0.hasPrefix("parent") }.count == Self.recordsPerWriter)
        #expect(names.filter { $0.hasPrefix("child") }.count == Self.recordsPerWriter)  // nothing lost
        let numbers = records.compactMap { $0.fields["number"]?.intValue }
        #expect(numbers == Array(1...(2 * Self.recordsPerWriter)))  // unique, increasing, in commit order
    }
}
