/// Proleptic Gregorian calendar dates in UTC, computed with integer arithmetic.
///
/// Foundation's `Calendar` is slow, allocates and needs care across threads; the
/// simulator asks "which month is this?" millions of times, so dates are converted
/// with the days-from-civil formulas (400-year eras of 146,097 days, years starting
/// on 1 March so the leap day is the last day of the shifted year).

/// A calendar day.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    /// 1...12
    public var month: Int
    /// 1...31
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day containing `t`.
    @inlinable
    public init(containing t: SimTime) {
        self = CivilCalendar.date(fromDayNumber: SimClock.dayNumber(t))
    }

    /// Whether the month is 1...12 and the day exists in that month.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilCalendar.daysInMonth(year: year, month: month)
    }

    /// Days since 1970-01-01.
    @inlinable
    public var dayNumber: Int64 { CivilCalendar.dayNumber(year: year, month: month, day: day) }

    /// Midnight UTC starting this day.
    @inlinable
    public var start: SimTime { dayNumber * SimDuration.day }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// "YYYY-MM-DD"
    public var description: String { CivilCalendar.isoDateString(self) }
}

/// A calendar month.
public struct YearMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    /// 1...12
    public var month: Int

    public init(year: Int, month: Int) {
        precondition((1...12).contains(month), "month \(month) out of 1...12")
        self.year = year
        self.month = month
    }

    /// The month containing `t`.
    public init(containing t: SimTime) {
        let date = CivilDate(containing: t)
        self.init(year: date.year, month: date.month)
    }

    /// Real length: 28...31 days.
    public var numberOfDays: Int { CivilCalendar.daysInMonth(year: year, month: month) }

    /// Midnight UTC on the 1st.
    public var start: SimTime { CivilDate(year: year, month: month, day: 1).start }

    /// The following month (December rolls over into January of the next year).
    public var next: YearMonth {
        month == 12 ? YearMonth(year: year + 1, month: 1) : YearMonth(year: year, month: month + 1)
    }

    /// The preceding month.
    public var previous: YearMonth {
        month == 1 ? YearMonth(year: year - 1, month: 12) : YearMonth(year: year, month: month - 1)
    }

    public static func < (a: YearMonth, b: YearMonth) -> Bool {
        (a.year, a.month) < (b.year, b.month)
    }

    /// "YYYY-MM"
    public var description: String {
        CivilCalendar.zeroPadded(year, width: 4) + "-" + CivilCalendar.zeroPadded(month, width: 2)
    }
}

public enum CivilCalendar {
    /// Days between 0000-03-01 and 1970-01-01 in the proleptic Gregorian calendar.
    @usableFromInline static let daysFromShiftedEpochTo1970: Int64 = 719_468
    @usableFromInline static let daysPerEra: Int64 = 146_097

    /// Days since 1970-01-01 of a civil date (the date need not be valid; days overflow linearly).
    @inlinable
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int64 {
        // Count years from March so February (and its leap day) ends the year.
        let shiftedYear = Int64(year) - (month <= 2 ? 1 : 0)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400                                  // 0...399
        let monthFromMarch = Int64(month > 2 ? month - 3 : month + 9)            // 0...11
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1          // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * daysPerEra + dayOfEra - daysFromShiftedEpochTo1970
    }

    /// Civil date of a day number (days since 1970-01-01).
    @inlinable
    public static func date(fromDayNumber dayNumber: Int64) -> CivilDate {
        let shifted = dayNumber + daysFromShiftedEpochTo1970
        let era = (shifted >= 0 ? shifted : shifted - (daysPerEra - 1)) / daysPerEra
        let dayOfEra = shifted - era * daysPerEra                                // 0...146096
        // Remove the leap days before this day of the era to get the year of the era.
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return CivilDate(year: Int(year), month: Int(month), day: Int(day))
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Number of days in a month: 28...31.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        precondition((1...12).contains(month), "month \(month) out of 1...12")
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Calendar month containing `t`.
    public static func yearMonth(of t: SimTime) -> YearMonth { YearMonth(containing: t) }

    /// Midnight UTC on the 1st of a month.
    public static func startOfMonth(year: Int, month: Int) -> SimTime {
        YearMonth(year: year, month: month).start
    }

    /// Midnight UTC on the 1st of the month containing `t`.
    public static func startOfMonth(containing t: SimTime) -> SimTime {
        YearMonth(containing: t).start
    }

    /// Midnight UTC on the 1st of the month after the one containing `t`.
    public static func startOfNextMonth(after t: SimTime) -> SimTime {
        YearMonth(containing: t).next.start
    }

    /// Time at a UTC date and time of day (fields outside their ranges overflow linearly).
    public static func time(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> SimTime {
        dayNumber(year: year, month: month, day: day) * SimDuration.day
            + Int64(hour) * SimDuration.hour + Int64(minute) * SimDuration.minute + Int64(second)
    }

    // MARK: ISO 8601 text

    /// "YYYY-MM-DD" of the UTC day containing `t`.
    public static func isoDateString(_ t: SimTime) -> String {
        isoDateString(CivilDate(containing: t))
    }

    /// "YYYY-MM-DD"
    public static func isoDateString(_ date: CivilDate) -> String {
        zeroPadded(date.year, width: 4) + "-" + zeroPadded(date.month, width: 2) + "-" + zeroPadded(date.day, width: 2)
    }

    /// "YYYY-MM-DDTHH:MM:SSZ"
    public static func isoDateTimeString(_ t: SimTime) -> String {
        let second = SimClock.secondOfDay(t)
        return isoDateString(t) + "T" + zeroPadded(Int(second / 3_600), width: 2) + ":"
            + zeroPadded(Int(second / 60 % 60), width: 2) + ":" + zeroPadded(Int(second % 60), width: 2) + "Z"
    }

    /// Parses "YYYY-MM-DD" (four-digit year) into a valid civil date; nil if malformed or the day does not exist.
    public static func parseISODate(_ text: some StringProtocol) -> CivilDate? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = decimal(bytes[0..<4]), let month = decimal(bytes[5..<7]), let day = decimal(bytes[8..<10])
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }

    /// Midnight UTC of a "YYYY-MM-DD" date; nil if malformed.
    public static func parseISODateToTime(_ text: some StringProtocol) -> SimTime? {
        parseISODate(text)?.start
    }

    /// Parses "YYYY-MM-DD" (midnight UTC) or "YYYY-MM-DDTHH:MM:SSZ"; nil if malformed.
    public static func parseISODateTime(_ text: some StringProtocol) -> SimTime? {
        let bytes = Array(text.utf8)
        if bytes.count == 10 { return parseISODateToTime(text) }
        guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
              let date = parseISODate(String(decoding: bytes[0..<10], as: UTF8.self)),
              let hour = decimal(bytes[11..<13]), let minute = decimal(bytes[14..<16]),
              let second = decimal(bytes[17..<19]), hour < 24, minute < 60, second < 60
        else { return nil }
        return date.start + Int64(hour) * SimDuration.hour + Int64(minute) * SimDuration.minute + Int64(second)
    }

    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
