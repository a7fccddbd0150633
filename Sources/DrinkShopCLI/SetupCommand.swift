import Airtable
import AirtableFormula
import AirtableHTTP
import DrinkShop

/// `drinkshop setup`: prepares a remote base for the shop. It reads the base's schema, creates the
/// missing tables and fields through the metadata API when the token may, and otherwise prints exactly
/// what to create by hand. It never touches records.
enum SetupCommand {
    /// Runs setup; lines for the person go to `say`, problems to `complain`. Returns the exit status.
    static func run(words: [String], environment: [String: String], say: (String) -> Void,
                    complain: (String) -> Void) async -> Int32 {
        if let word = words.first {
            complain("drinkshop: setup takes no arguments, not \(word)")
            return 2
        }
        let remote: RemoteStore
        do {
            guard let found = try RemoteStore.fromEnvironment(environment) else {
                complain("drinkshop: setup prepares an Airtable base: set AIRTABLE_TOKEN and AIRTABLE_BASE_ID "
                    + "(and AIRTABLE_ENDPOINT_URL for a server other than Airtable's). The embedded store needs no "
                    + "setup: it creates its tables itself.")
                complain(SeveralCounters.text)
                return 2
            }
            remote = found
        } catch {
            complain("drinkshop: \(error)")
            return 2
        }

        let reading: SchemaReading
        do {
            reading = try await remote.client.readSchema()
        } catch {
            complain("drinkshop: cannot read the schema of \(remote.description): \(error)"
                + (error.isNotFound || error.apiError?.status == 403
                    ? ". Check AIRTABLE_BASE_ID, and that the token has the schema.bases:read scope and access to the base."
                    : ""))
            return 1
        }
        let plan = SchemaPlan(wanted: ShopSchema.tables, reading: reading)
        for conflict in plan.conflicts { complain("warning: \(conflict); fix it in Airtable by hand") }
        if plan.isComplete {
            say("\(remote.description) has every table and field the shop needs.")
            say(SeveralCounters.text)
            return plan.conflicts.isEmpty ? 0 : 1
        }

        say("\(remote.description) lacks: " + plan.missingItems.joined(separator: ", "))
        let result = await plan.apply(to: remote.client)
        for item in result.created { say("  created \(item)") }
        guard let failure = result.failure else {
            say("Done: the base is ready for the shop. Load a menu with: drinkshop seed Seeds/menu.json")
            say(SeveralCounters.text)
            return plan.conflicts.isEmpty ? 0 : 1
        }
        if result.wasRefused {
            complain("The token may not change this base's schema (\(failure)); it needs the schema.bases:write "
                + "scope. Create these by hand in Airtable, then run drinkshop setup again to check:")
        } else {
            complain("drinkshop: setup stopped: \(failure). Still missing (run drinkshop setup again, or create them by hand):")
        }
        var steps = SchemaInstructions.text(for: result.remaining)
        if steps.hasSuffix("\n") { steps.removeLast() }
        say(steps)
        return 1
    }
}
