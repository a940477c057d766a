import Testing
import GAEN

@Suite struct ENIntervalNumberTests {
    @Test func intervalsAreTenMinutesSinceTheEpoch() {
        #expect(ENIntervalNumber.secondsPerInterval == 600)
        #expect(ENIntervalNumber(unixTime: 599).rawValue == 0)
        #expect(ENIntervalNumber(unixTime: 600).rawValue == 1)
        #expect(ENIntervalNumber(unixTime: 1_586_525_825).rawValue == 2_644_209)
        #expect(ENIntervalNumber(2_644_209).unixTime == 1_586_525_400)
    }

    @Test func timesBeforeTheEpochClampToIntervalZero() {
        #expect(ENIntervalNumber(unixTime: -1).rawValue == 0)
    }
}
