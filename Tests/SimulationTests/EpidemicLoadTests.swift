@testable import Epidemic
import EventEngine
import GSL
@testable import Simulation
import SimulationCore
import Testing
@testable import World

/// What the epidemic asks of health systems (load_daily.csv), manual tracing within its capacity,
/// the counterfactual's daily column and the reproduction-number estimate.
@Suite struct EpidemicLoadTests {
    static func integers(_ table: ResultTable, _ column: String) -> [Int] {
        table.column(column).map { cell in
            guard case .integer(let v) = cell else { Issue.record("\(column) holds \(cell)"); return 0 }
            return Int(v)
        }
    }

    static func table(_ results: SimulationResults, _ name: String) throws -> ResultTable {
        try #require(results.tables.first { $0.name == name }).table
    }

    static func tracingConfig(workers: Double) -> SimulationConfig {
        var c = EpidemicRunTests.config(days: 14)
        c.epidemic.hazardPerMinute = 0.01
        c.epidemic.manualTracing.enabled = true
        c.epidemic.manualTracing.workersPer100k = workers
        c.epidemic.manualTracing.quarantineCompliance = 1
        c.epidemic.manualTracing.testProbability = 1
        return c
    }

    /// load_daily.csv's days add up to the summary's totals, and its app columns agree with daily.csv.
    @Test func loadTableAddsUpToTheSummary() throws {
        let results = try Simulation(config: Self.tracingConfig(workers: 2_000)).run()
        let e = try #require(results.summary.epidemic)
        let load = try Self.table(results, "load_daily.csv")
        #expect(load.columns == ["day", "date"] + EpidemicLedger.loadColumns)
        let sum = { (column: String) in Self.integers(load, column).reduce(0, +) }
        #expect(sum("tests_symptoms") == e.testsForSymptoms && sum("tests_app_notification") == e.testsAfterNotification)
        #expect(sum("tests_manual_tracing") == e.load.testsAfterManualTracing && e.load.testsAfterManualTracing > 0)
        #expect(sum("tests") == e.testsForSymptoms + e.testsAfterNotification + e.load.testsAfterManualTracing)
        #expect(sum("positives") == e.positivesForSymptoms + e.positivesAfterNotification + e.load.positivesAfterManualTracing)
        #expect(sum("app_notified") == e.notified && sum("quarantine_orders_app") == e.load.quarantineOrdersApp)
        #expect(sum("people_quarantined") + sum("people_isolated") == e.confinedPersonDays)
        #expect(sum("hotline_calls_teletan") == results.summary.health.funnel.teleTAN)
        #expect(Self.integers(load, "app_notified") == Self.integers(results.daily, "epi_notified"))
        for (daily, loadColumn) in [("epi_tests_manual_tracing", "tests_manual_tracing"), ("epi_quarantine_starts_manual", "quarantine_orders_manual"),
                                    ("epi_quarantined", "people_quarantined"), ("epi_isolated", "people_isolated")] {
            #expect(Self.integers(results.daily, daily) == Self.integers(load, loadColumn), "\(daily)")
        }
        #expect(e.uploadingCases == results.summary.health.funnel.uploaded)
        #expect(e.notifiedPerUploadingCase == (e.uploadingCases > 0 ? Double(e.notified) / Double(e.uploadingCases) : nil))
        var threads = Self.tracingConfig(workers: 2_000)
        threads.threads = 3
        #expect(try Simulation(config: threads).run() == results, "manual tracing is independent of the thread count")
    }

    /// The people quarantined each day split into app and manual tracing; the people symptomatic
    /// at each day's end agree with the onsets and recoveries drawn (recounted on the last day).
    @Test func quarantinedBySourceAndSymptomatic() throws {
        let sim = try Simulation(config: Self.tracingConfig(workers: 2_000))
        let results = try sim.run()
        let quarantined = Self.integers(results.daily, "epi_quarantined")
        let app = Self.integers(results.daily, "epi_quarantined_app"), manual = Self.integers(results.daily, "epi_quarantined_manual")
        #expect(zip(app, manual).map(+) == quarantined && app.reduce(0, +) > 0 && manual.reduce(0, +) > 0)
        #expect(app.allSatisfy { $0 >= 0 } && manual.allSatisfy { $0 >= 0 })
        let epidemic = try #require(sim.epidemic)
        let end = sim.config.start + Int64(sim.config.days) * SimDuration.day
        let recovered = epidemic.state.recoveredAt
        let expected = epidemic.symptomOnset.indices.filter { p in
            let onset = epidemic.symptomOnset[p]
            return onset < recovered[p] && onset < end && recovered[p] >= end
        }.count
        let symptomatic = Self.integers(results.daily, "epi_symptomatic")
        #expect(symptomatic.last == expected && expected > 0)
        #expect(symptomatic.allSatisfy { $0 >= 0 })
    }

