import Foundation
import Testing

/// The till through the real binary, as staff use it from a shell and at the prompt.
@Suite(.clearOfShopMidnight) struct TillEndToEndTests {
    @Test func aDayAtTheTillFromOrdersToTheExport() async throws {
        let shop = try Drinkshop()
        let script = """
            shift open 2000
            order 熟成紅茶 M 無糖 去冰
            order 白玉歐蕾 L 半糖 少冰 x2 for Amy
            pay #1 cash 500
            pay #2 jkopay 999
            pay #2 card 50
            orders
            pay #2 悠遊卡
            cancel #1 customer left
            soldout 熟成紅茶
            order 熟成紅茶 M 無糖 去冰
            restock 熟成紅茶
            price 熟成紅茶 M -3
            close 2010
            export --csv \(shop.directory)/day.csv
            """
        let result = try await shop.run([], input: script)
        #expect(result.stdout.contains("change $465 找零"))
        #expect(result.stderr.contains("payment refused, nothing recorded"))
        #expect(result.stderr.contains("only cash gives change"))
        #expect(result.stdout.contains("Paid $50 of $105; $55 still due"))
        #expect(result.stdout.contains("部分付款 paid 50, 55 due"))
        #expect(result.stdout.contains("Paid in full ($105)"))
        #expect(result.stdout.contains("Refund $35 by 現金 Cash"))
        #expect(result.stdout.contains("熟成紅茶 is sold out"))
        #expect(result.stderr.contains("sold out"))
        #expect(result.stderr.contains("a price must be at least NT$1"))
        // 2000 float + 35 cash − 35 refunded = 2000 expected; 2010 counted.
        #expect(result.stdout.contains("expected $2000 · counted $2010 · over 10 (溢收 10)"))
        // The close shows its arithmetic, line by line.
        for line in ["float 零用金", "+ cash handed over 收款", "− change 找零", "− cash refunded 退款", "= expected 應有", "counted 實點"] {
            #expect(result.stdout.contains(line), "\(line)")
        }
        // One name for each figure: the slip's cash handed over is the report's Handed over for cash (500), and
        // the report's Taken (35, after the change) is never called handed over or cash taken.
        #expect(result.stdout.contains("+ cash handed over 收款   $500"))
        #expect(!result.stdout.contains("cash taken"))
        let cashRow = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("現金 Cash") })
        #expect(cashRow.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).prefix(4) == ["1", "500", "465", "35"], "\(cashRow)")
        #expect(result.stdout.contains("Handed over 收款") && result.stdout.contains("Taken 實收"))
        #expect(result.stdout.contains("Till report (日結)"))
        #expect(result.stdout.contains("customer left"))
        let payments = try Data(contentsOf: URL(fileURLWithPath: shop.directory + "/day-payments.csv"))
        #expect(Array(payments.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let text = String(decoding: payments.dropFirst(3), as: UTF8.self)
        #expect(text.contains("refund,cash,-35"))
        #expect(text.contains("payment,easyCard,55"))
        let orders = String(decoding: try Data(contentsOf: URL(fileURLWithPath: shop.directory + "/day-orders.csv")), as: UTF8.self)
        #expect(orders.contains("白玉歐蕾") || orders.contains("Amy"))

        // The report again by date from a one-shot command, and as JSON.
        let json = try await shop.run(["report", "today", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains("\"voids\":[{\"pickupNumber\":1"))
        #expect(json.stdout.hasPrefix("{\"sales\":{") && json.stdout.contains(",\"till\":{"))
        // One report: a positional date, --date and no date at all (today) print the same.
        let positional = try await shop.run(["report", "today"])
        let dated = try await shop.run(["report", "--date", "today"])
        let plain = try await shop.run(["report"])
        #expect(positional.status == 0 && positional.stdout == dated.stdout && dated.stdout == plain.stdout)
        #expect(plain.stdout.contains("Daily report") && plain.stdout.contains("Till report (日結)"))
        // A paid order cannot be deleted; it is voided instead.
        let deleted = try await shop.run(["delete", "#2", "--yes"])
        #expect(deleted.status == 1 && deleted.stderr.contains("void it instead"))
        // Nor edited: its total would no longer match what was paid.
        let edited = try await shop.run(["edit", "#2", "x3"])
        #expect(edited.status == 1 && edited.stderr.contains("has $105 paid; it cannot change now"))
    }

    @Test func pinsGateManagerActionsAndNeverShow() async throws {
        let shop = try Drinkshop()
        #expect(try await shop.run(["order", "熟成紅茶", "M", "無糖", "去冰"]).status == 0)
        // No PINs yet: everything works as before.
        #expect(try await shop.run(["soldout", "熟成紅茶"]).status == 0)
        #expect(try await shop.run(["staff", "add", "Amy", "manager"]).status == 0)
        let noPIN = try await shop.run(["staff", "pin", "Amy"])
        #expect(noPIN.status == 1 && noPIN.stderr.contains("DRINKSHOP_NEW_PIN"))
        let setPIN = try await shop.run(["staff", "pin", "Amy"], environment: ["DRINKSHOP_NEW_PIN": "13579"])
        #expect(setPIN.status == 0, "\(setPIN.stderr)")
        // Now a manager action needs Amy's PIN.
        let refused = try await shop.run(["restock", "熟成紅茶"])
        #expect(refused.status == 1 && refused.stderr.contains("DRINKSHOP_PIN"))
        let wrong = try await shop.run(["restock", "熟成紅茶"], environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "11111"])
        #expect(wrong.status == 1 && wrong.stderr.lowercased().contains("wrong pin"))
        let staffOnly = try await shop.run(["restock", "熟成紅茶"], environment: ["DRINKSHOP_STAFF": "Ken", "DRINKSHOP_PIN": "13579"])
        #expect(staffOnly.status == 1)
        let right = try await shop.run(["restock", "熟成紅茶"], environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "13579"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout.contains("back on sale"))
        // A one-shot `staff pin` never takes the manager's own login PIN as the new one: without
        // DRINKSHOP_NEW_PIN it is refused and Ken keeps no PIN.
        let amy = ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "13579"]
        #expect(try await shop.run(["staff", "add", "Ken", "staff"], environment: amy).status == 0)
        let kensPIN = try await shop.run(["staff", "pin", "Ken"], environment: amy)
        #expect(kensPIN.status == 1 && kensPIN.stderr.contains("DRINKSHOP_NEW_PIN"), "\(kensPIN.stderr)")
        let asKen = try await shop.run(["orders"], environment: ["DRINKSHOP_STAFF": "Ken"])
        #expect(asKen.status == 0, "\(asKen.stderr)")
        // The PIN proven, the next commands for a few minutes check a quick hash kept (0600) in the state folder.
        let grants = shop.directory + "/state/drinkshop/grants"
        let kept = try FileManager.default.contentsOfDirectory(atPath: grants)
        #expect(kept.count == 1)
        #expect(try FileManager.default.attributesOfItem(atPath: grants + "/" + kept[0])[.posixPermissions] as? Int == 0o600)
        let wrongAfterGrant = try await shop.run(["soldout", "熟成紅茶"], environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "24680"])
        #expect(wrongAfterGrant.status == 1 && wrongAfterGrant.stderr.lowercased().contains("wrong pin"))
        // Cash goes into an open shift only: refused with the one line that says what to do.
        let noShift = try await shop.run(["pay", "#1", "cash", "35"], environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "13579"])
        #expect(noShift.status == 1 && noShift.stderr.contains("shift open FLOAT"))
        let shift = try await shop.run(["shift", "open", "0"], environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "13579"])
        #expect(shift.status == 0, "\(shift.stderr)")
        // Staff actions (a payment) still need someone logged in once PINs are on.
        let pay = try await shop.run(["pay", "#1", "cash", "35"], environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "13579"])
        #expect(pay.status == 0, "\(pay.stderr)")
        // Orders too need someone logged in once PINs are on.
        let order = try await shop.run(["order", "熟成紅茶", "M", "無糖", "去冰"])
        #expect(order.status == 1 && order.stderr.contains("DRINKSHOP_PIN"))
        // logout ends the grant.
        let logout = try await shop.run(["logout"], environment: ["DRINKSHOP_STAFF": "Amy"])
        #expect(logout.status == 0 && logout.stdout.contains("Amy's PIN is asked for again"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: grants).isEmpty)
        // At the prompt without a terminal, login cannot ask for the PIN and says so.
        let piped = try await shop.run([], input: "login Amy\nsoldout 熟成紅茶\n")
        #expect(piped.stderr.contains("Amy has a PIN"))
        // A piped session proves who it is as a one-shot command does: DRINKSHOP_STAFF and DRINKSHOP_PIN.
        let script = try await shop.run([], input: "soldout 熟成紅茶\nrestock 熟成紅茶\n",
                                        environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "13579"])
        #expect(script.status == 0 && script.stdout.contains("back on sale"), "\(script.stdout)\(script.stderr)")
        for output in [setPIN, refused, wrong, staffOnly, right, pay, piped, script] {
            #expect(!output.stdout.contains("13579") && !output.stderr.contains("13579"))
            #expect(!output.stdout.contains("11111") && !output.stderr.contains("11111"))
        }
    }

    @Test("a void is one void everywhere (voided in the CSV, void 1 in the audit summary), its reason as typed")
    func aVoidIsOneVoidWithItsReasonAsTyped() async throws {
        let shop = try Drinkshop()
        let script = """
            order 熟成紅茶 M 無糖 去冰
            pay #1 card
            advance #1
            void #1 售完，客人改點
            log
            report today
            export --csv \(shop.directory)/day.csv
            """
        let result = try await shop.run([], input: script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(" , "))
        let log = result.stdout.components(separatedBy: "\n").filter { $0.contains("售完，客人改點") }
        #expect(log.count >= 2, "the log and the report's audit section, as typed")
        #expect(result.stdout.contains("void 1"))
        #expect(!result.stdout.contains("void 2"))
        let orders = String(decoding: try Data(contentsOf: URL(fileURLWithPath: shop.directory + "/day-orders.csv")), as: UTF8.self)
        let row = try #require(orders.split(whereSeparator: \.isNewline).first { $0.hasPrefix("1,") })
        #expect(row.contains(",voided,") && row.contains("售完，客人改點"), "\(row)")
        // The one-shot command keeps it as typed too.
        _ = try await shop.run(["order", "熟成紅茶", "M", "無糖", "去冰"])
        let cancelled = try await shop.run(["cancel", "#2", "客人說：不要了！"])
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        #expect(try await shop.run(["log"]).stdout.contains("客人說：不要了！"))
    }

    @Test func withNoStampCardAMemberIsShownSayingSo() async throws {
        let shop = try Drinkshop()
        let result = try await shop.run(["member", "0912345678"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("0912-***-678 · no stamp card is set up (未設定集點卡) · no pass (無月票)"))
        #expect(!result.stdout.contains("0912345678"))
    }

    @Test func aMemberEarnsStampsRedeemsAFreeCupAndBuysAPass() async throws {
        let shop = try Drinkshop()
        let seed = try shop.write("members.json", """
            {"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"},
             "passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10}]}
            """)
        let script = """
            seed \(seed)
            shift open 0
            order 熟成紅茶 M 無糖 去冰 x5 for 0912345678
            member 0912345678
            pay #1 card
            order 熟成紅茶 M 無糖 去冰 for 0912-345-678
            redeem #2
            pay #2 cash 10
            member 0912345678
            pass 0912345678 月卡
            pass 0912345678 月卡
            member 0987
            report today
            """
        let result = try await shop.run([], input: script)
        // Stamps come with the payment: none while #1 is unpaid, 5 once it is paid.
        #expect(result.stdout.contains("0912-***-678 · 集點 0/5 · no pass (無月票)\n"))
        #expect(result.stdout.contains("集點 5/5 (1 free)"))
        #expect(result.stdout.contains("集點兌換"))
        // The free cup made #2 cost nothing: it takes no money.
        #expect(result.stderr.contains("order #2 is already paid (0)"))
        // 5 stamps, spent on the free cup, which earns none: 0 left.
        #expect(result.stdout.contains("0912-***-678 · 集點 0/5"))
        #expect(result.stdout.contains("Sold 月卡 to 0912-***-678: collect $299"))
        #expect(result.stderr.contains("renew it instead of buying another"))
        #expect(result.stderr.contains("is not a mobile number"))
        #expect(result.stdout.contains("stamps redeemed"))
        // The full number is never printed (receipts and lists mask it).
        #expect(!result.stdout.contains("0912345678"))
    }
}

