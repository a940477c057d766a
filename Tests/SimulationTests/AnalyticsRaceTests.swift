@testable import Analytics
import EventEngine
@testable import Simulation
import Testing

/// Two concurrent authorisation requests from the same iOS device, walked through the
/// interleavings: start offset, each worker's read_time and the DeviceCheck network delay.
@Suite struct AnalyticsRaceTests {
    static let t0 = (AnalyticsTests.start + 3_600) * 1000

    /// Tokens authorised out of two requests sent `delta` ms apart.
    static func race(delta: Int64, readTimes: (Int64, Int64), latency: Int64, checkTime: Int64 = 7_000) -> Int {
        var p = AnalyticsParameters()
        p.deviceCheckLatencyMs = latency...latency
        p.clientLatencyMs = 0...0
        p.checkTimeMs = checkTime
        let model = AnalyticsModel(parameters: p, seed: 1, start: AnalyticsTests.start, days: 1, phones: [])
        model.readTimeOverride = { $0 == 0 ? readTimes.0 : readTimes.1 }
        let a = model.scheduleAuthorisation(device: 0, atMs: t0)
        let b = model.scheduleAuthorisation(device: 0, atMs: t0 + delta)
        model.advance(until: model.end)
        return model.authorisedTokens.intersection([a, b]).count
    }

    static let readTimes: [Int64] = [0, 1, 1_500, 2_999, 3_000]

    /// With check_time at the seed's bound, the seed's worst case (a first read just before the
    /// other worker's write) is always caught. The only double authorisations left are
    /// interleavings whose two second reads fall within one DeviceCheck round trip of each other
    /// (both see the bits at 0 before either write lands), which no check_time can catch; with
    /// instant answers that window shrinks to reads in the same millisecond.
    @Test func atTheBoundOnlySecondReadsWithinOneRoundTripAuthoriseTwice() {
        for latency: Int64 in [0, 20, 400, 1_000] {
            var doubles = 0, singles = 0
            for delta in stride(from: Int64(0), through: 12_000, by: 100) {
                for r1 in Self.readTimes { for r2 in Self.readTimes {
                    let n = Self.race(delta: delta, readTimes: (r1, r2), latency: latency)
                    if n == 1 { singles += 1 }
                    if n > 1 {
                        doubles += 1
                        #expect(abs(delta + r2 - r1) <= 2 * latency, "delta \(delta) read times \(r1), \(r2), latency \(latency)")
                    }
                } }
            }
            #expect(singles > 0)
            #expect(doubles > 0)   // the residual window exists
        }
    }

    /// The seed's Figure 3 worst case: worker 1's first read lands just before worker 2 writes bit0.
    /// Below the bound worker 2 authorises and resets the bits before worker 1's second read, which
    /// then sees them at 0 and authorises a second token; at the bound the device is blacklisted instead.
    @Test func checkTimeBelowTheBoundAuthorisesTwice() {
        let latency: Int64 = 100
        // Worker 0 (read_time 0) writes bit0 at 5·latency; worker 1 starts so its first read lands 1 ms before.
        let delta = 4 * latency - 1
        #expect(Self.race(delta: delta, readTimes: (0, 3_000), latency: latency, checkTime: 1_000) == 2)
        #expect(Self.race(delta: delta, readTimes: (0, 3_000), latency: latency, checkTime: 7_000) <= 1)
    }
}
