@testable import Detection
import EventEngine
import Foundation
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing

/// The pipeline counts the bodies it encodes, and they carry what the apps may send.
@Suite struct PipelineBodyTests {
    /// Runs the pipeline alone for `days`, processing scheduled steps in time order.
    func run(_ flavor: BackendFlavor, days: Int = 2) throws -> (KeySubmissionPipeline, [([UInt8], Bool)]) {
        var h = HealthParameters()
        h.casesPerDay = 60
        h.nationalUploadsPerDay = 48
        var b = BackendParameters()
        b.flavor = flavor
        b.dummyUploadsPerPhoneDay = 1
        b.faultyUploadShare = 0.1
        let start = CivilCalendar.time(year: 2020, month: 10, day: 1)
        let people = 600
        let phoneOf = (0..<people).map { Int32($0 % 2 == 0 ? $0 / 2 : -1) }
        var queue: [(PipelineStep, Int32, SimTime)] = []
        let pipeline = KeySubmissionPipeline(health: h, backend: b, seed: 21, start: start, days: days, phoneOf: phoneOf,
                                             appPhones: people / 2, series: nil) { queue.append(($0, $1, $2)) }
        var bodies: [([UInt8], Bool)] = []
        pipeline.bodyObserver = { bodies.append(($0, $1)) }
        for hour in 0..<(days * 24) {
            let t = start + Int64(hour) * SimDuration.hour
            if hour % 24 == 0 { pipeline.startDay(midnight: t) }
            try pipeline.hour(t)
            while let next = queue.indices.filter({ queue[$0].2 < t + SimDuration.hour }).min(by: { queue[$0].2 < queue[$1].2 }) {
                let (step, i, at) = queue.remove(at: next)
                try pipeline.handle(step, case: i, now: max(at, t))
            }
        }
        return (pipeline, bodies)
    }

    func totals(_ p: KeySubmissionPipeline) -> BackendHour { p.hourly.reduce(BackendHour(), +) }

    @Test func immuniBodiesAreConstantSizeAndCountedExactly() throws {
        let (pipeline, bodies) = try run(.immuni)
        let t = totals(pipeline)
        #expect(t.realUploads > 5 && t.nationalUploads > 50 && t.dummyUploads > 100)
        #expect(bodies.count == Int(t.realUploads + t.nationalUploads))
        #expect(pipeline.dummyBodyBytes == 110_000 && bodies.allSatisfy { $0.0.count == 110_000 })
        #expect(t.uploadBytes == Int64(bodies.count + Int(t.dummyUploads)) * 110_000)
        let provinces = Set(ItalianProvinces.all.map(\.code))
        for (body, _) in bodies {
            let parsed = try JSONSerialization.jsonObject(with: Data(body))
            let json = try #require(parsed as? [String: Any])
            let teks = try #require(json["teks"] as? [[String: Any]])
            #expect(teks.count <= 14 && teks.count <= pipeline.parameters.effectiveMaxKeysPerUpload)
            let province = try #require(json["province"] as? String)
            #expect(provinces.contains(province))
            // The app's order: newest key first, one key per day.
            let starts = teks.compactMap { $0["rolling_start_number"] as? Int }
            #expect(starts == starts.sorted(by: >))
        }
    }

    @Test func cwaBodiesDecodeAndStayWithinFourteenKeys() throws {
        let (pipeline, bodies) = try run(.cwa)
        let t = totals(pipeline)
        #expect(t.realUploads > 5 && t.nationalUploads > 50 && t.dummyUploads > 100)
        #expect(bodies.count == Int(t.realUploads + t.nationalUploads))
        #expect(pipeline.dummyBodyBytes == 395)
        #expect(t.uploadBytes == Int64(bodies.reduce(0) { $0 + $1.0.count }) + t.dummyUploads * 395)
        var second = 0
        for (body, national) in bodies {
            let payload = try UploadBodies.decodeCWA(body)
            #expect((1...14).contains(payload.keys.count))
            #expect(payload.requestPadding.count == 28 * (14 - payload.keys.count))
            #expect(payload.keys.allSatisfy { $0.hasTransmissionRiskLevel && $0.rollingPeriod == 144 })
            if payload.keys.count == 1 && !national { second += 1 }
            // Close to a fake request's size, not equal: the app's 28 B per key is an estimate.
            #expect(abs(body.count - 395) <= 4 * payload.keys.count + 4)
        }
        #expect(second > 0)  // the day-after upload of the upload day's key
    }
}
