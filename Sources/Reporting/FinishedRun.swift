import Detection
import Foundation

/// A run folder as readers (`ensim regress`, reports) accept it: a finished run, never the hidden
/// staging folder of a run still going or killed, and never a folder without its manifest.
public struct FinishedRun {
    public let folder: URL
    public var summaryPath: String { folder.appendingPathComponent("summary.json").path }
    public var manifestPath: String { folder.appendingPathComponent("manifest.json").path }

    /// - Throws: `FinishedRunError` naming the folder or file and what is wrong.
    public init(folder path: String) throws(FinishedRunError) {
        folder = URL(fileURLWithPath: path).standardizedFileURL
        let name = folder.lastPathComponent
        if name.hasPrefix("."), name.contains(".partial") {
            throw FinishedRunError(path: path, reason: "is the staging folder of an unfinished (running or killed) run, not a result")
        }
        for file in [manifestPath, summaryPath] {
            guard FileManager.default.fileExists(atPath: file) else {
                throw FinishedRunError(path: path, reason: "is not a finished run folder (no \(URL(fileURLWithPath: file).lastPathComponent))")
            }
        }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: manifestPath)),
              (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw FinishedRunError(path: manifestPath, reason: "is not a JSON object (a damaged run folder)")
        }
    }

    /// Every file in the run folder, by path inside it, with its size.
    public func files() -> [(name: String, bytes: Int)] {
        let fm = FileManager.default
        guard let walker = fm.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return [] }
        var out: [(String, Int)] = []
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path, prefix = folder.path + "/"
            // Paths inside the folder; the enumerator may spell the folder differently (symlinks).
            let name = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : url.lastPathComponent
            out.append((name, values.fileSize ?? 0))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// What the run found (`ensim summary`).
    public func digest() throws(FinishedRunError) -> RunDigest {
        guard let data = FileManager.default.contents(atPath: summaryPath) else {
            throw FinishedRunError(path: summaryPath, reason: "cannot be read")
        }
        return try RunDigest.read(summaryJSON: data, path: summaryPath)
    }

    /// The detection block of summary.json, as `ensim regress` compares it.
    public func detection() throws(FinishedRunError) -> (counts: DetectionCounts, preset: DetectionPreset)? {
        struct Summary: Decodable { var detection: Block? }
        struct Block: Decodable {
            var preset: String
            var notified: Int
            var falsePositives: Int
            var closeContactsWithApp: Int
            var falseNegatives: Int
            enum CodingKeys: String, CodingKey {
                case preset, notified, falsePositives = "false_positives"
                case closeContactsWithApp = "close_contacts_with_app", falseNegatives = "false_negatives"
            }
        }
        let summary: Summary
        do { summary = try JSONDecoder().decode(Summary.self, from: Data(contentsOf: URL(fileURLWithPath: summaryPath))) } catch {
            throw FinishedRunError(path: summaryPath, reason: "no readable detection block (notified, false_positives, close_contacts_with_app, false_negatives)")
        }
        guard let d = summary.detection else { return nil }
        guard let preset = DetectionPreset(rawValue: d.preset) else {
            throw FinishedRunError(path: summaryPath, reason: "detection.preset '\(d.preset.prefix(40))' is not a known preset")
        }
        let counts = DetectionCounts(notified: d.notified, falsePositives: d.falsePositives,
                                     closeContactsWithApp: d.closeContactsWithApp, falseNegatives: d.falseNegatives)
        guard counts.falsePositives >= 0, counts.falseNegatives >= 0, counts.falsePositives <= counts.notified,
              counts.falseNegatives <= counts.closeContactsWithApp else {
            throw FinishedRunError(path: summaryPath, reason: "detection counts are inconsistent (negative, or more errors than cases)")
        }
        return (counts, preset)
    }
}

public struct FinishedRunError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
