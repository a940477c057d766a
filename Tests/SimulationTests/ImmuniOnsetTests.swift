import EventEngine
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
import Testing

/// Immuni's ingestion service keeps an upload's keys from two days before `symptoms_started_on`,
/// at the highest transmission risk (`backend.immuni_keys_from_onset`).
@Suite struct ImmuniOnsetTests {
    static let day = SimClock.dayNumber(UploadFailureTests.start)

    @Test func theOperatorEntersOnsetOrSwabNeverAfterTheSwab() {
        let t = UploadFailureTests.start
        let symptomatic = PositiveCase(person: 1, infectedAt: t, infectiousFromDay: Self.day, symptomOnset: t + 2 * SimDuration.day,
                                       testedAt: t + 4 * SimDuration.day, resultAt: t + 5 * SimDuration.day)
        #expect(ImmuniFlow.symptomsStartedOn(symptomatic) == Self.day + 2)
        var asymptomatic = symptomatic
        asymptomatic.symptomOnset = nil
        #expect(ImmuniFlow.symptomsStartedOn(asymptomatic) == Self.day + 4)
        var late = symptomatic
        late.symptomOnset = t + 6 * SimDuration.day
        #expect(ImmuniFlow.symptomsStartedOn(late) == Self.day + 4)
    }

    @Test func keysBeforeTheRiskWindowAreDroppedTheRestGetTheHighestRisk() {
        var b = BackendParameters()
        b.flavor = .immuni
        b.immuniKeysFromOnset = true
        let ledger = BackendLedger(start: UploadFailureTests.start, days: 1)
        let payloads = UploadPayloads(parameters: b, seed: 1)
        let server = UploadServer(parameters: b, seed: 1, ledger: ledger, payloads: payloads, publisher: KeyPublisher(parameters: b, seed: 1))
        var keys = (0..<14).map { d in
            SubmittedKey(keyData: [UInt8](repeating: UInt8(d), count: 16), rollingStartIntervalNumber: UInt32((Self.day - Int64(d)) * 144),
                         transmissionRiskLevel: 1)
        }
        server.keepRiskWindow(&keys, symptomsStartedOn: Self.day - 5)
        // Days day−7 … day: 8 keys kept, 6 dropped.
        #expect(keys.count == 8 && ledger.keysDroppedBeforeOnset == 6)
        #expect(keys.allSatisfy { $0.transmissionRiskLevel == 8 && Int64($0.rollingStartIntervalNumber / 144) >= Self.day - 7 })
    }

    /// End to end: the same uploads, fewer published keys, each from its uploader's risk window.
    @Test func publishedKeysStartTwoDaysBeforeOnset() throws {
        var b = BackendParameters()
        b.flavor = .immuni
        b.faultyUploadShare = 0
        let all = try UploadFailureTests.run(b)
        #expect(all.backendSummary().keys.droppedBeforeOnset == nil)
        b.immuniKeysFromOnset = true
        let window = try UploadFailureTests.run(b)
        let dropped = try #require(window.backendSummary().keys.droppedBeforeOnset)
        #expect(dropped > 0)
        #expect(UploadFailureTests.uploaders(window) == UploadFailureTests.uploaders(all))
        let published = { (p: KeySubmissionPipeline) in p.publisher.published.flatMap(\.keys).filter { $0.uploader >= 0 } }
        #expect(published(window).count + Int(dropped) == published(all).count)
        let cases = Dictionary(window.positiveCases.map { ($0.person, $0) }, uniquingKeysWith: { a, _ in a })
        for k in published(window) {
            let onset = ImmuniFlow.symptomsStartedOn(try #require(cases[k.uploader]))
            #expect(Int64(k.key.temporaryExposureKey.rollingStartIntervalNumber.rawValue / 144) >= onset - 2)
            #expect(k.key.transmissionRiskLevel == 8)
        }
    }
}