    /// Each day's interviews and calls stay within the staff's capacity; without staff nobody is
    /// interviewed and the positives wait.
    @Test func tracingStaysWithinItsCapacity() throws {
        for workers in [0.0, 250, 100_000] {
            let config = Self.tracingConfig(workers: workers)
            let results = try Simulation(config: config).run()
            let load = try Self.table(results, "load_daily.csv")
            let capacity = config.epidemic.manualTracing.capacity(population: config.populationSize)
            #expect(Self.integers(load, "tracing_interviews").allSatisfy { $0 <= capacity.interviews })
            #expect(Self.integers(load, "tracing_calls").allSatisfy { $0 <= capacity.calls })
            let e = try #require(results.summary.epidemic)
            switch workers {
            case 0:
                #expect(e.load.tracingInterviews == 0 && e.load.tracingCalls == 0 && e.load.peakInterviewBacklog > 0)
            case 250:
                #expect(capacity.interviews == 12 && e.load.peakCallBacklog > 0, "a small office falls behind")
            default:
                #expect(e.load.peakInterviewBacklog == 0 && e.load.peakCallBacklog == 0 && e.load.tracingCalls > 0)
            }
        }
    }

    /// An interview names exactly the contacts of its window in traceable layers, each once.
    @Test func anInterviewNamesTheTraceableContactsOfItsWindow() {
        var p = ManualTracingParameters()
        p.traceableShare = [1, 0, 0, 1, 0]
        let tracing = ManualTracing(p, population: 100_000, expiryDays: 10, seed: 1)
        func day(_ contacts: [(Int32, Int32, ContactLayer)]) -> [TraceableContact] {
            let namer = tracing.namer()
            for (a, b, layer) in contacts { namer.record(a, b, layer: layer) }
            return namer.named
        }
        tracing.keep(day: 0, day([(1, 2, .household), (3, 1, .community)]))        // before the window
        tracing.keep(day: 2, day([(1, 4, .household), (5, 1, .community), (1, 6, .workplace), (7, 8, .household)]))
        tracing.keep(day: 3, day([(1, 4, .household), (9, 1, .household)]))
        let midnight = CivilCalendar.time(year: 2020, month: 10, day: 4)
        tracing.interview(1, due: midnight, fromDay: 2)
        let done = tracing.run(day: 3, end: midnight + SimDuration.day) { _ in false }
        #expect(done.interviews == 1)
        #expect(done.calls.sorted() == [4, 5, 9], "household and community contacts of days 2–3; not the workplace one, not day 0")
    }

    /// A partly traceable layer names each ordered pair with its share, from the pair's own draw.
    @Test func namingDrawsFollowTheLayersShare() {
        let namer = ContactNamer(shares: [1, 0.8, 0.8, 0.05, 0.05], seed: 7)
        for a in Int32(0)..<2_000 { namer.record(a, a + 10_000, layer: .community) }
        let share = Double(namer.named.count) / 4_000
        let ci = Proportion.clopperPearson(successes: namer.named.count, trials: 4_000, confidence: 0.999)
        #expect(ci.lower < 0.05 && 0.05 < ci.upper, "\(share)")
        let again = ContactNamer(shares: [1, 0.8, 0.8, 0.05, 0.05], seed: 7)
        for a in Int32(0)..<2_000 { again.record(a, a + 10_000, layer: .community) }
        #expect(again.named == namer.named)
    }

