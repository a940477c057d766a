import EventEngine
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing

/// The pipeline's parts: the case clock, and each app's flow behind one protocol.
@Suite struct KeySubmissionFlowTests {
    @Test func caseClockIndexesDrawnCasesAndDeliversInCallOrder() {
        var p = HealthParameters()
        p.casesPerDay = 30
        var clock = CaseClock(parameters: p, seed: 5, populationSize: 2_000, series: nil)
        var generator = IndexCaseGenerator(parameters: p, seed: 5, populationSize: 2_000, series: nil)
        var drawn: [PositiveCase] = []
        for d in 0..<3 {
            let midnight = IndexCaseTests.start + Int64(d) * SimDuration.day
            let range = clock.drawDay(midnight: midnight)
            #expect(range.lowerBound == Int32(drawn.count))
            drawn += generator.cases(midnight: midnight)
            #expect(range.upperBound == Int32(drawn.count))
        }
        #expect(clock.cases == drawn)
        #expect(drawn.indices.allSatisfy { clock.index(ofPerson: drawn[$0].person) == Int32($0) })
        #expect(clock.index(ofPerson: -1) == nil)
        clock.deliver(4)
        clock.deliver(1)
        #expect(clock.delivered == [drawn[4], drawn[1]])
    }

    /// Every step a flow schedules is the test result or one of its own app's steps, and each
    /// flow reaches uploads.
    @Test(arguments: BackendFlavor.allCases)
    func eachFlowSchedulesOnlyItsOwnSteps(flavor: BackendFlavor) throws {
        var h = HealthParameters()
        h.casesPerDay = 40
        var b = BackendParameters()
        b.flavor = flavor
        let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
        let phoneOf = (0..<400).map { Int32($0 % 2 == 0 ? $0 / 2 : -1) }
        var queue: [(PipelineStep, Int32, SimTime)] = []
        var scheduled = Set<PipelineStep>()
        let pipeline = KeySubmissionPipeline(health: h, backend: b, seed: 3, start: start, days: 2, phoneOf: phoneOf, appPhones: 200,
                                             series: nil) { queue.append(($0, $1, $2)); scheduled.insert($0) }
        for hour in 0..<48 {
            let t = start + Int64(hour) * SimDuration.hour
            if hour % 24 == 0 { pipeline.startDay(midnight: t) }
            try pipeline.hour(t)
            while let next = queue.indices.filter({ queue[$0].2 < t + SimDuration.hour }).min(by: { queue[$0].2 < queue[$1].2 }) {
                let (step, i, at) = queue.remove(at: next)
                try pipeline.handle(step, case: i, now: max(at, t))
            }
        }
        let prefix = flavor == .cwa ? "cwa_" : "immuni_"
        #expect(scheduled.allSatisfy { $0 == .testResult || $0.name.hasPrefix(prefix) })
        #expect(pipeline.uploads.count > 0 && pipeline.funnel.uploaded == pipeline.uploads.count)
        #expect(pipeline.uploads.allSatisfy { phoneOf[Int($0.positiveCase.person)] == $0.phone })
    }

    /// A pipeline that builds each archive as it publishes and one that builds a day's archives
    /// at the day's end (as a simulation does) count the same package bytes in the same hours.
    @Test(arguments: BackendFlavor.allCases)
    func deferredArchivesCountTheSameBytesPerHour(flavor: BackendFlavor) throws {
        func run(defer deferred: Bool) throws -> [Int64] {
            var h = HealthParameters()
            h.casesPerDay = 40
            var b = BackendParameters()
            b.flavor = flavor
            b.minKeysPerPackage = 1
            let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
            let phoneOf = (0..<400).map { Int32($0 % 2 == 0 ? $0 / 2 : -1) }
            var queue: [(PipelineStep, Int32, SimTime)] = []
            let pipeline = KeySubmissionPipeline(health: h, backend: b, seed: 3, start: start, days: 3, phoneOf: phoneOf, appPhones: 200,
                                                 series: nil) { queue.append(($0, $1, $2)) }
            pipeline.publisher.defersArchives = deferred
            for hour in 0..<72 {
                let t = start + Int64(hour) * SimDuration.hour
                if hour % 24 == 0 { pipeline.startDay(midnight: t) }
                try pipeline.hour(t)
                while let next = queue.indices.filter({ queue[$0].2 < t + SimDuration.hour }).min(by: { queue[$0].2 < queue[$1].2 }) {
                    let (step, i, at) = queue.remove(at: next)
                    try pipeline.handle(step, case: i, now: max(at, t))
                }
                if hour % 24 == 23 { try pipeline.buildArchives(threads: 2) }
            }
            return pipeline.hourly.map(\.packageBytes)
        }
        let immediate = try run(defer: false)
        #expect(immediate.filter { $0 > 0 }.count >= 2)  // archives were published and counted
        #expect(try run(defer: true) == immediate)
    }
}
