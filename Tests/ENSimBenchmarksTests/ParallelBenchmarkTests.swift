import Testing
@testable import ENSimBenchmarks

@Suite struct ParallelBenchmarkTests {
    /// Met only when the whole interval is at or above 90%; one round has no interval.
    @Test func verdictNeedsTheWholeIntervalOnOneSide() {
        #expect(ParallelBenchmark.verdict((0.95, 0.91, 0.99), rounds: 5) == "met: 95.0% (95% interval 91.0–99.0% over 5 rounds)")
        #expect(ParallelBenchmark.verdict((0.92, 0.90, 0.96), rounds: 5).hasPrefix("met: 92.0%"))
        #expect(ParallelBenchmark.verdict((0.92, 0.88, 0.96), rounds: 5).hasPrefix("not shown: 92.0%"))
        #expect(ParallelBenchmark.verdict((0.85, 0.80, 0.89), rounds: 5).hasPrefix("not met: 85.0%"))
        #expect(ParallelBenchmark.verdict((0.93, 0, .infinity), rounds: 1) == "not shown: 93.0% (one round: no interval) straddles 90%")
    }
}
