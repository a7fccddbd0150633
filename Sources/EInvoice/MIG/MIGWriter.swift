/// A MIG 4.1 document as UTF-8 XML, written element by element in the order the MIG tables list them.
struct MIGWriter {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    private var depth = 0

    init(root: String, message: MIGMessage) {
        text += "<\(root) xmlns=\"\(message.namespace)\">\n"
        depth = 1
    }

    mutating func open(_ name: String) {
        text += indent + "<\(name)>\n"
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        text += indent + "</\(name)>\n"
    }

    mutating func element(_ name: String, _ value: String) {
        text += indent + "<\(name)>" + Self.escaped(value) + "</\(name)>\n"
    }

    mutating func element(_ name: String, _ value: Int) { element(name, String(value)) }

    /// Closes the root element; the document's text.
    mutating func finish(root: String) -> String {
        depth = 0
        text += "</\(root)>\n"
        return text
    }

    private var indent: String { String(repeating: "  ", count: depth) }

    /// Text as XML 1.0 character data, judged scalar by scalar: `&`, `<`, `>`, `"` and `'` escaped; a scalar
    /// XML 1.0 cannot carry at all (a C0 control other than tab, line feed and carriage return; U+FFFE, U+FFFF)
    /// becomes `?`, the way the printer shows what it cannot print.
    static func escaped(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "?"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}

/// The MIG 4.1 messages the till writes.
public enum MIGMessage: String, Sendable, CaseIterable {
    /// An invoice issued (B2C and B2B), root `Invoice`.
    case f0401 = "F0401"
    /// An invoice voided in its period, root `CancelInvoice`.
    case f0501 = "F0501"
    /// An allowance (折讓) issued by the seller, root `Allowance`.
    case g0401 = "G0401"
    /// A period's blank numbers of one track, root `BranchTrackBlank`.
    case e0402 = "E0402"

    public var namespace: String { "urn:GEINV:eInvoiceMessage:\(rawValue):4.1" }

    /// The document's root element.
    public var root: String {
        switch self {
        case .f0401: "Invoice"
        case .f0501: "CancelInvoice"
        case .g0401: "Allowance"
        case .e0402: "BranchTrackBlank"
        }
    }

    /// Where Turnkey picks the message up, below its work folder: `UpCast/B2SSTORAGE/F0401/SRC` for the F and G
    /// messages (MIG 4.x's storage category); E0402 goes to the number-assignment category's
    /// `UpCast/B2PMESSAGE/E0402/SRC`, a name inferred from Turnkey's routing (to be checked against the
    /// shop's Turnkey before go-live).
    public var sourceFolder: String {
        switch self {
        case .f0401, .f0501, .g0401: "UpCast/B2SSTORAGE/\(rawValue)/SRC"
        case .e0402: "UpCast/B2PMESSAGE/\(rawValue)/SRC"
        }
    }
}

/// One MIG document, ready to be written into Turnkey's folder.
public struct MIGDocument: Sendable, Hashable {
    public let message: MIGMessage
    /// The file's name in the source folder, unique per document: `F0401_AB12345678.xml`.
    public let fileName: String
    /// The whole document, UTF-8 XML with its declaration.
    public let xml: String

    /// The file's path below Turnkey's work folder.
    public var relativePath: String { message.sourceFolder + "/" + fileName }
}
