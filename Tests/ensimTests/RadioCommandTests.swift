import Foundation
import Testing
import TestSupport

@Suite struct RadioCommandTests {
    @Test func calibrationTableGrowsWithDistance() throws {
        let r = try EnsimProcess.run(["radio", "calibrate", "--layer", "household", "--samples", "2000", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let rows = object["rows"] as! [[String: Double]]
        #expect(rows.map { $0["metres"]! } == [0.5, 1, 1.5, 2, 3, 4, 5, 7, 10])
        let medians = rows.map { $0["p50_db"]! }
        #expect(medians.first! < medians.last!)
        #expect(rows.allSatisfy { $0["p10_db"]! <= $0["p50_db"]! && $0["p50_db"]! <= $0["p90_db"]! })
    }

    /// The tram study runs from its scenario file: the file's seed and radio block are the
    /// simulated contacts' (the shipped file states the defaults, so it gives the default study).
    @Test func tramStudyRunsFromItsScenarioFile() throws {
        func outcomes(_ arguments: [String]) throws -> (report: [String: Any], outcomes: [[String: Any]]) {
            let r = try EnsimProcess.run(["radio", "tram", "--replicates", "10", "--json"] + arguments)
            #expect(r.status == 0, "\(r.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
            return (report, report["outcomes"] as! [[String: Any]])
        }
        let study = try outcomes(["--scenario", "Scenarios/studies/dublin-tram.yaml"])
        let plain = try outcomes([])
        #expect(study.report["scenario"] as? String == "Scenarios/studies/dublin-tram.yaml")
        #expect(NSArray(array: study.outcomes).isEqual(to: plain.outcomes))
        let dir = TestFolder.url("ensim-tram")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let louder = dir.appendingPathComponent("tram.yaml")
        try "seed: 1\nradio:\n  environment_loss_db:\n    transport: -10\n".write(to: louder, atomically: true, encoding: .utf8)
        let changed = try outcomes(["--scenario", louder.path])
        let ensim = { (o: [[String: Any]]) in o.filter { $0["source"] as? String == "ensim" }.map { $0["close_notified"] as! Int } }
        #expect(ensim(changed.outcomes) != ensim(plain.outcomes))
        let bad = dir.appendingPathComponent("bad.yaml")
        try "radio:\n  environment_loss_db:\n    transport: 99\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try EnsimProcess.run(["radio", "tram", "--scenario", bad.path])
        #expect(refused.status == 2 && refused.stderr.contains("radio.environment_loss_db.transport"))
        let both = try EnsimProcess.run(["radio", "tram", "--scenario", bad.path, "--seed", "3"])
        #expect(both.status != 0 && both.stderr.contains("--seed and --scenario"))
    }

    /// The layer's default is shown by name (ArgumentParser would print a raw-value enum's number).
    @Test func helpNamesTheDefaultLayer() throws {
        // Help wraps lines: compare with the whitespace folded.
        func help(_ command: String) throws -> String {
            try EnsimProcess.run(["radio", command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let calibrate = try help("calibrate"), fit = try help("fit")
        #expect(calibrate.contains("default: household") && !calibrate.contains("(default: 0)"))
        #expect(fit.contains("default: transport") && !fit.contains("(default: 4)"))
    }

    /// An indoor layer is fitted to the RSSI files; a corrupt one stops the command with one line naming it.
    @Test func indoorFitReadsTheRSSIFilesAndRefusesACorruptOne() throws {
        let r = try EnsimProcess.run(["radio", "fit", "--layer", "workplace", "--data", "Scenarios/data/rss-smartphone/rssi-by-distance.csv",
                                      "--data", "Scenarios/data/office-ble/rssi-by-distance.csv", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(report["layer"] as? String == "workplace" && (report["groups"] as! [Any]).count == 15 && report["converged"] as? Bool == true)
        let exponent = report["path_loss_exponent"] as! Double, sigma = report["shadowing_sigma_db"] as! Double
        #expect(exponent > 0 && exponent < 6 && sigma >= 0 && sigma < 30)
        #expect((report["log_likelihood"] as! Double) >= (report["log_likelihood_defaults"] as! Double))
        let dir = TestFolder.url("ensim-fit")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.csv")
        try "placements,sender,metres,adverts,mean_rssi_dbm,sd_rssi_dbm\nhand-hand,A,one,200,-70,4\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try EnsimProcess.run(["radio", "fit", "--layer", "workplace", "--data", bad.path])
        #expect(refused.status != 0 && refused.stderr.contains("\(bad.path):2: expected placements"))
        #expect(refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1, "\(refused.stderr)")
        let two = try EnsimProcess.run(["radio", "fit", "--data", bad.path, "--data", bad.path])
        #expect(two.status != 0 && two.stderr.contains("--layer transport fits one file"))
    }

    @Test func unknownLayerIsRejected() throws {
        let r = try EnsimProcess.run(["radio", "calibrate", "--layer", "bus"])
        #expect(r.status != 0)
        #expect(["household", "workplace", "school", "community", "transport"].allSatisfy { r.stderr.contains("'\($0)'") })
    }
}
