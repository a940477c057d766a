import Testing
@testable import World

/// Days beyond the in-memory window go to a temporary file and come back unchanged, in order.
@Suite struct CloseContactHistoryTests {
    func day(_ index: Int) -> GroundTruthDay {
        let n = index * 3 + 1
        return GroundTruthDay(dayIndex: index, pairs: (0..<n).map { UInt64($0) << 32 | UInt64(index + $0 + 1) },
                              secondsWithin: (0..<n).map { Int32(900 + $0) }, secondsTotal: (0..<n).map { _ in Int32(2_000 + index) },
                              closeContactSeconds: 900)
    }

    @Test func spilledDaysReadBackInOrder() throws {
        let history = CloseContactHistory(memoryDays: 2)
        for i in 0..<6 { try history.append(day(i)) }
        #expect(history.count == 6)
        let days = Array(history.days)
        #expect(days.map(\.dayIndex) == Array(0..<6))
        for (i, d) in days.enumerated() {
            let expected = day(i)
            #expect(d.pairs == expected.pairs && d.secondsWithin == expected.secondsWithin && d.secondsTotal == expected.secondsTotal)
            #expect(d.closeContactSeconds == 900)
        }
        // Walking the days again reads the file again.
        #expect(Array(history.days).map(\.pairs) == days.map(\.pairs))
    }

    @Test func anEmptyDaySpillsToo() throws {
        let history = CloseContactHistory(memoryDays: 1)
        try history.append(GroundTruthDay(dayIndex: 0, pairs: [], secondsWithin: [], secondsTotal: [], closeContactSeconds: 900))
        try history.append(day(1))
        #expect(Array(history.days).map(\.pairs.count) == [0, 4])
    }
}
