import EventEngine

/// A day's RPI rotation times held elsewhere (an `RPIRotationSchedule`'s array, a cache's
/// buffer), with the questions the radio asks of them. Valid while that storage is.
public struct RPIRotationPeriods {
    /// Rotation times as seconds since midnight, ascending, starting with 0.
    public let offsets: UnsafeBufferPointer<Int32>
    public let midnight: SimTime
    /// Whether `offsets` reach the end of the day (else only times before the last may be asked about).
    public let isComplete: Bool

    public init(offsets: UnsafeBufferPointer<Int32>, midnight: SimTime, isComplete: Bool) {
        (self.offsets, self.midnight, self.isComplete) = (offsets, midnight, isComplete)
    }

    /// Whether `t` (a time of this day) may be asked about: its period, end included, is drawn.
    @inline(__always)
    public func covers(_ t: SimTime) -> Bool { isComplete || t - midnight < Int64(offsets[offsets.count - 1]) }

    /// The index of the identifier on the air at `t` (a time of this day) among the day's.
    @inline(__always)
    public func periodIndex(at t: SimTime) -> Int {
        let second = Int32(t - midnight)
        var lo = 0, hi = offsets.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if offsets[mid] <= second { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// The index of the identifier on the air at `t`, searching forward from `k` (on the air at
    /// an earlier time): times in order cost a step, not a search.
    @inline(__always)
    public func periodIndex(at t: SimTime, from k: Int) -> Int {
        var k = k
        while k + 1 < offsets.count && midnight + Int64(offsets[k + 1]) <= t { k += 1 }
        return k
    }

    /// When identifier `k` of the day was rotated in, and when it is rotated out (`SimTime.max`
    /// for the day's last).
    @inline(__always)
    public func period(_ k: Int) -> Range<SimTime> {
        // A schedule drawn only through part of the day does not know where its last period ends.
        precondition(isComplete || k + 1 < offsets.count, "a rotation period beyond the drawn part of the day")
        return (midnight + Int64(offsets[k]))..<(k + 1 < offsets.count ? midnight + Int64(offsets[k + 1]) : .max)
    }
}
