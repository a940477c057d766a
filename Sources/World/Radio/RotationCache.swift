import EventEngine
import GSL

/// The RPI rotations of the senders one recorder hears, drawn into one buffer: direct-mapped
/// like `DayCache`, but a schedule costs no array (an allocation, a free, and reference counting
/// on every look-up).
///
/// Not thread-safe: one per recorder. A returned `RPIRotationPeriods` is valid until the next call.
final class RotationCache {
    private let slots: CacheSlots, capacity: Int
    /// Per slot: the phone whose rotations it holds (`.max`: none), how many, and whether they
    /// reach the day's end; then `capacity` offsets per slot.
    private let phones: UnsafeMutablePointer<UInt64>
    private let counts: UnsafeMutablePointer<Int32>
    private let complete: UnsafeMutablePointer<Bool>
    private let offsets: UnsafeMutablePointer<Int32>
    private let family: StreamFamily
    private let dayIndex: Int, midnight: SimTime, minMinutes: Int, maxMinutes: Int
    private let stream: RandomStream

    /// - Parameter slots: a power of two.
    init(family: StreamFamily, dayIndex: Int, midnight: SimTime, minMinutes: Int, maxMinutes: Int, stream: RandomStream,
         slots: Int = 1024) {
        self.slots = CacheSlots(count: slots)
        (self.family, self.dayIndex, self.midnight, self.minMinutes, self.maxMinutes, self.stream)
            = (family, dayIndex, midnight, minMinutes, maxMinutes, stream)
        capacity = RPIRotationSchedule.capacity(minMinutes: minMinutes)
        phones = .allocate(capacity: slots)
        phones.initialize(repeating: .max, count: slots)
        counts = .allocate(capacity: slots)
        counts.initialize(repeating: 0, count: slots)
        complete = .allocate(capacity: slots)
        complete.initialize(repeating: false, count: slots)
        offsets = .allocate(capacity: slots * capacity)
    }

    deinit {
        phones.deallocate()
        counts.deallocate()
        complete.deallocate()
        offsets.deallocate()
    }

    /// `phone`'s rotations of the day, drawn (again, further) unless its slot holds them through
    /// `second` (seconds since midnight): the same as `RPIRotationSchedule(… through: second)`
    /// answers about every time up to `second`.
    @inline(__always)
    func rotations(of phone: Int, through second: Int32) -> RPIRotationPeriods {
        let slot = slots.slot(of: UInt64(phone))
        let start = offsets + slot * capacity
        if phones[slot] != UInt64(phone) || !(complete[slot] || second < start[Int(counts[slot]) - 1]) {
            let drawn = RPIRotationSchedule.draw(family: family, phone: phone, dayIndex: dayIndex, minMinutes: minMinutes,
                                                 maxMinutes: maxMinutes, stream: stream, through: second,
                                                 into: UnsafeMutableBufferPointer(start: start, count: capacity))
            (phones[slot], counts[slot], complete[slot]) = (UInt64(phone), Int32(drawn.count), drawn.isComplete)
        }
        return RPIRotationPeriods(offsets: UnsafeBufferPointer(start: start, count: Int(counts[slot])), midnight: midnight,
                                  isComplete: complete[slot])
    }
}
