import EventEngine
import Simulation
import Testing
import World

@Suite struct RunEstimateTests {
    func config(people: Int, adoption: Double = 0.4, days: Int = 28, threads: Int = 1) -> SimulationConfig {
        SimulationConfig(name: "estimate", seed: 1, start: CivilCalendar.time(year: 2020, month: 10, day: 1), days: days,
                         population: PopulationParameters(size: people, appAdoption: adoption), threads: threads)
    }

    @Test func memoryGrowsWithPeopleAppPhonesAndKeptDays() {
        let small = RunEstimate(config: config(people: 100_000)), large = RunEstimate(config: config(people: 1_000_000))
        #expect(large.appPhones == 400_000 && small.appPhones == 40_000)
        // Linear in the population beyond the fixed part.
        let fixed = Int64(RunEstimate.Coefficients.fixedBytes)
        #expect(abs(Double(large.peakBytes - fixed) / Double(small.peakBytes - fixed) - 10) < 0.01)
        #expect(RunEstimate(config: config(people: 100_000, adoption: 0.8)).peakBytes > small.peakBytes)
        // Encounters are kept 14 days: a year needs what a month does.
        #expect(RunEstimate(config: config(people: 100_000, days: 365)).peakBytes == small.peakBytes)
        #expect(RunEstimate(config: config(people: 100_000, days: 3)).peakBytes < small.peakBytes)
        var epidemic = config(people: 100_000)
        epidemic.epidemic.enabled = true
        let withEpidemic = RunEstimate(config: epidemic)
        epidemic.epidemic.manualTracing.enabled = true
        epidemic.epidemic.counterfactual = true
        let withTracing = RunEstimate(config: epidemic)
        #expect(small.peakBytes < withEpidemic.peakBytes && withEpidemic.peakBytes < withTracing.peakBytes)
        #expect(withEpidemic.seconds == small.seconds && withTracing.seconds == 2 * small.seconds, "the counterfactual runs twice")
        // Detection's key index grows with the national uploads a day.
        var national = config(people: 100_000)
        national.health.nationalUploadsPerDay = 300
        #expect(RunEstimate(config: national).peakBytes - small.peakBytes > 100_000_000)
        // The run's built state stays beside its counterfactual.
        epidemic.epidemic.counterfactual = false
        let once = RunEstimate(config: epidemic)
        #expect(withTracing.peakBytes - once.peakBytes > Int64(100_000 * RunEstimate.Coefficients.bytesPerPerson))
    }

    /// Temporary files hold 14 days of encounter metadata and scans, and every day's close contacts.
    @Test func temporaryFilesGrowWithDaysBeyondTheEncounterWindow() {
        typealias C = RunEstimate.Coefficients
        let month = RunEstimate(config: config(people: 100_000)), twoMonths = RunEstimate(config: config(people: 100_000, days: 56))
        #expect(Double(twoMonths.diskBytes - month.diskBytes) == 100_000 * C.closeContactDiskBytesPerPersonDay * 28)
        let spilledPerAppPhoneDay = C.encounterBytesPerAppPhoneDay - C.encounterMemoryBytesPerAppPhoneDay
        #expect(Double(month.diskBytes) == 40_000 * spilledPerAppPhoneDay * 14 + 100_000 * C.closeContactDiskBytesPerPersonDay * 28)
        // Without them, memory is what `ensim bench population --phones 1000000 --days 28` measured
        // (1.24 GB peak RSS, docs/benchmarks.md), within the estimate's stated 30%.
        let million = RunEstimate(config: config(people: 1_000_000))
        #expect(abs(Double(million.peakBytes) / 1.243e9 - 1) < 0.3)
    }

    @Test func keepingEveryPairCostsMemory() {
        var c = config(people: 100_000)
        let lean = RunEstimate(config: c)
        c.retainsGroundTruth = true
        #expect(RunEstimate(config: c).peakBytes > lean.peakBytes)
    }

    /// P6 beside GAEN keeps its own Rx traces: Scenarios/p6-vs-gaen.yaml at 50,000 people peaked at
    /// 867 MB with P6 and 174 MB without; the estimate had left P6 out (235 MB).
    @Test func p6MemoryIsCounted() {
        var c = config(people: 50_000, adoption: 0.6, days: 14)
        let gaen = RunEstimate(config: c)
        c.p6.enabled = true
        let p6 = RunEstimate(config: c)
        #expect(abs(Double(p6.peakBytes) / 867e6 - 1) < 0.3)
        #expect(p6.seconds > 5 * gaen.seconds)
        // Rx traces are kept 14 days; disclosures and matches grow with the run.
        c.days = 28
        #expect(RunEstimate(config: c).peakBytes > p6.peakBytes)
    }

