/// The parameters of "list records" (reference §2.2), whichever way they travel (query string or
/// `POST .../listRecords` body).
public struct ListQuery: Sendable, Hashable {
    /// Keep a record unless this formula gives 0, false, "", NaN, [] or an error.
    public var filterByFormula: String?
    /// Sort keys, applied in order; with none, the order is the store's own.
    public var sort: [SortKey]
    /// Return only these fields (names or ids); nil means every field.
    public var fields: [String]?
    /// Records per page, 0...100; nil means 100.
    public var pageSize: Int?
    /// A cap on the records over all pages.
    public var maxRecords: Int?
    /// The cursor from the previous page.
    public var offset: String?
    /// A view name or id; its records only, in its order unless `sort` is given.
    public var view: String?
    /// `json` (default) or `string`.
    public var cellFormat: CellFormat
    /// Needed with `cellFormat == .string`.
    public var timeZone: String?
    /// Needed with `cellFormat == .string`.
    public var userLocale: String?
    /// Key `fields` by field id instead of name.
    public var returnFieldsByFieldId: Bool
    /// Add `commentCount` to each record.
    public var includeCommentCount: Bool

    public init(
        filterByFormula: String? = nil, sort: [SortKey] = [], fields: [String]? = nil, pageSize: Int? = nil,
        maxRecords: Int? = nil, offset: String? = nil, view: String? = nil, cellFormat: CellFormat = .json,
        timeZone: String? = nil, userLocale: String? = nil, returnFieldsByFieldId: Bool = false,
        includeCommentCount: Bool = false
    ) {
        self.filterByFormula = filterByFormula
        self.sort = sort
        self.fields = fields
        self.pageSize = pageSize
        self.maxRecords = maxRecords
        self.offset = offset
        self.view = view
        self.cellFormat = cellFormat
        self.timeZone = timeZone
        self.userLocale = userLocale
        self.returnFieldsByFieldId = returnFieldsByFieldId
        self.includeCommentCount = includeCommentCount
    }
}

/// One sort key: a field name or id, ascending unless told otherwise.
public struct SortKey: Sendable, Hashable {
    public enum Direction: String, Sendable, Hashable {
        case ascending = "asc"
        case descending = "desc"
    }

    public var field: String
    public var direction: Direction

    public init(field: String, direction: Direction = .ascending) {
        self.field = field
        self.direction = direction
    }
}

/// How cell values are rendered in responses.
public enum CellFormat: String, Sendable, Hashable {
    case json
    case string
}

/// One page of a listing. `offset` is nil on the last page.
public struct RecordPage: Sendable, Hashable {
    public var records: [Record]
    public var offset: String?

    public init(records: [Record], offset: String? = nil) {
        self.records = records
        self.offset = offset
    }
}

/// Options of "get record".
public struct ReadOptions: Sendable, Hashable {
    public var cellFormat: CellFormat
    public var timeZone: String?
    public var userLocale: String?
    public var returnFieldsByFieldId: Bool

    public init(cellFormat: CellFormat = .json, timeZone: String? = nil, userLocale: String? = nil,
                returnFieldsByFieldId: Bool = false) {
        self.cellFormat = cellFormat
        self.timeZone = timeZone
        self.userLocale = userLocale
        self.returnFieldsByFieldId = returnFieldsByFieldId
    }
}

/// Options every write takes.
public struct WriteOptions: Sendable, Hashable {
    /// Convert values on a best-effort basis (strings to numbers, new select options, ...).
    public var typecast: Bool
    /// Key the returned `fields` by field id.
    public var returnFieldsByFieldId: Bool

    public init(typecast: Bool = false, returnFieldsByFieldId: Bool = false) {
        self.typecast = typecast
        self.returnFieldsByFieldId = returnFieldsByFieldId
    }
}

/// A change to one existing record.
public struct RecordUpdate: Sendable, Hashable {
    public var id: String
    public var fields: Fields

    public init(id: String, fields: Fields) {
        self.id = id
        self.fields = fields
    }
}

/// One record of an upsert: with an id it is a plain update; without, it is matched on the merge fields.
public struct UpsertRecord: Sendable, Hashable {
    public var id: String?
    public var fields: Fields

    public init(id: String? = nil, fields: Fields) {
        self.id = id
        self.fields = fields
    }
}

/// What an upsert did: the records in request order, and which ids were created or updated.
public struct UpsertResult: Sendable, Hashable {
    public var records: [Record]
    public var createdRecords: [String]
    public var updatedRecords: [String]

    public init(records: [Record], createdRecords: [String], updatedRecords: [String]) {
        self.records = records
        self.createdRecords = createdRecords
        self.updatedRecords = updatedRecords
    }
}
