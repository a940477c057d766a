/// Simulated time: whole seconds since 1970-01-01T00:00:00Z (UTC, no leap seconds).
///
/// Integer seconds keep the event order exact and reproducible across platforms;
/// every quantity the simulator needs (protocol intervals, days, hours, calendar months)
/// is a whole number of seconds.
public typealias SimTime = Int64

/// Fixed-length time units, in seconds.
public enum SimDuration {
    public static let minute: Int64 = 60
    public static let hour: Int64 = 3_600
    public static let day: Int64 = 86_400
    public static let week: Int64 = 604_800
}

/// Time bucketing that the stages and reports need (protocol intervals live with their
/// protocol, e.g. GAEN's `ENIntervalNumber`).
///
/// All divisions round toward negative infinity, so times before 1970 fall into the
/// bucket that contains them (Swift's `/` would round -1 s into day 0 instead of day -1).
public enum SimClock {
    /// Day number: whole days since 1970-01-01 (day 0).
    @inlinable
    public static func dayNumber(_ t: SimTime) -> Int64 {
        floorDivide(t, SimDuration.day)
    }

    /// Midnight UTC at or before `t`.
    @inlinable
    public static func startOfDay(_ t: SimTime) -> SimTime {
        dayNumber(t) * SimDuration.day
    }

    /// Hour bucket: whole hours since the epoch.
    @inlinable
    public static func hourBucket(_ t: SimTime) -> Int64 {
        floorDivide(t, SimDuration.hour)
    }

    /// Hour of the UTC day, 0...23.
    @inlinable
    public static func hourOfDay(_ t: SimTime) -> Int {
        Int(floorModulo(t, SimDuration.day) / SimDuration.hour)
    }

    /// Seconds since midnight UTC, 0..<86400.
    @inlinable
    public static func secondOfDay(_ t: SimTime) -> Int64 {
        floorModulo(t, SimDuration.day)
    }

    @inlinable
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inlinable
    static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 {
        a - floorDivide(a, b) * b
    }
}
