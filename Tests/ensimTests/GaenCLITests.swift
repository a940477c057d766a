import Foundation
import Testing

@Suite("ensim gaen command line")
struct GaenCLITests {
    @Test func deriveMatchesOfficialVectors() throws {
        let result = try EnsimProcess.run(["gaen", "derive", "--tek", "75c734c6dd1a782de7a965da5eb93125",
                                           "--enin", "2642976", "--tx-power", "8"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 144)
        #expect(lines.first == "2642976 8be6cd371c5c891604bfbe49df845096 72033874")
        #expect(lines.dropFirst().first == "2642977 3c9a1de5dd6b02afa7fded7b570b3e56 c29211b1")
        #expect(lines.last == "2643119 f431b62ecf443102ce4ed0407de54bd4 1215e57e")
    }

    @Test func deriveJSON() throws {
        let result = try EnsimProcess.run(["gaen", "derive", "--tek", "75c734c6dd1a782de7a965da5eb93125",
                                           "--enin", "2642978", "--count", "1", "--json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["rpik"] as? String == "185ad91db69ec7dd048960f1f3ba6175")
        #expect(json["aemk"] as? String == "d57c46af7a1d83965b9bed8bd152936a")
        let rows = try #require(json["intervals"] as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["rpi"] as? String == "243ffe9a3b08bded3094bac8630bb8ad")
        #expect(rows.first?["aem"] as? String == "6adfad03")
        #expect(rows.first?["enin"] as? Int == 2_642_978)
    }

    @Test func deriveRejectsBadHex() throws {
        for tek in ["75c7", "zz c734c6dd1a782de7a965da5eb93125", "75c734c6dd1a782de7a965da5eb9312500"] {
            let result = try EnsimProcess.run(["gaen", "derive", "--tek", tek, "--enin", "1"])
            #expect(result.status != 0)
            #expect(result.stderr.hasPrefix("error: --tek"))
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func keygenExportInspectRoundTrip() throws {
        let dir = EnsimProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }

        let keygen = try EnsimProcess.run(["gaen", "keygen", "--out", "sign.pem"], in: dir)
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let privatePEM = try String(contentsOf: dir.appendingPathComponent("sign.pem"), encoding: .utf8)
        let publicPEM = try String(contentsOf: dir.appendingPathComponent("sign.pub.pem"), encoding: .utf8)
        #expect(privatePEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))

        let csv = """
        key_data,rolling_start_interval_number,rolling_period,transmission_risk_level,report_type,days_since_onset
        ff000000000000000000000000000001,2642976,144,3,confirmed_test,-2
        75c734c6dd1a782de7a965da5eb93125,2643120,100,,self_report,

        """
        try csv.write(to: dir.appendingPathComponent("keys.csv"), atomically: true, encoding: .utf8)
        let export = try EnsimProcess.run(["gaen", "export", "--keys", "keys.csv", "--signing-key", "sign.pem",
                                           "--out", "export.zip", "--region", "222"], in: dir)
        #expect(export.status == 0, "\(export.stderr)")

        let inspect = try EnsimProcess.run(["gaen", "inspect", "export.zip", "--public-key", "sign.pub.pem", "--json"], in: dir)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect(json["region"] as? String == "222")
        #expect(json["signature_verified"] as? Bool == true)
        let keys = try #require(json["keys"] as? [[String: Any]])
        #expect(keys.map { $0["key_data"] as? String } == ["75c734c6dd1a782de7a965da5eb93125", "ff000000000000000000000000000001"])
        #expect(keys[0]["rolling_period"] as? Int == 100 && keys[0]["transmission_risk_level"] == nil)
        #expect(keys[1]["days_since_onset"] as? Int == -2 && keys[1]["report_type"] as? String == "confirmed_test")

        let table = try EnsimProcess.run(["gaen", "inspect", "export.zip", "--public-key", "sign.pub.pem"], in: dir)
        #expect(table.stdout.contains("signature: verified"))
        #expect(table.stdout.contains("keys: 2"))

        // Another key: the table is printed, the verdict is an error and a non-zero exit.
        _ = try EnsimProcess.run(["gaen", "keygen", "--out", "other.pem"], in: dir)
        let wrongKey = try EnsimProcess.run(["gaen", "inspect", "export.zip", "--public-key", "other.pub.pem"], in: dir)
        #expect(wrongKey.status != 0)
        #expect(wrongKey.stderr.hasPrefix("error: export.zip: signature does not verify"))
    }

    @Test func corruptFilesAreClearErrors() throws {
        let dir = EnsimProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("PK\u{3}\u{4} definitely not a zip".utf8).write(to: dir.appendingPathComponent("corrupt.zip"))
        let corrupt = try EnsimProcess.run(["gaen", "inspect", "corrupt.zip"], in: dir)
        #expect(corrupt.status != 0)
        #expect(corrupt.stderr == "error: corrupt.zip: not a zip archive (corrupt or truncated)\n")

        let missing = try EnsimProcess.run(["gaen", "inspect", "missing.zip"], in: dir)
        #expect(missing.status != 0)
        #expect(missing.stderr == "error: missing.zip: no such file\n")

        _ = try EnsimProcess.run(["gaen", "keygen", "--out", "k.pem"], in: dir)
        try "key_data,rolling_start_interval_number\n75c734c6dd1a782de7a965da5eb93125,2642976\n00ff,2642976\n"
            .write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let badCSV = try EnsimProcess.run(["gaen", "export", "--keys", "bad.csv", "--signing-key", "k.pem", "--out", "x.zip"], in: dir)
        #expect(badCSV.status != 0)
        #expect(badCSV.stderr.hasPrefix("error: bad.csv:3: key_data"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.zip").path))
    }

    /// Hostile but fair command lines: one error line each, nothing overwritten, negative values taken.
    @Test func commandLinesAreCheckedInOneLine() throws {
        let dir = EnsimProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try EnsimProcess.run(["gaen", "keygen", "--out", "k.pem"], in: dir)
        try "key_data,rolling_start_interval_number\n75c734c6dd1a782de7a965da5eb93125,2642976\n"
            .write(to: dir.appendingPathComponent("keys.csv"), atomically: true, encoding: .utf8)
        try Data("keep".utf8).write(to: dir.appendingPathComponent("x.zip"))
        let noForce = try EnsimProcess.run(["gaen", "export", "--keys", "keys.csv", "--signing-key", "k.pem", "--out", "x.zip"], in: dir)
        #expect(noForce.status == 1 && noForce.stderr == "error: x.zip: already exists (use --force to overwrite)\n")
        #expect(try Data(contentsOf: dir.appendingPathComponent("x.zip")) == Data("keep".utf8))
        let forced = try EnsimProcess.run(["gaen", "export", "--keys", "keys.csv", "--signing-key", "k.pem", "--out", "x.zip", "--force"], in: dir)
        #expect(forced.status == 0, "\(forced.stderr)")

        let negative = try EnsimProcess.run(["gaen", "derive", "--tek", "75c734c6dd1a782de7a965da5eb93125", "--enin", "2642976",
                                             "--count", "1", "--tx-power", "-30"], in: dir)
        #expect(negative.status == 0, "a negative --tx-power is a value, not a flag: \(negative.stderr)")

        let usage = try EnsimProcess.run(["gaen", "export", "--keys", "keys.csv", "--signing-key", "k.pem", "--out", "y.zip", "--bogus"], in: dir)
        #expect(usage.status == 64)
        #expect(usage.stderr.split(separator: "\n").count == 1 && usage.stderr.hasPrefix("error: unknown option '--bogus'"), "\(usage.stderr)")
        #expect(usage.stderr.contains("(see `ensim gaen export --help`)"))
        let days = try EnsimProcess.run(["run", "Scenarios/default.yaml", "--days", "-3"])
        #expect(days.status == 64 && days.stderr == "error: --days must be from 1 to 3650, got -3 (see `ensim run --help`)\n", "\(days.stderr)")

        for (path, what) in [("/dev/null", "is not a regular file"), (dir.path, "is a directory")] {
            let r = try EnsimProcess.run(["gaen", "inspect", path], in: dir)
            #expect(r.status == 1 && r.stderr == "error: \(path): \(what); expected a file\n", "\(r.stderr)")
        }
    }
}
