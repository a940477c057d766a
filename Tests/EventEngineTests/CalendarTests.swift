@testable import EventEngine
import Foundation
import Testing

@Suite struct SimClockTests {
    @Test func bucketsRoundTowardNegativeInfinity() {
        #expect(SimClock.dayNumber(0) == 0)
        #expect(SimClock.dayNumber(86_399) == 0)
        #expect(SimClock.dayNumber(86_400) == 1)
        #expect(SimClock.dayNumber(-1) == -1)
        #expect(SimClock.dayNumber(-86_400) == -1)
        #expect(SimClock.dayNumber(-86_401) == -2)
        #expect(SimClock.startOfDay(-1) == -86_400)
        #expect(SimClock.startOfDay(1_586_525_825) == 1_586_476_800)
        #expect(SimClock.hourBucket(3_599) == 0)
        #expect(SimClock.hourBucket(-1) == -1)
        #expect(SimClock.hourOfDay(1_586_525_825) == 13)
        #expect(SimClock.hourOfDay(-1) == 23)
        #expect(SimClock.secondOfDay(-1) == 86_399)
    }
}

@Suite struct CivilCalendarTests {
    @Test(arguments: [
        (2000, 2, 29, Int64(11_016)), (2020, 3, 1, 18_322), (1969, 12, 31, -1), (1970, 1, 1, 0),
        (1900, 3, 1, -25_508), (1600, 1, 1, -135_140), (2400, 12, 31, 157_419), (2038, 1, 19, 24_855),
    ])
    func knownDayNumbers(year: Int, month: Int, day: Int, dayNumber: Int64) {
        #expect(CivilCalendar.dayNumber(year: year, month: month, day: day) == dayNumber)
        #expect(CivilCalendar.date(fromDayNumber: dayNumber) == CivilDate(year: year, month: month, day: day))
    }

    @Test func monthLengths() {
        #expect(CivilCalendar.daysInMonth(year: 2020, month: 2) == 29)
        #expect(CivilCalendar.daysInMonth(year: 2021, month: 2) == 28)
        #expect(CivilCalendar.daysInMonth(year: 1900, month: 2) == 28)
        #expect(CivilCalendar.daysInMonth(year: 2000, month: 2) == 29)
        #expect(CivilCalendar.daysInMonth(year: 2021, month: 4) == 30)
        #expect(CivilCalendar.daysInMonth(year: 2021, month: 12) == 31)
        #expect(YearMonth(year: 2020, month: 2).numberOfDays == 29)
        let lengths2021 = (1...12).map { CivilCalendar.daysInMonth(year: 2021, month: $0) }
        #expect(lengths2021 == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(lengths2021.reduce(0, +) == 365)
    }

    @Test func monthStartsAndRollover() {
        let midDecember = CivilCalendar.time(year: 2020, month: 12, day: 15, hour: 12)
        #expect(CivilCalendar.yearMonth(of: midDecember) == YearMonth(year: 2020, month: 12))
        #expect(CivilCalendar.startOfMonth(containing: midDecember) == CivilCalendar.time(year: 2020, month: 12, day: 1))
        #expect(CivilCalendar.startOfNextMonth(after: midDecember) == CivilCalendar.time(year: 2021, month: 1, day: 1))
        #expect(YearMonth(year: 2020, month: 12).next == YearMonth(year: 2021, month: 1))
        #expect(YearMonth(year: 2021, month: 1).previous == YearMonth(year: 2020, month: 12))
        // The month's start plus its length is the next month's start.
        var month = YearMonth(year: 2019, month: 1)
        while month < YearMonth(year: 2022, month: 1) {
            #expect(month.start + Int64(month.numberOfDays) * SimDuration.day == month.next.start)
            #expect(YearMonth(containing: month.next.start - 1) == month)
            month = month.next
        }
        #expect(CivilCalendar.startOfMonth(year: 2020, month: 2) + 29 * SimDuration.day
                == CivilCalendar.startOfMonth(year: 2020, month: 3))
        #expect(YearMonth(year: 2020, month: 3).description == "2020-03")
    }

    @Test func consecutiveDaysRoundTrip() {
        // Every day from 1600 to 2400: day number -> date -> day number, dates advance by one day.
        var previous = CivilCalendar.date(fromDayNumber: -135_141)
        for dayNumber in Int64(-135_140)...157_419 {
            let date = CivilCalendar.date(fromDayNumber: dayNumber)
            guard date.isValid, date.dayNumber == dayNumber else {
                Issue.record("day \(dayNumber) -> \(date) -> \(date.dayNumber)"); return
            }
            let expectedNext = previous.day < CivilCalendar.daysInMonth(year: previous.year, month: previous.month)
                ? CivilDate(year: previous.year, month: previous.month, day: previous.day + 1)
                : previous.month < 12 ? CivilDate(year: previous.year, month: previous.month + 1, day: 1)
                : CivilDate(year: previous.year + 1, month: 1, day: 1)
            if date != expectedNext { Issue.record("day \(dayNumber): \(date), expected \(expectedNext)"); return }
            previous = date
        }
    }

    @Test func agreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var state: UInt64 = 0x5EED
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let t = Int64(bitPattern: state >> 1) % 8_000_000_000 - 2_000_000_000   // ~1906...2223
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(t)))
            #expect(CivilDate(containing: t) == CivilDate(year: parts.year!, month: parts.month!, day: parts.day!), "t = \(t)")
        }
    }

    @Test func isoStrings() {
        #expect(CivilCalendar.isoDateString(0) == "1970-01-01")
        #expect(CivilCalendar.isoDateString(-1) == "1969-12-31")
        #expect(CivilCalendar.isoDateString(1_586_525_825) == "2020-04-10")
        #expect(CivilCalendar.isoDateTimeString(1_586_525_825) == "2020-04-10T13:37:05Z")
        #expect(CivilDate(year: 987, month: 6, day: 5).description == "0987-06-05")
        #expect(CivilCalendar.parseISODate("2020-02-29") == CivilDate(year: 2020, month: 2, day: 29))
        #expect(CivilCalendar.parseISODateToTime("2020-04-10") == 1_586_476_800)
        #expect(CivilCalendar.parseISODateTime("2020-04-10T13:37:05Z") == 1_586_525_825)
        #expect(CivilCalendar.parseISODateTime("2020-04-10") == 1_586_476_800)
        for bad in ["2021-02-29", "2020-13-01", "2020-00-10", "2020-04-31", "2020-4-10", "20-04-10",
                    "2020/04/10", "2020-04-1x", "", "2020-04-10 "] {
            #expect(CivilCalendar.parseISODate(bad) == nil, "\(bad)")
        }
        for bad in ["2020-04-10T24:00:00Z", "2020-04-10T13:37:05", "2020-04-10T13:60:05Z", "2020-04-10X13:37:05Z"] {
            #expect(CivilCalendar.parseISODateTime(bad) == nil, "\(bad)")
        }
    }

    @Test func isoRoundTrip() {
        for dayNumber in stride(from: Int64(-3_000), through: 40_000, by: 7) {
            let t = dayNumber * SimDuration.day + (dayNumber * 7_919) % SimDuration.day
            #expect(CivilCalendar.parseISODateToTime(CivilCalendar.isoDateString(t)) == SimClock.startOfDay(t))
            #expect(CivilCalendar.parseISODateTime(CivilCalendar.isoDateTimeString(t)) == t)
        }
    }
}
