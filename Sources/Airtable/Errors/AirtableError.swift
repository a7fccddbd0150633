/// An error of Airtable's record API as it travels on the wire: an HTTP status, an error type and
/// (usually) a message. Reference §7 lists them; the static members below build the ones the API
/// uses, with Airtable's own wording.
public struct APIError: Error, Sendable, Hashable {
    public var status: Int
    public var type: String
    public var message: String?
    /// Whether the body is the bare-string form `{"error":"NOT_FOUND"}`.
    public var isBare: Bool

    public init(status: Int, type: String, message: String? = nil, isBare: Bool = false) {
        self.status = status
        self.type = type
        self.message = message
        self.isBare = isBare
    }

    /// The response body: `{"error":{"type":..,"message":..}}`, `{"error":{"type":..}}` or `{"error":"TYPE"}`.
    public var body: JSONValue {
        if isBare { return ["error": .string(type)] }
        var error: [String: JSONValue] = ["type": .string(type)]
        if let message { error["message"] = .string(message) }
        return ["error": .object(error)]
    }

    /// Reads any of the three error body shapes; nil when `body` is none of them.
    public init?(status: Int, body: JSONValue) {
        switch body["error"] {
        case .string(let type)?:
            self.init(status: status, type: type, isBare: true)
        case .object(let error)?:
            guard let type = error["type"]?.stringValue else { return nil }
            self.init(status: status, type: type, message: error["message"]?.stringValue)
        default:
            return nil
        }
    }
}

extension APIError {
    /// Whether a gateway in front of the base failed (502, 503, 504): the base may be fine but cannot be
    /// reached right now. Retried by the client; read as "unreachable" by the shop.
    public var isGatewayFailure: Bool { APIError.isGatewayFailure(status: status) }

    /// 502, 503 and 504: the rule written once.
    public static func isGatewayFailure(status: Int) -> Bool { (502...504).contains(status) }

    public static let authenticationRequired = APIError(
        status: 401, type: "AUTHENTICATION_REQUIRED", message: "Authentication required")
    public static let modelNotFound = APIError(
        status: 403, type: "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND",
        message: "Invalid permissions, or the requested model was not found. Check that both your user and your "
            + "token have the required permissions, and that the model names and/or ids are correct.")
    public static let invalidPermissions = APIError(
        status: 403, type: "INVALID_PERMISSIONS", message: "You are not permitted to perform this operation")
    /// Unknown route or base: the bare 404.
    public static let notFound = APIError(status: 404, type: "NOT_FOUND", isBare: true)
    public static let invalidRequestUnknown = APIError(
        status: 422, type: "INVALID_REQUEST_UNKNOWN",
        message: "Invalid request: parameter validation failed. Check your request data.")
    public static let invalidRecords = APIError(
        status: 422, type: "INVALID_RECORDS",
        message: "You must provide an array of up to 10 record objects, each with an 'id' ID field and a "
            + "'fields' object for cell values.")
    public static let missingFields = APIError(
        status: 422, type: "INVALID_REQUEST_MISSING_FIELDS",
        message: "Could not find field \"fields\" in the request body")
    public static let invalidPageSize = APIError(
        status: 422, type: "INVALID_PAGE_SIZE_ARGUMENT", message: "Page size argument should be between 0 and 100")
    public static let iteratorNotAvailable = APIError(status: 422, type: "LIST_RECORDS_ITERATOR_NOT_AVAILABLE")
    /// The error type of the 429 Airtable answers once the plan's monthly API calls for the base are spent.
    public static let monthlyQuotaType = "PUBLIC_API_BILLING_LIMIT_EXCEEDED"
    public static let rateLimitReached = APIError(
        status: 429, type: "RATE_LIMIT_REACHED", message: "Rate limit exceeded. Please try again later")
    public static let requestTooLarge = APIError(
        status: 413, type: "REQUEST_TOO_LARGE", message: "The request exceeded the maximum allowed payload size")

    /// A batch DELETE naming a record that does not exist.
    public static func recordNotFound(_ id: String) -> APIError {
        APIError(status: 404, type: "NOT_FOUND", message: "Could not find a record with ID \"\(id)\".")
    }

    /// A batch PATCH/PUT (upsert included) naming a record that does not exist.
    public static func rowDoesNotExist(_ id: String) -> APIError {
        APIError(status: 422, type: "ROW_DOES_NOT_EXIST", message: "Record ID \(id) does not exist in this table")
    }

    public static func unknownFieldName(_ name: String) -> APIError {
        APIError(status: 422, type: "UNKNOWN_FIELD_NAME", message: "Unknown field name: \"\(name)\"")
    }

    /// A value of the wrong type, or a write to a computed field; `detail` says which.
    public static func invalidValue(field: String, detail: String) -> APIError {
        APIError(status: 422, type: "INVALID_VALUE_FOR_COLUMN", message: "Field \"\(field)\" \(detail)")
    }

    /// A select option that does not exist, written without typecast (Airtable doubles the quotes).
    public static func invalidChoice(_ option: String) -> APIError {
        APIError(status: 422, type: "INVALID_MULTIPLE_CHOICE_OPTIONS",
                 message: "Insufficient permissions to create new select option \"\"\(option)\"\"")
    }

