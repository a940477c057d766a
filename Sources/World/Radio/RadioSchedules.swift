import EventEngine
import GAEN
import GSL

/// When a receiving phone scans: a window every `scanPeriodSeconds`, at a per-(phone, day)
/// phase, so scans of different phones are not synchronised.
public struct ScanSchedule: Sendable {
    public let midnight: SimTime
    public let phase: Int64
    public let period: Int64

    public init(seed: UInt64, phone: Int, dayIndex: Int, midnight: SimTime, period: Int, stream: RandomStream) {
        self.init(family: Self.family(seed: seed), phone: phone, dayIndex: dayIndex, midnight: midnight, period: period, stream: stream)
    }

    /// The stream family of the phases, for callers that build many schedules (hash the name once).
    public static func family(seed: UInt64) -> StreamFamily { StreamFamily(seed: seed, stream: "scan-phase") }

    public init(family: StreamFamily, phone: Int, dayIndex: Int, midnight: SimTime, period: Int, stream: RandomStream) {
        stream.reseed(family, index: UInt64(phone) << 16 | UInt64(dayIndex))
        self.midnight = midnight
        self.period = Int64(period)
        phase = Int64(stream.uniformInt(period))
    }

    /// The first scan instant at or after `start`.
    @inline(__always)
    public func firstInstant(atOrAfter start: SimTime) -> SimTime {
        let first = midnight + phase
        return start <= first ? first : first + (start - first + period - 1) / period * period
    }

    /// Scan instants in [start, end), in order.
    public func instants(from start: SimTime, to end: SimTime) -> [SimTime] {
        Array(stride(from: firstInstant(atOrAfter: start), to: end, by: Int(period)))
    }
}

/// When a phone changes its RPI and Bluetooth address on one UTC day: at midnight (with the
/// new key), then after uniform draws in [min, max] minutes. The RPI a phone broadcasts is
/// the one of the EN interval in which its current address period started.
public struct RPIRotationSchedule: Sendable {
    /// Rotation times as seconds since midnight, ascending, starting with 0.
    public let offsets: [Int32]
    public let midnight: SimTime

    public init(seed: UInt64, phone: Int, dayIndex: Int, midnight: SimTime, minMinutes: Int, maxMinutes: Int, stream: RandomStream) {
        self.init(family: Self.family(seed: seed), phone: phone, dayIndex: dayIndex, midnight: midnight,
                  minMinutes: minMinutes, maxMinutes: maxMinutes, stream: stream)
    }

    /// The stream family of the rotations, for callers that build many schedules (hash the name once).
    public static func family(seed: UInt64) -> StreamFamily { StreamFamily(seed: seed, stream: "rpi-rotation") }

    public init(family: StreamFamily, phone: Int, dayIndex: Int, midnight: SimTime, minMinutes: Int, maxMinutes: Int, stream: RandomStream) {
        stream.reseed(family, index: UInt64(phone) << 16 | UInt64(dayIndex))
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(150)
        let lo = Double(minMinutes * 60), hi = Double(maxMinutes * 60 + 1)
        var t = Int32(0)
        while true {
            t += Int32(stream.uniform(lo, hi).rounded(.down))
            if t >= 86_400 { break }
            offsets.append(t)
        }
        self.offsets = offsets
        self.midnight = midnight
    }

    /// The EN interval whose RPI is on the air at `t` (a time of this day).
    public func broadcastInterval(at t: SimTime) -> ENIntervalNumber { ENIntervalNumber(unixTime: rotationStart(at: t)) }

    /// When the identifier on the air at `t` (a time of this day) was rotated in.
    public func rotationStart(at t: SimTime) -> SimTime {
        let second = Int32(t - midnight)
        var lo = 0, hi = offsets.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if offsets[mid] <= second { lo = mid } else { hi = mid }
        }
        return midnight + Int64(offsets[lo])
    }
}
