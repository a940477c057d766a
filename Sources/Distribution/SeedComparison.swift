/// The CWA seed's bandwidth estimate scaled to a run's clients, beside the run's figures
/// (`distribution.cwa_seed_comparison`).
public struct SeedComparison: Equatable, Sendable, Encodable {
    /// One quantity: the seed's figure, the run's, and run ÷ seed (0 when the seed's is 0).
    public struct Row: Equatable, Sendable, Encodable {
        public var seed: Double
        public var ensim: Double
        public var ratio: Double

        package init(seed: Double, ensim: Double) {
            self.seed = seed
            self.ensim = ensim
            ratio = seed > 0 ? ensim / seed : 0
        }
    }

    public var note: String
    public var requestsPerDay: Row
    public var sessionsPerDay: Row
    public var requestsPerSecond: Row
    public var terabytesPerDay: Row
    public var megabytesPerClientPerDay: Row

    package enum CodingKeys: String, CodingKey {
        case note, requestsPerDay = "requests_per_day", sessionsPerDay = "sessions_per_day"
        case requestsPerSecond = "requests_per_second", terabytesPerDay = "terabytes_per_day"
        case megabytesPerClientPerDay = "megabytes_per_client_per_day"
    }

    /// The comparison as a Markdown table, with the run's peak requests per second.
    public func markdown(peakRequestsPerSecond: Int) -> String {
        func format(_ x: Double) -> String {
            if x >= 1e6 { return String((x / 1e5).rounded() / 10) + " M" }
            if x >= 100 { return String(Int(x.rounded())) }
            return String((x * 100).rounded() / 100)
        }
        var lines = ["| quantity | CWA seed | ENSim | ENSim / seed |", "|---|---|---|---|"]
        for (row, label) in [(requestsPerDay, "HTTP requests/day"), (sessionsPerDay, "sessions (checks with requests)/day"),
                             (requestsPerSecond, "mean requests/s"), (terabytesPerDay, "TB/day"),
                             (megabytesPerClientPerDay, "MB/client/day")] {
            lines.append("| \(label) | \(format(row.seed)) | \(format(row.ensim)) | \(String((row.ratio * 100).rounded() / 100)) |")
        }
        lines.append("| peak requests/s | — | \(format(Double(peakRequestsPerSecond))) | |")
        return lines.joined(separator: "\n")
    }
}