@Suite(.clearOfShopMidnight) struct PINBurstEndToEndTests {
    @Test("20 one-shot commands with wrong PINs started at once: five are compared, then the lock holds")
    func aBurstOfWrongPINsLocksAfterFive() async throws {
        let shop = try Drinkshop()
        #expect(try await shop.run(["staff", "add", "Amy", "manager"]).status == 0)
        #expect(try await shop.run(["staff", "pin", "Amy"], environment: ["DRINKSHOP_NEW_PIN": "13579"]).status == 0)
        let (directory, database) = (shop.directory, shop.database)
        let results = await withTaskGroup(of: (status: Int32, stderr: String)?.self) { group in
            for guess in 0..<20 {
                group.addTask {
                    let result = try? await Drinkshop.run(
                        ["price", "熟成紅茶", "M", "40"], directory: directory, storePath: database,
                        environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "30\(10 + guess)"])
                    return result.map { ($0.status, $0.stderr) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let answers = results.compactMap { $0 }
        #expect(answers.count == 20 && answers.allSatisfy { $0.status == 1 })
        // Each try was counted before its PIN was compared: 4, 3, 2 and 1 tries left once each, then
        // the fifth locked it and the other fifteen were refused without comparing.
        let left = answers.filter { $0.stderr.contains("tries left") || $0.stderr.contains("try left") }
        #expect(left.count == 4, "\(answers.map(\.stderr))")
        #expect(Set(left.map(\.stderr)).count == 4)
        #expect(answers.filter { $0.stderr.contains("locked") }.count == 16)
        // Locked: even the right PIN is refused now.
        let right = try await shop.run(["price", "熟成紅茶", "M", "40"], environment: ["DRINKSHOP_STAFF": "Amy", "DRINKSHOP_PIN": "13579"])
        #expect(right.status == 1 && right.stderr.contains("locked"))
    }
}
