/// The one value tree of reports: what JSONReport writes. Keys keep their order so reports read
/// in a sensible order; integers and numbers stay apart (`3` versus `3.0`).
public indirect enum ReportValue: Equatable, Sendable {
    case integer(Int64)
    case number(Double)
    case text(String)
    case boolean(Bool)
    case null
    case object([(String, ReportValue)])
    case array([ReportValue])

    public static func == (a: ReportValue, b: ReportValue) -> Bool {
        switch (a, b) {
        case let (.integer(x), .integer(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.text(x), .text(y)): return x == y
        case let (.boolean(x), .boolean(y)): return x == y
        case (.null, .null): return true
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.map(\.0) == y.map(\.0) && zip(x, y).allSatisfy { $0.1 == $1.1 }
        default: return false
        }
    }
}
