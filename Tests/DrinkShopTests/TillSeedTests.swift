import Airtable
import DrinkShopCore
import Testing
@testable import DrinkShop

@Suite("Till seed sections")
struct TillSeedTests {
    func parse(_ text: String) throws -> TillSeed {
        guard case .object(let object) = try JSONParser.parse(Array(text.utf8)) else {
            Issue.record("not an object")
            return TillSeed()
        }
        return try TillSeed.parse(object, path: "menu.json")
    }

    func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("adjustments, the stamp card and passes are read and validated")
    func reads() throws {
        let seed = try parse("""
        {"records": [],
         "adjustments": [
           {"name": "環保杯", "code": "cup", "kind": "perCup", "amount": -5},
           {"fields": {"name": "塑膠袋", "code": "bag", "kind": "perItem", "amount": 2}},
           {"name": "員工價", "code": "staff", "kind": "percentOff", "percent": 20, "needsManager": true}
         ],
         "stampCard": {"stampsPerReward": 10, "rewardSize": "中杯"},
         "passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10},
                    {"name": "茶友卡", "days": 7, "price": 0, "perCupOff": 5}]}
        """)
        #expect(seed.adjustments == [
            try Adjustment(name: "環保杯", code: "cup", kind: .perCup(-5)),
            try Adjustment(name: "塑膠袋", code: "bag", kind: .perItem(2)),
            try Adjustment(name: "員工價", code: "staff", kind: .percentOff(20), needsManager: true),
        ])
        #expect(seed.stampPolicy == (try StampPolicy(stampsPerReward: 10, rewardSize: .medium)))
        #expect(seed.passes.map(\.name) == ["月卡", "茶友卡"])
        #expect(seed.passes[1].benefit == .perCupOff(5))
        #expect(try parse("{\"stampCard\": {\"stampsPerReward\": 8, \"rewardSize\": \"Large\"}}").stampPolicy?.rewardSize == .large)
        #expect(try parse("{}") == TillSeed())
    }

    @Test("a wrong adjustment names the file, the record and the field",
          arguments: [
              (#"{"adjustments": {}}"#, "menu.json: adjustments: must be an array of adjustments"),
              (#"{"adjustments": [3]}"#, "menu.json: adjustments[0]: must be an object, not a number"),
              (#"{"adjustments": [{"code": "cup", "kind": "perCup", "amount": -5}]}"#, "menu.json: adjustments[0].name: missing"),
              (#"{"adjustments": [{"name": "環保杯", "code": "Cup", "kind": "perCup", "amount": -5}]}"#,
               "menu.json: adjustments[0].code: the code typed at the counter must be lowercase letters and digits, like cup or bag2, not \"Cup\""),
              (#"{"adjustments": [{"name": "環保杯", "code": "cup", "kind": "perBag", "amount": -5}]}"#,
               "menu.json: adjustments[0].kind: unknown adjustment kind \"perBag\"; expected perCup, perItem or percentOff"),
              (#"{"adjustments": [{"name": "環保杯", "code": "cup", "kind": "perCup"}]}"#,
               "menu.json: adjustments[0].amount: a perCup or perItem adjustment needs a signed amount of NT$ (−5 off, +2 added)"),
              (#"{"adjustments": [{"name": "環保杯", "code": "cup", "kind": "perCup", "amount": -5.5}]}"#,
               "menu.json: adjustments[0].amount: must be a whole number, not -5.5"),
              (#"{"adjustments": [{"fields": {"name": "x", "code": "x", "kind": "percentOff", "percent": 0}}]}"#,
               "menu.json: adjustments[0].fields.percent: the percentage must be from 1 to 100, not 0"),
              (#"{"adjustments": [{"name": "環保杯", "code": "cup", "kind": "perCup", "amount": -5, "colour": "red"}]}"#,
               "menu.json: adjustments[0].colour: unknown field; an adjustment has amount, code, kind, name, needsManager, percent"),
              (#"{"adjustments": [{"name": "a", "code": "cup", "kind": "perCup", "amount": -5}, {"name": "b", "code": "cup", "kind": "perItem", "amount": 1}]}"#,
               "menu.json: adjustments[1].code: duplicate adjustment code \"cup\""),
          ])
    func adjustmentErrors(text: String, message: String) {
        #expect(error(text) == message)
    }

    @Test("a wrong stamp card or pass names its field",
          arguments: [
              (#"{"stampCard": {"stampsPerReward": 1, "rewardSize": "中杯"}}"#,
               "menu.json: stampCard.stampsPerReward: a free drink must need at least 2 stamps, not 1 (兌換一杯至少要 2 點)"),
              (#"{"stampCard": {"stampsPerReward": 10, "rewardSize": "特大杯"}}"#,
               "menu.json: stampCard.rewardSize: unknown size \"特大杯\"; expected 中杯 or 大杯"),
              (#"{"passes": [{"name": "月卡", "days": 0, "price": 299, "percentOff": 10}]}"#,
               "menu.json: passes[0].days: a pass lasts 1 to 366 days, not 0"),
              (#"{"passes": [{"name": "月卡", "days": 30, "price": 299}]}"#,
               "menu.json: passes[0].percentOff: missing: give percentOff or perCupOff"),
              (#"{"passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10, "perCupOff": 5}]}"#,
               "menu.json: passes[0].perCupOff: give percentOff or perCupOff, not both"),
              (#"{"passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 150}]}"#,
               "menu.json: passes[0].percentOff: a pass's percentage must be from 1 to 100, not 150 (會員卡設定有誤)"),
          ])
    func otherErrors(text: String, message: String) {
        #expect(error(text) == message)
    }

    @Test("stored adjustment cells round-trip")
    func roundTrip() throws {
        for adjustment in [try Adjustment(name: "環保杯", code: "cup", kind: .perCup(-5)),
                           try Adjustment(name: "員工價", code: "staff", kind: .percentOff(20), needsManager: true)] {
            let cells = AdjustmentRecord.fields(of: adjustment).filter { !$0.value.isNull }
            #expect(try AdjustmentRecord.adjustment(from: cells) == adjustment)
        }
    }
}