    /// P6 scaled replay: memory grows with the square of the relay devices per app phone, so a short
    /// run with many attacks needs tens of GB (found by .ci/fuzz-scenarios) and is refused, not killed.
    @Test func scaledReplayMemoryGrowsWithTheSquareOfRelaysPerPhone() {
        func replay(attacks: Int, relays: Int = 200, days: Int = 2) -> RunEstimate {
            var c = config(people: 5_000, adoption: 0.6, days: days)
            c.p6.enabled = true
            c.p6.attacks.replayAttacks = attacks
            c.p6.attacks.replayRelays = relays
            return RunEstimate(config: c)
        }
        #expect(replay(attacks: 0).replayBytes == 0 && replay(attacks: 0).replayRelaysPerPhone == 0)
        // Two days: every attack relays at once, 200 attacks × 200 relays over 3,000 app phones.
        let measured = replay(attacks: 200)
        #expect(abs(measured.replayRelaysPerPhone - 200.0 * 200 / 3_000) < 1e-9)
        // p6-replay-clean.yaml with 200 attacks, 2 days: 1.08 GB peak RSS (docs/model/p6.md).
        #expect(abs(Double(measured.peakBytes) / 1.076e9 - 1) < 0.3)
        let doubled = replay(attacks: 400)
        #expect(Double(doubled.replayBytes) / Double(measured.replayBytes) > 3.5)
        #expect(replay(attacks: 1_000).peakBytes > 20_000_000_000)
        // Over 14 days the attacks spread out (one start day in 13): far less at once.
        let spread = replay(attacks: 1_000, days: 14)
        #expect(abs(spread.replayRelaysPerPhone - 1_000.0 / 13 * 200 / 3_000) < 1e-9)
        #expect(abs(Double(spread.peakBytes) / 2.06e9 - 1) < 0.3, "measured 2.06 GB")
    }

    /// CDN clients beyond the app phones check for new files every hour: Scenarios/cwa-bandwidth.yaml
    /// (30 M clients, 7 days) took 216 s on 2 threads, where the estimate had said 0 s.
    @Test func clientsBeyondTheAppPhonesTakeTime() {
        var c = config(people: 5_000, days: 7, threads: 2)
        let few = RunEstimate(config: c)
        c.distribution.clients = 30_000_000
        let many = RunEstimate(config: c)
        #expect(abs((many.seconds - few.seconds) / 216 - 1) < 0.3)
        c.distribution.checkIntervalSeconds = 7_200
        #expect(abs(RunEstimate(config: c).seconds - few.seconds - (many.seconds - few.seconds) / 2) < 1e-6)
    }

    /// National uploads: Scenarios/year.yaml (10,000 people, 365 days) with 300 uploads a day took
    /// 36 s and 334 MB, with 1,000 101 s and 977 MB; the estimate had said 8 s for both.
    @Test func nationalUploadsTakeTimeAndMemoryForTheWholeRun() {
        var c = config(people: 10_000, adoption: 0.25, days: 365, threads: 2)
        c.health.nationalUploadsPerDay = 300
        let year300 = RunEstimate(config: c)
        c.health.nationalUploadsPerDay = 1_000
        let year1000 = RunEstimate(config: c)
        #expect(abs(year300.seconds / 36 - 1) < 0.3 && abs(year1000.seconds / 101 - 1) < 0.3)
        #expect(abs(Double(year300.peakBytes) / 334e6 - 1) < 0.3 && abs(Double(year1000.peakBytes) / 977e6 - 1) < 0.3)
    }

    /// Immuni analytics: immuni-analytics-simulated.yaml at 40,000 people (16,000 app phones, 61 days,
    /// a 5-point sweep) peaked at 349 MB in 23.6 s on 2 threads; the estimate had left analytics out.
    @Test func analyticsAndItsSweepAreCounted() {
        var c = config(people: 40_000, adoption: 0.4, days: 61, threads: 2)
        let without = RunEstimate(config: c)
        c.analytics.enabled = true
        c.analytics.detections = .simulated
        let alone = RunEstimate(config: c)
        c.analytics.sweepPWithoutExposure = [0.1, 0.325, 0.55, 0.775, 1]
        let swept = RunEstimate(config: c)
        #expect(without.peakBytes < alone.peakBytes && alone.peakBytes < swept.peakBytes && without.seconds < alone.seconds)
        #expect(abs(Double(swept.peakBytes) / 349e6 - 1) < 0.3 && abs(swept.seconds / 23.6 - 1) < 0.3)
        c.analytics.detections = .synthetic
        #expect(RunEstimate(config: c).peakBytes < swept.peakBytes, "one synthetic detection per 4 h, not ~18.5 a day")
    }

    @Test func timeGrowsWithPersonDays() {
        let a = RunEstimate(config: config(people: 100_000, days: 28)), b = RunEstimate(config: config(people: 100_000, days: 56))
        #expect(abs(b.seconds / a.seconds - 2) < 1e-9)
    }

    @Test func textNamesMemoryAndTime() {
        #expect(RunEstimate.bytesText(2_500_000_000) == "2.5 GB" && RunEstimate.bytesText(98_000_000) == "98 MB")
        #expect(RunEstimate.durationText(30) == "30 s" && RunEstimate.durationText(600) == "10 min" && RunEstimate.durationText(9000) == "2.5 h")
    }

    /// "needs about 24.6 GB … but 24.6 GB is available" read as a contradiction: amounts set against
    /// each other get the decimals that tell them apart.
    @Test func amountsComparedInOneMessageReadDifferently() {
        #expect(RunEstimate.bytesTexts(24_640_000_000, 24_610_000_000) == ("24.64 GB", "24.61 GB"))
        #expect(RunEstimate.bytesTexts(24_600_400_000, 24_600_100_000) == ("24.600 GB", "24.600 GB"))
        #expect(RunEstimate.bytesTexts(2_500_000_000, 1_200_000_000) == ("2.5 GB", "1.2 GB"))
        #expect(RunEstimate.bytesTexts(98_400_000, 98_100_000) == ("98.4 MB", "98.1 MB"))
        #expect(RunEstimate.bytesTexts(5_000_000_000, 5_000_000_000) == ("5.0 GB", "5.0 GB"))
    }
}
