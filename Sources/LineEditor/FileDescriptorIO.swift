import Glibc

/// Blocking reads and writes on a file descriptor that ride out interruptions and short writes.
public enum FileDescriptorIO {
    /// Writes every byte of `bytes`, retrying after signals and short writes; false if the descriptor
    /// refused (closed terminal, broken pipe).
    @discardableResult
    static func writeAll(_ fileDescriptor: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        let data = Array(bytes)
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { buffer in
                write(fileDescriptor, buffer.baseAddress.map { $0 + offset }, data.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Writes `text` as UTF-8.
    @discardableResult
    public static func writeAll(_ fileDescriptor: Int32, _ text: String) -> Bool {
        writeAll(fileDescriptor, text.utf8)
    }

    /// Up to `limit` bytes; empty at end of input or on an error other than an interruption.
    static func readSome(_ fileDescriptor: Int32, limit: Int = 4096) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, limit) }
            if count >= 0 { return Array(buffer[..<count]) }
            if errno != EINTR { return [] }
        }
    }
}
