import EventEngine
import GSL
@testable import Simulation
@testable import SimulationCore
import Testing
@testable import World

/// Issue 19's radio options: losses shared by both directions of a contact
/// (`radio.reciprocal_shadowing`) and Android's jittered scan intervals
/// (`radio.android_scan_interval_random_range_s`).
@Suite struct RadioFidelityTests {
    let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)

    /// Two app phones of the given OSes, as one day's radio sees them.
    func radioDay(_ parameters: RadioParameters, os: [OperatingSystem] = [.iOS, .iOS], seed: UInt64 = 9) -> RadioDay {
        let owners = os.indices.map { Int32($0) }
        let fleet = PhoneFleet(seed: seed, owners: owners)
        fleet.rollKeys(midnight: midnight, threads: 1)
        return RadioDay(seed: seed, dayIndex: 0, midnight: midnight, model: ChannelModel(parameters),
                        placements: try! DiscreteDistribution(weights: parameters.placementShares), fleet: fleet,
                        radios: PhoneRadios(phoneOS: os, parameters: parameters, seed: seed),
                        availability: PhoneAvailability(phones: os.count, parameters: AvailabilityParameters(), seed: seed))
    }

    func losses(_ day: RadioDay, contact: UInt64) -> (aToB: Double, bToA: Double) {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let direction = StreamFamily(seed: day.seed, stream: "radio"), shared = RadioDay.reciprocalFamily(seed: day.seed)
        let error = day.radios.error(0) + day.radios.error(1)
        func loss(_ d: UInt64) -> Double {
            day.contactLoss(layer: .household, calibrationError: error, directionKey: contact << 1 | d, stream: stream,
                            directionFamily: direction, contactFamily: shared)
        }
        return (loss(0), loss(1))
    }

    @Test func reciprocalDirectionsShareTheirLossesAndEachDirectionKeepsItsStream() {
        var p = RadioParameters()
        let independent = radioDay(p)
        p.reciprocalShadowing = true
        let reciprocal = radioDay(p)
        var differ = 0
        for contact in UInt64(0)..<500 {
            let r = losses(reciprocal, contact: contact), i = losses(independent, contact: contact)
            #expect(r.aToB == r.bToA)
            if i.aToB != i.bToA { differ += 1 }
        }
        // Each direction drawing its own: placements, body and shadowing (σ 5 dB) almost never coincide.
        #expect(differ > 450)
        // Either way the stream is left at the direction's own key, for its adverts and fading.
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        _ = reciprocal.contactLoss(layer: .household, calibrationError: 0, directionKey: 7, stream: stream,
                                   directionFamily: StreamFamily(seed: 9, stream: "radio"), contactFamily: RadioDay.reciprocalFamily(seed: 9))
        let expected = RandomStream(seed: 0, stream: "y", generator: .taus2)
        expected.reseed(StreamKey(seed: 9, stream: "radio", index: 7))
        #expect(stream.uniform() == expected.uniform())
    }

    /// One 30-minute contact at 2 m without fading between two iPhones (the same calibration both
    /// ways): with reciprocal losses both phones hear it at the same attenuation.
    @Test func bothPhonesHearAReciprocalContactAtTheSameAttenuation() {
        func typical(reciprocal: Bool, contact: UInt64) -> [Int32: Set<UInt8>] {
            var p = RadioParameters()
            p.fadingSigma = 0
            p.reciprocalShadowing = reciprocal
            let recorder = EncounterRecorder(day: radioDay(p))
            let segments = [ContactSegment(seconds: 1_800, metres: 2)]
            segments.withUnsafeBufferPointer { b in
                recorder.record(ContactView(a: 0, b: 1, start: midnight + 36_000, layer: .household, segments: b), phoneA: 0, phoneB: 1, key: contact)
            }
            let batch = recorder.batch
            var out: [Int32: Set<UInt8>] = [:]
            var next = 0
            for (i, receiver) in batch.receivers.enumerated() {
                for s in batch.scans[next..<next + Int(batch.scanCounts[i])] { out[receiver, default: []].insert(s.typicalAttenuation) }
                next += Int(batch.scanCounts[i])
            }
            return out
        }
        var independentDiffer = 0
        for contact in UInt64(1)...20 {
            let r = typical(reciprocal: true, contact: contact)
            #expect(r[0] != nil && r[0]?.count == 1 && r[0] == r[1])
            let i = typical(reciprocal: false, contact: contact)
            if i[0] != i[1] { independentDiffer += 1 }
        }
        #expect(independentDiffer > 10)
    }

    @Test func androidScanGapsLieBetween210And300Seconds() {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let family = ScanSchedule.jitterFamily(seed: 4)
        var gaps = RunningStatistics()
        var seen = Set<Int32>()
        for phone in 0..<200 {
            let s = ScanSchedule(jitterFamily: family, phone: phone, dayIndex: 3, midnight: midnight, period: 300, randomRange: 90, stream: stream)
            let offsets = s.jitteredOffsets
            #expect(offsets[0] < 0 && offsets[1] == Int32(s.phase) && (0..<300).contains(s.phase))
            #expect(offsets[offsets.count - 2] < 86_400 && offsets[offsets.count - 1] >= 86_400)
            for (a, b) in zip(offsets, offsets.dropFirst()) {
                #expect((210...300).contains(b - a))
                seen.insert(b - a)
                gaps.add(Double(b - a))
            }
            // The schedule's scans are the offsets, each with the gap before it.
            var scan = s.firstScan(atOrAfter: midnight)
            for i in 1..<offsets.count {
                #expect(scan.time == midnight + Int64(offsets[i]) && scan.secondsSinceLastScan == Int64(offsets[i] - offsets[i - 1]))
                scan = s.next(after: scan)
            }
            // Beyond the day's last drawn scan the fixed period continues.
            #expect(scan.time == midnight + Int64(offsets[offsets.count - 1]) + 300 && scan.secondsSinceLastScan == 300)
            // Drawn from the phone's own stream: the same whatever was drawn before.
            let again = ScanSchedule(jitterFamily: family, phone: phone, dayIndex: 3, midnight: midnight, period: 300, randomRange: 90, stream: stream)
            #expect(again.jitteredOffsets == offsets)
        }
        // Not constant: every value of 210…300 occurs; uniform, so the mean is 255 s.
        #expect(seen == Set(210...300))
        #expect(gaps.meanConfidenceInterval(confidence: 0.999).contains(255))
        let start = midnight + 3_600
        let s = ScanSchedule(jitterFamily: family, phone: 1, dayIndex: 3, midnight: midnight, period: 300, randomRange: 90, stream: stream)
        let instants = s.instants(from: start, to: start + 1_800)
        #expect(instants.first.map { $0 >= start && $0 - start < 300 } == true && instants.count >= 6 && instants.count <= 9)
    }

    /// The receiver's OS decides: an Android phone hears at jittered scans with their own gaps,
    /// an iPhone at the fixed period.
    @Test func onlyAndroidReceiversScanAtJitteredIntervals() {
        var p = RadioParameters()
        p.androidScanIntervalRandomRangeSeconds = 90
        let recorder = EncounterRecorder(day: radioDay(p, os: [.iOS, .android]))
        let segments = [ContactSegment(seconds: 7_200, metres: 1)]
        segments.withUnsafeBufferPointer { b in
            recorder.record(ContactView(a: 0, b: 1, start: midnight + 36_000, layer: .household, segments: b), phoneA: 0, phoneB: 1, key: 5)
        }
        let batch = recorder.batch
        var gaps: [Int32: [UInt16]] = [:], times: [Int32: [UInt32]] = [:]
        var next = 0
        for (i, receiver) in batch.receivers.enumerated() {
            for s in batch.scans[next..<next + Int(batch.scanCounts[i])] {
                gaps[receiver, default: []].append(s.secondsSinceLastScan)
                times[receiver, default: []].append(s.secondOfDay)
            }
            next += Int(batch.scanCounts[i])
        }
        #expect(gaps[0]?.count ?? 0 > 20 && gaps[0]!.allSatisfy { $0 == 300 })
        let android = gaps[1] ?? [], at = times[1] ?? []
        #expect(android.count > 20 && android.allSatisfy { (210...300).contains($0) } && Set(android).count > 5)
        // At 1 m every scan hears: each gap is the time since the previous scan.
        #expect(zip(at, at.dropFirst()).map { UInt16($1 - $0) } == Array(android.dropFirst()))
    }

    static func config(threads: Int, _ set: (inout RadioParameters) -> Void) -> SimulationConfig {
        var c = PipelineRunTests.config(.cwa, people: 800, days: 4, casesPerDay: 30, threads: threads, national: 0)
        set(&c.radio)
        return c
    }

    /// Each option changes what phones hear, and a run with it is the same for 1 and 3 threads.
    @Test(arguments: ["reciprocal_shadowing", "android_scan_interval_random_range_s"])
    func optionRunsAreIdenticalWhateverTheThreads(option: String) throws {
        func set(_ p: inout RadioParameters) {
            if option == "reciprocal_shadowing" { p.reciprocalShadowing = true } else { p.androidScanIntervalRandomRangeSeconds = 90 }
        }
        let off = try Simulation(config: Self.config(threads: 1) { _ in }).run().summary
        let one = try Simulation(config: Self.config(threads: 1, set)).run().summary
        let three = try Simulation(config: Self.config(threads: 3, set)).run().summary
        #expect(one.detection == three.detection && one.health == three.health && one.scanInstances == three.scanInstances)
        #expect(one.scanInstances != off.scanInstances || one.detection.matchedEncounters != off.detection.matchedEncounters)
    }
}
