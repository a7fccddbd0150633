import Foundation
@testable import Printing

enum Samples {
    static let taipei = TimeZone(identifier: "Asia/Taipei") ?? TimeZone(secondsFromGMT: 8 * 3_600) ?? .current
    /// 2026-12-01 14:05 in Taipei.
    static let time = Date(timeIntervalSince1970: 1_796_105_100)

    static func label(name: String? = "王小明", drink: String = "熟成紅茶", cup: Int = 1, of count: Int = 2) -> CupLabel {
        CupLabel(
            pickupNumber: "A023", cupIndex: cup, cupCount: count, drink: drink, size: "大杯", sugar: "半糖", ice: "少冰",
            addOns: ["白玉", "水玉"], note: "分開裝", time: time, customerName: name)
    }

    static let receipt = Receipt(
        shopName: "可不可熟成紅茶", pickupNumber: "A023", time: time,
        lines: [
            .init(name: "熟成紅茶", detail: "大杯 半糖 少冰 +白玉", quantity: 2, amount: 90),
            .init(name: "春芽綠茶", detail: "中杯 無糖 去冰", quantity: 1, amount: 30),
        ],
        adjustments: [.init(label: "第二杯半價", amount: -20)], total: 100,
        payments: [.init(method: "現金", amount: 500)], change: 400,
        invoiceLines: ["發票號碼 AB-12345678", "載具 /ABC+123"], footer: ["謝謝光臨"])
}

/// Splits TSPL bytes into command lines (CRLF-terminated).
func tsplLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
            lines.append(current)
            current = []
            index += 2
            continue
        }
        current.append(bytes[index])
        index += 1
    }
    if !current.isEmpty { lines.append(current) }
    return lines
}

/// The quoted content of a TSPL `TEXT x,y,"font",rot,xm,ym,"content"` line, decoded from Big5.
func textContent(_ line: [UInt8]) -> (font: String, content: String)? {
    guard let text = Big5.decode(line), text.hasPrefix("TEXT ") else { return nil }
    let parts = text.dropFirst(5).split(separator: ",", maxSplits: 6)
    guard parts.count == 7, parts[6].hasPrefix("\""), parts[6].hasSuffix("\"") else { return nil }
    let font = parts[2].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    return (font, String(parts[6].dropFirst().dropLast()))
}
