import CSVInput
import Foundation
import World

/// Mean RSSI of one phone's adverts heard by another at known distances, summarised per
/// placement pair, sender and distance (Scenarios/data/rss-smartphone/, Scenarios/data/office-ble/):
/// what `ensim radio fit --layer` fits an indoor layer to.
public enum RSSIByDistance {
    public struct Row: Sendable, Equatable {
        /// Where the two phones were: ENSim placements joined by "-" (hand-pocket, bag-bag), or
        /// "none" when no one carried them.
        public var placements: String
        /// The phone whose adverts were heard.
        public var sender: String
        public var metres: Double
        public var adverts: Int
        public var meanRSSI: Double
        public var sdRSSI: Double
    }

    public static let header = ["placements", "sender", "metres", "adverts", "mean_rssi_dbm", "sd_rssi_dbm"]

    /// A mean from fewer adverts is left out of the fit: at the receivers' floor (about −100 dBm)
    /// only the few strongest adverts are heard, so their mean is biased up.
    public static let minimumAdverts = 100

    /// Reads a file of `header`'s columns; every problem is one line naming the file and row.
    public static func load(csv path: String) throws -> [Row] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw StudyError("\(path): cannot read (\(error.localizedDescription))")
        }
        let rows: [CSVInput.Row]
        do { rows = try CSVInput.rows(text) } catch { throw StudyError("\(path):\(error.line): \(error.message)") }
        guard let first = rows.first, first.cells == header else {
            throw StudyError("\(path):1: expected the columns \(header.joined(separator: ","))")
        }
        var seen: Set<String> = []
        let out = try rows.dropFirst().map { row in
            guard row.cells.count == header.count, isPlacementPair(row.cells[0]), !row.cells[1].isEmpty,
                  let metres = Double(row.cells[2]), metres > 0, metres.isFinite, let adverts = Int(row.cells[3]), adverts >= 1,
                  let mean = Double(row.cells[4]), (-130...0).contains(mean), let sd = Double(row.cells[5]), sd >= 0, sd.isFinite else {
                throw StudyError("""
                    \(path):\(row.line): expected placements (two of \(Placement.allCases.map(\.name).joined(separator: ", ")) joined by "-", \
                    or none), a sender, a distance > 0 m, adverts ≥ 1, a mean RSSI from -130 to 0 dBm and its sd ≥ 0
                    """)
            }
            guard seen.insert("\(row.cells[0])|\(row.cells[1])|\(metres)").inserted else {
                throw StudyError("\(path):\(row.line): a second row for \(row.cells[0]), \(row.cells[1]) at \(row.cells[2]) m")
            }
            return Row(placements: row.cells[0], sender: row.cells[1], metres: metres, adverts: adverts, meanRSSI: mean, sdRSSI: sd)
        }
        guard !out.isEmpty else { throw StudyError("\(path): no measurements after the header") }
        return out
    }

    static func isPlacementPair(_ s: String) -> Bool {
        if s == "none" { return true }
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { p in Placement.allCases.contains { $0.name == p } }
    }

    /// The rows the fit reads (at least `minimumAdverts` adverts), grouped by placements and
    /// sender, with the groups' names ("hand-pocket, HTC One M9") in order of first appearance.
    /// Files are kept apart: a group is never shared by two files.
    public static func fitRows(_ files: [[Row]]) -> (rows: [IndoorChannelFit.Row], groups: [String]) {
        var groups: [String] = [], index: [String: Int] = [:], rows: [IndoorChannelFit.Row] = []
        for (file, measured) in files.enumerated() {
            for m in measured where m.adverts >= minimumAdverts {
                let name = "\(m.placements), \(m.sender)"
                let key = "\(file)|\(name)"
                let g = index[key] ?? groups.count
                if index[key] == nil { index[key] = g; groups.append(name) }
                rows.append(IndoorChannelFit.Row(group: g, metres: m.metres, meanLoss: -m.meanRSSI,
                                                 meanVariance: m.sdRSSI * m.sdRSSI / Double(m.adverts), carried: m.placements != "none"))
            }
        }
        return (rows, groups)
    }
}
