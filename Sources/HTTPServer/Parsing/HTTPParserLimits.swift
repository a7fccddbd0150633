/// Size limits that keep one client from making the server buffer without bound.
///
/// Each limit is checked as bytes arrive, so an oversized request is refused before the rest of it is read.
public struct HTTPParserLimits: Sendable, Equatable {
    /// The longest request line (method, target and version, without CRLF); longer gets 414.
    public var maxRequestLineLength: Int
    /// The longest single header or trailer field line (without CRLF); longer gets 431.
    public var maxHeaderLineLength: Int
    /// The most header field lines (trailers included); more gets 431.
    public var maxHeaderCount: Int
    /// The most bytes of header field lines together (trailers included); more gets 431.
    public var maxHeaderBytes: Int
    /// The largest body, after de-chunking; larger gets 413.
    public var maxBodyBytes: Int
    /// The longest chunk-size line (size plus extensions); longer gets 400.
    public var maxChunkLineLength: Int

    /// Limits with the given values; the defaults allow any request the Airtable API can take.
    public init(
        maxRequestLineLength: Int = 16_384, maxHeaderLineLength: Int = 16_384, maxHeaderCount: Int = 100,
        maxHeaderBytes: Int = 32_768, maxBodyBytes: Int = 2 * 1_024 * 1_024, maxChunkLineLength: Int = 4_096
    ) {
        self.maxRequestLineLength = maxRequestLineLength
        self.maxHeaderLineLength = maxHeaderLineLength
        self.maxHeaderCount = maxHeaderCount
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkLineLength = maxChunkLineLength
    }
}
