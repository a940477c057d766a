import CSVInput
import EventEngine
import Foundation

/// Positive results per day read from a CSV (`date,cases`, ISO dates, one row per day, each date
/// once; rows starting with `#` are comments), through `CSVInput` like every CSV ENSim reads.
public struct CaseSeries: Sendable, Equatable {
    public let countsByDay: [Int64: Double]

    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String)
        case malformed(path: String, line: Int, reason: String)
        case missingDay(path: String, date: String)
        case moreThanThePopulation(path: String, date: String, count: Double, scale: Double, population: Int)

        public var description: String {
            switch self {
            case .unreadable(let path): return "\(path): cannot read the cases CSV (health.cases_csv)"
            case .malformed(let path, let line, let reason): return "\(path):\(line): \(reason); expected `date,cases` with an ISO date and a count ≥ 0 (health.cases_csv)"
            case .missingDay(let path, let date): return "\(path): no row for \(date), a simulated day (health.cases_csv)"
            case .moreThanThePopulation(let path, let date, let count, let scale, let population):
                return "\(path): \(date) has \(count.formatted()) results, \((count * scale).formatted()) a day after health.cases_csv_scale "
                    + "\(scale.formatted()): more than the population (\(population.formatted())); each person can test positive once"
            }
        }
    }

    public init(countsByDay: [Int64: Double]) { self.countsByDay = countsByDay }

    public static func load(path: String) throws(LoadError) -> CaseSeries {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path)
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(LoadError) -> CaseSeries {
        let rows: [CSVInput.Row]
        do { rows = try CSVInput.rows(text) } catch { throw .malformed(path: path, line: error.line, reason: error.message) }
        var counts: [Int64: Double] = [:]
        var firstLine: [Int64: Int] = [:]
        for row in rows {
            let cells = row.cells
            if cells[0].hasPrefix("#") || cells[0].lowercased() == "date" { continue }
            guard cells.count == 2 else { throw .malformed(path: path, line: row.line, reason: "\(cells.count) columns") }
            guard let t = CivilCalendar.parseISODateToTime(cells[0]) else {
                throw .malformed(path: path, line: row.line, reason: "'\(cells[0].prefix(40))' is not a date")
            }
            guard let n = Double(cells[1]), n >= 0, n.isFinite else {
                throw .malformed(path: path, line: row.line, reason: "'\(cells[1].prefix(40))' is not a count")
            }
            let day = SimClock.dayNumber(t)
            if let first = firstLine[day] {
                throw .malformed(path: path, line: row.line, reason: "\(cells[0]) appears twice (first on line \(first))")
            }
            counts[day] = n
            firstLine[day] = row.line
        }
        if counts.isEmpty { throw .malformed(path: path, line: 1, reason: "no rows") }
        return CaseSeries(countsByDay: counts)
    }

    /// Checks that no simulated day expects more positive results than there are people: a scale
    /// meant for a town applied to a country's counts would make everyone a case on day one.
    public func checkFits(population: Int, scale: Double, start: SimTime, days: Int, path: String) throws(LoadError) {
        for d in 0..<days {
            let t = start + Int64(d) * SimDuration.day
            guard let count = countsByDay[SimClock.dayNumber(t)], count * scale > Double(population) else { continue }
            throw .moreThanThePopulation(path: path, date: CivilCalendar.isoDateString(t), count: count, scale: scale, population: population)
        }
    }

    /// Checks that every simulated day has a row.
    public func checkCovers(start: SimTime, days: Int, path: String) throws(LoadError) {
        for d in 0..<days {
            let t = start + Int64(d) * SimDuration.day
            if countsByDay[SimClock.dayNumber(t)] == nil { throw .missingDay(path: path, date: CivilCalendar.isoDateString(t)) }
        }
    }
}
