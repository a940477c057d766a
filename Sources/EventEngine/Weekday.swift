extension CivilCalendar {
    /// Day of the week of `t`: 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    public static func weekday(of t: SimTime) -> Int {
        Int(SimClock.floorModulo(SimClock.dayNumber(t) + 3, 7))
    }
}
