@testable import Detection
import Foundation
import GSL
import Testing
import World
import TestSupport

/// The Dublin tram study: the published durations, the June 2020 rules applied to them, and
/// ENSim's channel at the same distances.
@Suite struct TramStudyTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios/data/dublin-tram/attenuation-minutes.csv").path

    @Test func theDatasetLoads() throws {
        let pairs = try TramStudy.load(csv: Self.data)
        #expect(pairs.count == 72 && pairs.allSatisfy { $0.minutes.count == TramStudy.bands.count })
        #expect(pairs[0].handsets == (5, 1) && abs(pairs[0].metres - 1.6763) < 1e-9 && pairs[0].minutes[3...5] == [4, 2, 6])
        let scans = TramStudy.measuredScans(pairs[0])
        #expect(scans == [ScoredScan(typicalAttenuation: 55, seconds: 240), ScoredScan(typicalAttenuation: 57, seconds: 120),
                          ScoredScan(typicalAttenuation: 59, seconds: 360)])
    }

    @Test func badFilesNameTheLine() throws {
        let dir = TestFolder.url("ensim-tram")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let header = "handset_a,handset_b,metres," + TramStudy.bands.map { "db_\($0.lowerBound)_\($0.upperBound)" }.joined(separator: ",")
        let zeros = Array(repeating: "0", count: TramStudy.bands.count).joined(separator: ",")
        for (body, expected) in [("\(header)\n1,2,1.5,\(zeros)\n1,2,-1,\(zeros)\n", ":3:"), ("a,b\n", ":1:"),
                                 ("\(header)\n1,2,1.5,x\n", ":2:"),
                                 // 1e308 minutes trapped when made whole seconds (found by fuzzing).
                                 ("\(header)\n1,2,1.5,1e308" + String(zeros.dropFirst()) + "\n", ":2: expected two handset numbers"),
                                 ("\(header)\n1,2,1.5,10081" + String(zeros.dropFirst()) + "\n", ":2:")] {
            let file = dir.appendingPathComponent("t.csv")
            try Data(body.utf8).write(to: file)
            #expect { _ = try TramStudy.load(csv: file.path) } throws: { "\($0)".contains(file.path + expected) }
        }
        #expect(throws: StudyError.self) { _ = try TramStudy.load(csv: dir.appendingPathComponent("missing.csv").path) }
    }

    /// SwissCovid at launch: minutes below 50 dB count fully, 50–55 dB half, notify at 15.
    @Test func swissRuleWeighsTheTwoBands() {
        let model = DetectionPreset.swisscovid.model
        func notifies(_ scans: [ScoredScan]) -> Bool { model.evaluateDay([KeyExposure(scans: scans, daysSinceExposure: 0)]).notify }
        #expect(notifies([ScoredScan(typicalAttenuation: 48, seconds: 900)]))
        #expect(!notifies([ScoredScan(typicalAttenuation: 52, seconds: 900)]))
        #expect(notifies([ScoredScan(typicalAttenuation: 52, seconds: 1_800)]))
        #expect(!notifies([ScoredScan(typicalAttenuation: 60, seconds: 1_800)]))
    }

    /// Leith & Farrell: the Swiss and German rules of June 2020 hardly ever triggered in the tram.
    /// ENSim's figures are reproducible and its channel gives higher attenuation further away.
    @Test func measuredRulesAndSimulatedContacts() throws {
        let study = TramStudy(measurements: try TramStudy.load(csv: Self.data))
        let rules: [DetectionPreset] = [.swisscovid, .cwaV1]
        let outcomes = study.run(rules: rules.map { ($0.rawValue, $0.model) }, replicates: 5, radio: .default, seed: 3)
        let measured = outcomes.filter { $0.source == "measured" }
        #expect(measured.map(\.close) == [34, 34] && measured.map(\.far) == [38, 38])
        #expect(measured[0].closeNotified == 0 && measured[0].farNotified == 0)
        #expect(measured[1].closeNotified + measured[1].farNotified <= 2)
        let again = study.run(rules: rules.map { ($0.rawValue, $0.model) }, replicates: 5, radio: .default, seed: 3)
        #expect(again.map(\.closeNotified) == outcomes.map(\.closeNotified) && again.map(\.farNotified) == outcomes.map(\.farNotified))
        func meanAttenuation(_ metres: Double) -> Double {
            let i = study.measurements.firstIndex { abs($0.metres - metres) < 0.01 }!
            let scans = (0..<200).flatMap { study.simulatedScans(i, replicate: $0, radio: .default, seed: 3) }
            return Double(scans.reduce(0) { $0 + $1.typicalAttenuation }) / Double(scans.count)
        }
        #expect(meanAttenuation(0.5) < meanAttenuation(5.15))
    }
}