    /// Symptom onsets, tests, the infectious periods and confinements are engine events: their
    /// counts agree with the epidemic's tables, and a run without the block has no such kinds.
    @Test func theEpidemicRunsOnTheEventEngine() throws {
        var config = EpidemicRunTests.config(days: 12)
        config.epidemic.quarantineDays = 3  // windows that end within the run
        config.epidemic.isolationDays = 3
        let results = try Simulation(config: config).run()
        let e = try #require(results.summary.epidemic)
        let kinds = results.summary.eventsByKind
        let sum = { (column: String) in Self.integers(results.daily, column).reduce(0, +) }
        #expect(kinds["epidemic_symptom_onset"] == sum("epi_symptom_onsets") && sum("epi_symptom_onsets") > 0)
        let tests = try #require(kinds["epidemic_test"])
        #expect(tests >= e.testsForSymptoms + e.testsAfterNotification && e.testsForSymptoms > 0)
        let infectious = try #require(kinds["epidemic_infectious"]), recovered = try #require(kinds["epidemic_recovery"])
        #expect(infectious - recovered == Self.integers(results.daily, "epi_infectious").last && infectious > 0)
        #expect(sum("events") == results.summary.events)
        // A window starts once however often it is extended; nobody is confined without a start.
        let starts = try #require(kinds["epidemic_confinement_start"]), ends = try #require(kinds["epidemic_confinement_end"])
        #expect(starts > 0 && starts <= e.load.quarantineOrdersApp + e.load.quarantineOrdersManual + e.load.isolationOrders)
        #expect((Self.integers(results.daily, "epi_confined").max() ?? 0) <= starts && ends > 0)
        let off = try Simulation(config: EpidemicRunTests.config(days: 2, enabled: false)).run()
        #expect(!off.summary.eventsByKind.entries.contains { $0.name.hasPrefix("epidemic") })
    }

    /// The household secondary attack rate follows household transmission: it rises with the
    /// household layer's factor and counts only members of households with a final first case.
    @Test func householdAttackRateFollowsHouseholdTransmission() throws {
        var rates: [Double] = []
        for factor in [0.0, 4.0] {
            var c = EpidemicRunTests.config(days: 20)
            c.epidemic.layerFactors[0] = factor
            let sar = try #require(try Simulation(config: c).run().summary.epidemic?.householdSecondaryAttackRate)
            #expect(sar.households > 0 && sar.secondary <= sar.contacts && sar.contacts >= sar.households)
            rates.append(try #require(sar.rate))
        }
        #expect(rates[1] > rates[0] + 0.1, "\(rates)")
    }

    /// The counterfactual's infections appear day by day in daily.csv and add up to its total.
    @Test func counterfactualInfectionsByDay() throws {
        var c = EpidemicRunTests.config(days: 8)
        c.epidemic.counterfactual = true
        let results = try Simulation(config: c).run()
        let e = try #require(results.summary.epidemic)
        let byDay = Self.integers(results.daily, "epi_counterfactual_new_infections")
        #expect(byDay.count == 8 && byDay.reduce(0, +) == e.counterfactualInfections)
        #expect(byDay.first == Self.integers(results.daily, "epi_new_infections").first, "identical before any notification")
        if let averted = e.infectionsAverted, averted > 0 {
            #expect(e.quarantineDaysPerInfectionAverted == Double(e.load.quarantinedPersonDays) / Double(averted))
        } else {
            #expect(e.quarantineDaysPerInfectionAverted == nil)
        }
    }

    /// Every infection through a contact has a source; reproduction.csv counts each once.
    @Test func secondaryInfectionsAccountForEveryTransmission() throws {
        let results = try Simulation(config: EpidemicRunTests.config(days: 14)).run()
        let e = try #require(results.summary.epidemic)
        let table = try Self.table(results, "reproduction.csv")
        #expect(Self.integers(table, "secondary_infections").reduce(0, +) == e.infections - e.imports)
        #expect(Self.integers(table, "infections").reduce(0, +) == e.infections)
    }

    /// On a renewal process with a known R, the Cori estimate finds it, and its serial interval
    /// is the assumed one.
    @Test func coriEstimateRecoversAKnownReproductionNumber() throws {
        let estimator = CoriEstimator(serialInterval: GammaProfile(mean: 4.7, sd: 2.9), window: 7)
        #expect(abs(estimator.weights.reduce(0, +) - 1) < 1e-12 && estimator.weights[0] == 0)
        let mean = estimator.weights.enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element }
        #expect(abs(mean - 4.7) < 0.15)
        for r in [0.8, 1.3] {
            var incidence = [2_000]
            for t in 1..<60 {
                let lambda = (1..<estimator.weights.count).reduce(0.0) { t - $1 >= 0 ? $0 + Double(incidence[t - $1]) * estimator.weights[$1] : $0 }
                incidence.append(Int((r * lambda).rounded()))
            }
            let last = try #require(estimator.estimates(incidence)[40])
            #expect(abs(last.mean - r) < 0.02 && last.lower < last.mean && last.mean < last.upper && last.upper - last.lower < 0.2)
        }
        #expect(estimator.estimates([1, 0, 0, 0, 0, 0, 0, 1, 0, 0]).allSatisfy { $0 == nil }, "too few cases: no estimate")
    }
}
