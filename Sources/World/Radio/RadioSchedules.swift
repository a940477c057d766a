import EventEngine
import GAEN
import GSL

/// When a receiving phone scans: a window every `scanPeriodSeconds`, at a per-(phone, day)
/// phase, so scans of different phones are not synchronised. With a random range (Android's
/// GAEN, `radio.android_scan_interval_random_range_s`) each interval is the period minus a
/// uniform 0…range seconds, drawn per scan from the phone's own stream of the day.
public struct ScanSchedule: Sendable {
    public let midnight: SimTime
    public let phase: Int64
    public let period: Int64
    /// Jittered schedules only: the day's scan instants in seconds since midnight, ascending, from
    /// the last scan before midnight (negative) to the first at or after the next midnight (later
    /// scans follow every `period`). Empty: every `period` from `phase`.
    public let jitteredOffsets: [Int32]

    public init(seed: UInt64, phone: Int, dayIndex: Int, midnight: SimTime, period: Int, stream: RandomStream) {
        self.init(family: Self.family(seed: seed), phone: phone, dayIndex: dayIndex, midnight: midnight, period: period, stream: stream)
    }

    /// The stream family of the phases, for callers that build many schedules (hash the name once).
    public static func family(seed: UInt64) -> StreamFamily { StreamFamily(seed: seed, stream: "scan-phase") }

    /// The stream family of jittered schedules (its own, so fixed schedules draw as before).
    public static func jitterFamily(seed: UInt64) -> StreamFamily { StreamFamily(seed: seed, stream: "scan-jitter") }

    public init(family: StreamFamily, phone: Int, dayIndex: Int, midnight: SimTime, period: Int, stream: RandomStream) {
        stream.reseed(family, index: UInt64(phone) << 16 | UInt64(dayIndex))
        self.midnight = midnight
        self.period = Int64(period)
        phase = Int64(stream.uniformInt(period))
        jitteredOffsets = []
    }

    /// A jittered schedule: intervals of `period` − U{0…`randomRange`} seconds (GAEN on Android:
    /// `scanIntervalSeconds` 300 − `scanIntervalRandomRangeSeconds` 90, in BleScannerImpl.getScanInterval).
    /// The day's first scan falls at a uniform point of the interval that spans midnight.
    /// - Complexity: O(scans a day).
    public init(jitterFamily: StreamFamily, phone: Int, dayIndex: Int, midnight: SimTime, period: Int, randomRange: Int,
                stream: RandomStream) {
        precondition(randomRange >= 0 && randomRange < period, "the random range must be shorter than the period")
        stream.reseed(jitterFamily, index: UInt64(phone) << 16 | UInt64(dayIndex))
        self.midnight = midnight
        self.period = Int64(period)
        let interval = { Int32(period - stream.uniformInt(randomRange + 1)) }
        let before = interval()
        let first = Int32(stream.uniformInt(Int(before)))
        phase = Int64(first)
        var offsets = [first - before, first]
        offsets.reserveCapacity(Self.mostScans(period: period, randomRange: randomRange))
        while offsets[offsets.count - 1] < 86_400 { offsets.append(offsets[offsets.count - 1] + interval()) }
        jitteredOffsets = offsets
    }

    /// The most scan instants of a day and the one either side of it: scans are at least the
    /// period less the random range apart.
    package static func mostScans(period: Int, randomRange: Int) -> Int { 86_400 / max(1, period - randomRange) + 3 }

    /// A scan instant and the seconds since the phone's previous scan (GAEN's `secondsSinceLastScan`).
    public struct Scan: Sendable, Equatable {
        public var time: SimTime
        public var secondsSinceLastScan: Int64
        fileprivate var index: Int
    }

    /// The first scan at or after `start`.
    @inline(__always)
    public func firstScan(atOrAfter start: SimTime) -> Scan {
        guard !jitteredOffsets.isEmpty else { return Scan(time: firstInstant(atOrAfter: start), secondsSinceLastScan: period, index: 0) }
        let second = start - midnight
        var lo = 0, hi = jitteredOffsets.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int64(jitteredOffsets[mid]) < second { lo = mid + 1 } else { hi = mid }
        }
        guard lo < jitteredOffsets.count else {
            let last = midnight + Int64(jitteredOffsets[jitteredOffsets.count - 1])
            return Scan(time: last + (start - last + period - 1) / period * period, secondsSinceLastScan: period, index: lo)
        }
        return scan(at: lo)
    }

    /// The scan after `scan`.
    @inline(__always)
    public func next(after scan: Scan) -> Scan {
        guard scan.index + 1 < jitteredOffsets.count else {
            return Scan(time: scan.time + period, secondsSinceLastScan: period, index: scan.index + 1)
        }
        return self.scan(at: scan.index + 1)
    }

    private func scan(at i: Int) -> Scan {
        let gap = i > 0 ? Int64(jitteredOffsets[i] - jitteredOffsets[i - 1]) : period
        return Scan(time: midnight + Int64(jitteredOffsets[i]), secondsSinceLastScan: gap, index: i)
    }

    /// The first scan instant at or after `start` of a fixed schedule.
    @inline(__always)
    public func firstInstant(atOrAfter start: SimTime) -> SimTime {
        let first = midnight + phase
        return start <= first ? first : first + (start - first + period - 1) / period * period
    }

    /// Scan instants in [start, end), in order.
    public func instants(from start: SimTime, to end: SimTime) -> [SimTime] {
        var out: [SimTime] = []
        var scan = firstScan(atOrAfter: start)
        while scan.time < end {
            out.append(scan.time)
            scan = next(after: scan)
        }
        return out
    }
}