    public static func invalidFormula(_ detail: String) -> APIError {
        APIError(status: 422, type: "INVALID_FILTER_BY_FORMULA",
                 message: "The formula for filtering records is invalid: \(detail)")
    }

    public static func invalidOffset(_ value: String) -> APIError {
        APIError(status: 422, type: "INVALID_OFFSET_VALUE", message: "The value of offset \(value) is invalid")
    }

    public static func viewNotFound(_ view: String) -> APIError {
        let type = view.hasPrefix("viw") ? "VIEW_ID_NOT_FOUND" : "VIEW_NAME_NOT_FOUND"
        return APIError(status: 422, type: type, message: "View \(view) not found")
    }

    /// A request the API understands but refuses for the reason given.
    public static func invalidRequest(_ detail: String) -> APIError {
        APIError(status: 422, type: "INVALID_REQUEST_UNKNOWN", message: "Invalid request: \(detail)")
    }

    /// A body that is not JSON.
    public static func invalidJSON(_ detail: String) -> APIError {
        APIError(status: 400, type: "INVALID_REQUEST_BODY", message: "Could not parse request body: \(detail)")
    }
}

/// Everything that can go wrong talking to a record store, local or remote.
public enum AirtableError: Error, Sendable, Hashable {
    /// The API answered with an error (or, for a local base, would have).
    case api(APIError)
    /// The server could not be reached or the connection broke; the text says how.
    case transport(String)
    /// A store on this machine (a LocalBase file) failed: locked, full, unreadable. The text names the file
    /// and says how. Never a sign that a remote base is unreachable.
    case localStore(String)
    /// A store file on this machine failed in a way named by its `problem` (damaged, read-only, full…).
    /// Never a sign that a remote base is unreachable.
    case localFile(LocalFileFailure)
    /// Too many requests; retry after this many seconds, if the server said.
    case rateLimited(retryAfter: Double?)
    /// A response was not what the API promises.
    case decoding(String)
    /// The operation ran past its deadline of this many seconds.
    case timedOut(seconds: Double)

    /// The API error, if this is one.
    public var apiError: APIError? {
        if case .api(let error) = self { return error }
        return nil
    }

    /// Whether this means the remote base could not be reached (as opposed to refusing the request, or a
    /// local file failing): a lost connection, a deadline passed, or a gateway failing in front of it.
    /// The one place that decides; the client's retries and the shop's outbox both ask it.
    public var isUnreachable: Bool {
        switch self {
        case .transport, .timedOut: return true
        case .api(let error): return error.isGatewayFailure
        case .rateLimited, .decoding, .localStore, .localFile: return false
        }
    }

    /// Whether the base refused for its rate limit or the plan's monthly call quota (both a 429): it
    /// answers nothing else for a while, so work for it waits (the shop's outbox) rather than failing.
    public var isRateLimited: Bool {
        switch self {
        case .rateLimited: return true
        case .api(let error): return error.status == 429
        case .transport, .timedOut, .decoding, .localStore, .localFile: return false
        }
    }

    /// Whether the base refused because the plan's monthly call quota is spent (429
    /// `PUBLIC_API_BILLING_LIMIT_EXCEEDED`): nothing is taken until the quota resets or the plan is upgraded.
    public var isOverQuota: Bool {
        apiError.map { $0.status == 429 && $0.type == APIError.monthlyQuotaType } ?? false
    }

    /// Whether this means "not found or not allowed" (403 model-not-found and 404 alike).
    public var isNotFound: Bool {
        guard let error = apiError else { return false }
        return error.status == 404 || error.type == "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND"
    }

    /// Whether a write found no such record: not found, or a batch write's 422 `ROW_DOES_NOT_EXIST`.
    public var isMissingRecord: Bool {
        isNotFound || apiError?.type == "ROW_DOES_NOT_EXIST"
    }
}

extension AirtableError: CustomStringConvertible {
    /// One clear line for a person at the counter.
    public var description: String {
        switch self {
        case .api(let error):
            switch error.status {
            case 401: return "Airtable refused the token (401)"
            case 403 where error.type == "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND", 404:
                return "not found or not allowed (\(error.status) \(error.type))"
                    + (error.message.map { error.status == 404 ? ": \($0)" : "" } ?? "")
            case 403: return "not allowed (403 \(error.type))" + (error.message.map { ": \($0)" } ?? "")
            default:
                return "Airtable error \(error.status) \(error.type)" + (error.message.map { ": \($0)" } ?? "")
            }
        case .transport(let detail): return "cannot reach the store: \(detail)"
        case .localStore(let detail): return detail
        case .localFile(let failure): return failure.description
        case .rateLimited(let after):
            return "rate limited by the store" + (after.map { ", retry after \(Int($0.rounded(.up))) s" } ?? "")
        case .decoding(let detail): return "unexpected response from the store: \(detail)"
        case .timedOut(let seconds): return "the store did not answer within \(Int(seconds)) s"
        }
    }
}
