import Foundation
import Logging
import Simulation

/// Progress of a long run: a redrawn bar on a terminal, periodic log lines otherwise (CI).
final class ProgressReporter {
    enum Mode { case quiet, bar, lines }

    let mode: Mode
    let logger: Logger
    private let started = Date()
    private var lastLine = Date.distantPast
    private var drewBar = false

    init(mode: Mode, logger: Logger) {
        self.mode = mode
        self.logger = logger
    }

    func update(_ p: RunProgress) {
        guard mode != .quiet else { return }
        let elapsed = Date().timeIntervalSince(started)
        let eta = p.day > 0 ? elapsed / Double(p.day) * Double(p.days - p.day) : 0
        let text = "day \(p.day)/\(p.days)  \(Self.compact(Double(p.contacts))) contacts  \(Self.compact(Double(p.scanInstances))) scans  "
            + "\(Self.compact(Double(p.day) / max(elapsed, 1e-9) * Double(p.appPhones))) phone-days/s  ETA \(Self.duration(eta))"
        switch mode {
        case .bar:
            let width = 30, filled = width * p.day / max(1, p.days)
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(text)   ".utf8))
            drewBar = true
        case .lines:
            // At most one line every 5 s, plus the last day.
            if Date().timeIntervalSince(lastLine) >= 5 || p.day == p.days {
                logger.info("\(text)")
                lastLine = Date()
            }
        case .quiet:
            break
        }
    }

    func finish() {
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
        drewBar = false
    }

    static func compact(_ x: Double) -> String {
        switch x {
        case 1e9...: return String(format: "%.1f G", x / 1e9)
        case 1e6...: return String(format: "%.1f M", x / 1e6)
        case 1e3...: return String(format: "%.1f k", x / 1e3)
        default: return String(format: "%.0f", x)
        }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