/// When a phone changes its RPI and Bluetooth address on one UTC day: at midnight (with the
/// new key), then after uniform draws in [min, max] minutes. The RPI a phone broadcasts is
/// the one of the EN interval in which its current address period started.
public struct RPIRotationSchedule: Sendable {
    /// Rotation times as seconds since midnight, ascending, starting with 0.
    public let offsets: [Int32]
    public let midnight: SimTime
    /// Whether `offsets` reach the end of the day; otherwise they stop at the first rotation after
    /// the second asked for (`through`), and only earlier times may be asked about.
    public let isComplete: Bool

    public init(seed: UInt64, phone: Int, dayIndex: Int, midnight: SimTime, minMinutes: Int, maxMinutes: Int, stream: RandomStream,
                through: Int32 = 86_399) {
        self.init(family: Self.family(seed: seed), phone: phone, dayIndex: dayIndex, midnight: midnight,
                  minMinutes: minMinutes, maxMinutes: maxMinutes, stream: stream, through: through)
    }

    /// The stream family of the rotations, for callers that build many schedules (hash the name once).
    public static func family(seed: UInt64) -> StreamFamily { StreamFamily(seed: seed, stream: "rpi-rotation") }

    /// `through`: the latest second of the day that will be asked about. The rotations are drawn
    /// in order from midnight, so a schedule drawn through an earlier second is the start of the
    /// whole day's (most senders are met once, before the day ends: drawing the rest was waste).
    public init(family: StreamFamily, phone: Int, dayIndex: Int, midnight: SimTime, minMinutes: Int, maxMinutes: Int, stream: RandomStream,
                through: Int32 = 86_399) {
        var complete = false
        offsets = [Int32](unsafeUninitializedCapacity: Self.capacity(minMinutes: minMinutes)) { buffer, count in
            (count, complete) = Self.draw(family: family, phone: phone, dayIndex: dayIndex, minMinutes: minMinutes, maxMinutes: maxMinutes,
                                          stream: stream, through: through, into: buffer)
        }
        self.midnight = midnight
        isComplete = complete
    }

    /// The most rotation times a day holds when rotations are at least `minMinutes` apart.
    public static func capacity(minMinutes: Int) -> Int { 86_400 / (max(1, minMinutes) * 60) + 2 }

    /// Draws `phone`'s rotation times of the day into the start of `offsets` (at least
    /// `capacity(minMinutes:)` long): 0, then one after another until the first after `through`
    /// or the end of the day. Returns how many it wrote and whether they reach the day's end.
    /// `stream` must be a taus2 stream: its state is drawn from in registers.
    public static func draw(family: StreamFamily, phone: Int, dayIndex: Int, minMinutes: Int, maxMinutes: Int, stream: RandomStream,
                            through: Int32, into offsets: UnsafeMutableBufferPointer<Int32>) -> (count: Int, isComplete: Bool) {
        precondition(minMinutes >= 1 && offsets.count >= capacity(minMinutes: minMinutes), "room for a day of rotations")
        stream.reseed(family, index: UInt64(phone) << 16 | UInt64(dayIndex))
        let lo = Double(minMinutes * 60), hi = Double(maxMinutes * 60 + 1)
        offsets[0] = 0
        // The state in registers: a sender met at midday takes ~48 draws.
        return stream.withTausState { state in
            var count = 1, t = Int32(0)
            while true {
                // The draw is ≥ 0, so truncation is its floor (`rounded(.down)` calls libm: ~1% of a run).
                t += Int32(state.uniform(lo, hi))
                if t >= 86_400 { return (count, true) }
                offsets[count] = t
                count += 1
                if t > through { return (count, false) }
            }
        }
    }

    /// The schedule's queries, on its offsets in place.
    public func withPeriods<R>(_ body: (RPIRotationPeriods) -> R) -> R {
        offsets.withUnsafeBufferPointer { body(RPIRotationPeriods(offsets: $0, midnight: midnight, isComplete: isComplete)) }
    }

    /// Whether `t` (a time of this day) may be asked about: its period, end included, is drawn.
    public func covers(_ t: SimTime) -> Bool { withPeriods { $0.covers(t) } }

    /// The EN interval whose RPI is on the air at `t` (a time of this day).
    public func broadcastInterval(at t: SimTime) -> ENIntervalNumber { ENIntervalNumber(unixTime: rotationStart(at: t)) }

    /// When the identifier on the air at `t` (a time of this day) was rotated in.
    public func rotationStart(at t: SimTime) -> SimTime { rotationPeriod(at: t).lowerBound }

    /// When the identifier on the air at `t` (a time of this day) was rotated in, and when it
    /// is rotated out (`SimTime.max` for the day's last).
    public func rotationPeriod(at t: SimTime) -> Range<SimTime> { withPeriods { $0.period($0.periodIndex(at: t)) } }

    /// The index of the identifier on the air at `t` (a time of this day) among the day's.
    public func periodIndex(at t: SimTime) -> Int { withPeriods { $0.periodIndex(at: t) } }

    /// The index of the identifier on the air at `t`, searching forward from `k` (on the air at
    /// an earlier time).
    public func periodIndex(at t: SimTime, from k: Int) -> Int { withPeriods { $0.periodIndex(at: t, from: k) } }

    /// When identifier `k` of the day was rotated in, and when it is rotated out (`SimTime.max`
    /// for the day's last).
    public func period(_ k: Int) -> Range<SimTime> { withPeriods { $0.period(k) } }
}
