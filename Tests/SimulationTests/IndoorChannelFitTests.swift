@testable import Detection
import Foundation
import GSL
import Testing
@testable import World

/// The indoor fit finds the exponent and shadowing its data was drawn with; the RSSI files it
/// reads load, and a corrupt one is refused with the file and row named.
@Suite struct IndoorChannelFitTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func shipped(_ name: String) -> String { root.appendingPathComponent("Scenarios/data/\(name)/rssi-by-distance.csv").path }

    @Test func recoversTheParametersItsDataWasDrawnWith() {
        let base = RadioParameters.default
        let (exponent, sigma) = (1.3, 3.0)
        let offsets = [73.0, 79, 94, 91, 55, 62]
        let stream = RandomStream(seed: 7, stream: "indoor-fit-test")
        let metres = [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2, 3, 4, 5]
        var rows: [IndoorChannelFit.Row] = []
        for (g, c) in offsets.enumerated() {
            let carried = g < 4  // the last two groups are phones no one carries: never a body in the way
            for _ in 0..<20 {
                for d in metres {
                    let body = carried && stream.uniform() < base.bodyBlockProbability ? base.bodyBlockLoss : 0
                    let loss = c + 10 * exponent * log10(d) + body + stream.normal(sd: (sigma * sigma + 0.05).squareRoot())
                    rows.append(IndoorChannelFit.Row(group: g, metres: d, meanLoss: loss, meanVariance: 0.05, carried: carried))
                }
            }
        }
        let r = IndoorChannelFit.fit(rows, groups: offsets.count, base: base)
        #expect(r.converged && r.rows == rows.count)
        #expect(abs(r.pathLossExponent - exponent) < 3 * r.standardErrors[0], "\(r.pathLossExponent) ± \(r.standardErrors[0])")
        #expect(abs(r.shadowingSigma - sigma) < 3 * r.standardErrors[1], "\(r.shadowingSigma) ± \(r.standardErrors[1])")
        for (fitted, (truth, error)) in zip(r.offsets, zip(offsets, r.offsetErrors)) {
            #expect(abs(fitted - truth) < 3 * error, "\(fitted) ± \(error), drawn with \(truth)")
        }
        #expect((r.standardErrors + r.offsetErrors).allSatisfy { $0 > 0 && $0 < 1 })
        let atTruth = IndoorChannelFit.logLikelihood(rows, base: base, exponent: exponent, sigma: sigma, offsets: offsets)
        let truthBestOffsets = IndoorChannelFit.logLikelihoodWithBestOffsets(rows, groups: offsets.count, base: base, exponent: exponent, sigma: sigma)
        #expect(r.logLikelihood >= truthBestOffsets && truthBestOffsets >= atTruth - 1e-6)
        // A wrong exponent is clearly less likely, even with its best offsets.
        #expect(IndoorChannelFit.logLikelihoodWithBestOffsets(rows, groups: offsets.count, base: base, exponent: 2.5, sigma: sigma) < r.logLikelihood - 20)
    }

    @Test func theShippedFilesLoadAndGroupByPlacementsAndSender() throws {
        let phones = try RSSIByDistance.load(csv: Self.shipped("rss-smartphone"))
        let office = try RSSIByDistance.load(csv: Self.shipped("office-ble"))
        #expect(phones.count == 151 && office.count == 24)
        #expect(phones[0] == RSSIByDistance.Row(placements: "hand-hand", sender: "HTC One M9", metres: 0.2, adverts: 767, meanRSSI: -58.56, sdRSSI: 7.33))
        let (rows, groups) = RSSIByDistance.fitRows([phones, office])
        #expect(groups.count == 15 && groups.first == "hand-hand, HTC One M9" && groups.last == "none, Raspberry Pi 4b")
        #expect(rows.count == phones.count + office.count - phones.filter { $0.adverts < RSSIByDistance.minimumAdverts }.count)
        #expect(rows.filter { !$0.carried }.count == office.count)
        // The same file given twice is two sets of groups, not one.
        #expect(RSSIByDistance.fitRows([office, office]).groups.count == 6)
    }

    @Test func aCorruptFileIsRefusedNamingTheFileAndRow() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ensim-rssi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let header = RSSIByDistance.header.joined(separator: ","), good = "hand-pocket,A,1,200,-70,4"
        for (body, expected) in [
            ("\(header)\n\(good)\nhand-elbow,A,2,200,-70,4\n", ":3: expected placements"),
            ("\(header)\n\(good)\nhand-hand,A,0,200,-70,4\n", ":3: expected placements"),
            ("\(header)\n\(good)\nhand-hand,A,2,200,70,4\n", ":3: expected placements"),
            ("\(header)\n\(good)\nhand-hand,A,2,200,-70\n", ":3: expected placements"),
            ("\(header)\n\(good)\n\(good)\n", ":3: a second row"),
            ("placements,receiver,metres,adverts,mean_rssi_dbm,sd_rssi_dbm\n\(good)\n", ":1: expected the columns"),
            ("\(header)\n", ": no measurements"),
        ] {
            let file = dir.appendingPathComponent("r.csv")
            try Data(body.utf8).write(to: file)
            #expect { _ = try RSSIByDistance.load(csv: file.path) } throws: { error in
                let text = "\(error)"
                return text.hasPrefix(file.path) && text.contains(expected) && !text.contains("\n")
            }
        }
        #expect { _ = try RSSIByDistance.load(csv: dir.appendingPathComponent("missing.csv").path) } throws: { "\($0)".contains("missing.csv: cannot read") }
    }
}
