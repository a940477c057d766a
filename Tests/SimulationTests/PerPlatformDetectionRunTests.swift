import Detection
@testable import Simulation
import Testing

@Suite struct PerPlatformDetectionRunTests {
    /// CWA 1.0–1.6: iPhones 24 h after the last detection, Android phones once per UTC day; the
    /// summary counts each platform, and the run is the same for 1 and 3 threads.
    @Test func perPlatformScheduleRunsAreIdenticalWhateverTheThreads() throws {
        func config(threads: Int) -> SimulationConfig {
            var c = RadioFidelityTests.config(threads: threads) { _ in }
            c.detection.schedule = DetectionSchedule(ios: .init(minIntervalSeconds: 86_400), android: .init(maxPerUTCDay: 1))
            return c
        }
        let one = try Simulation(config: config(threads: 1)).run().summary
        let three = try Simulation(config: config(threads: 3)).run().summary
        #expect(one.detection == three.detection && one.health == three.health)
        let s = try #require(one.detection.schedule)
        let ios = try #require(s.ios), android = try #require(s.android)
        #expect(ios.minIntervalSeconds == 86_400 && ios.maxPerUTCDay == 0 && android.minIntervalSeconds == 0 && android.maxPerUTCDay == 1)
        #expect(ios.detections > 0 && android.detections > 0 && ios.detections + android.detections == s.detections)
        #expect(ios.filesHeld + android.filesHeld == s.filesHeld && s.filesHeld > 0)
    }
}
