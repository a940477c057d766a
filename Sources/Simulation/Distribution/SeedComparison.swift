/// Renders the CWA seed's bandwidth estimate next to a run's figures (from its `distribution` summary).
public enum SeedComparison {
    public static func markdown(_ summary: ReportValue) -> String {
        guard let c = summary["cwa_seed_comparison"] else { return "" }
        func number(_ v: ReportValue?) -> Double {
            switch v { case .number(let x)?: x; case .integer(let x)?: Double(x); default: .nan }
        }
        func format(_ x: Double) -> String {
            if x >= 1e6 { return String((x / 1e5).rounded() / 10) + " M" }
            if x >= 100 { return String(Int(x.rounded())) }
            return String((x * 100).rounded() / 100)
        }
        var lines = ["| quantity | CWA seed | ENSim | ENSim / seed |", "|---|---|---|---|"]
        for (key, label) in [("requests_per_day", "HTTP requests/day"), ("sessions_per_day", "sessions (checks with requests)/day"), ("requests_per_second", "mean requests/s"),
                             ("terabytes_per_day", "TB/day"), ("megabytes_per_client_per_day", "MB/client/day")] {
            let row = c[key]
            lines.append("| \(label) | \(format(number(row?["seed"]))) | \(format(number(row?["ensim"]))) | \(String((number(row?["ratio"]) * 100).rounded() / 100)) |")
        }
        lines.append("| peak requests/s | — | \(format(number(summary["peak_requests_per_second"]))) | |")
        return lines.joined(separator: "\n")
    }
}
