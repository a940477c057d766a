/// A small direct-mapped cache of one day's per-phone schedules (scan phase, RPI rotations).
///
/// A schedule is a pure function of (seed, phone, day), yet the radio needs it for both
/// directions of every contact: rebuilding it each time drew ~100 rotation times per contact.
/// An initiator's contacts come one after the other, so even a small cache hits most of the time.
struct PhoneScheduleCache<Value> {
    private var phones: [Int32]
    private var values: [Value?]
    private let mask: Int

    /// - Parameter slots: a power of two.
    init(slots: Int = 1024) {
        precondition(slots > 0 && slots & (slots - 1) == 0, "slots must be a power of two")
        phones = [Int32](repeating: -1, count: slots)
        values = [Value?](repeating: nil, count: slots)
        mask = slots - 1
    }

    /// The cached value of `phone`, or `make()`'s (then cached in the phone's slot).
    @inline(__always)
    mutating func value(phone: Int, make: () -> Value) -> Value {
        let slot = phone & mask
        if phones[slot] == Int32(phone), let v = values[slot] { return v }
        let v = make()
        phones[slot] = Int32(phone)
        values[slot] = v
        return v
    }
}
