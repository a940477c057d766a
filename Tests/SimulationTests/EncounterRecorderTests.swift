import EventEngine
import GAEN
import GSL
import Testing
@testable import World

/// The recorder hears each contact straight into the store's form: what it stores must be what
/// the radio's public path (`ContactRadio.hear` into `HeardScan`s) hears, split where the sender
/// rotated its RPI, each part under that RPI and its AEM.
@Suite struct EncounterRecorderTests {
    let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)
    let seed: UInt64 = 21

    func radioDay(_ p: RadioParameters, os: [OperatingSystem]) -> RadioDay {
        let fleet = PhoneFleet(seed: seed, owners: os.indices.map { Int32($0) })
        fleet.rollKeys(midnight: midnight, threads: 1)
        return RadioDay(seed: seed, dayIndex: 0, midnight: midnight, model: ChannelModel(p),
                        placements: try! DiscreteDistribution(weights: p.placementShares), fleet: fleet,
                        radios: PhoneRadios(phoneOS: os, parameters: p, seed: seed),
                        availability: PhoneAvailability(phones: os.count, parameters: AvailabilityParameters(), seed: seed))
    }

    /// One stored RPI: its 12 bytes, AEM and scans.
    struct Heard: Equatable {
        let receiver: Int32, identifier: StoredIdentifier, metadata: UInt32, scans: [StoredScan]
    }

    /// What direction `sender` → `receiver` of the contact hears, by the public path.
    func expected(_ day: RadioDay, contact: ContactView, sender: Int, receiver: Int, directionKey: UInt64) -> [Heard] {
        let p = day.model.parameters
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2), scratch = RandomStream(seed: 0, stream: "y", generator: .taus2)
        let loss = day.contactLoss(layer: contact.layer, calibrationError: day.radios.error(sender) + day.radios.error(receiver),
                                   directionKey: directionKey, stream: stream, directionFamily: StreamFamily(seed: seed, stream: "radio"),
                                   contactFamily: RadioDay.reciprocalFamily(seed: seed))
        let scans = p.androidScanIntervalRandomRangeSeconds > 0 && day.radios.isAndroid(receiver)
            ? ScanSchedule(jitterFamily: ScanSchedule.jitterFamily(seed: seed), phone: receiver, dayIndex: 0, midnight: midnight,
                           period: p.scanPeriodSeconds, randomRange: p.androidScanIntervalRandomRangeSeconds, stream: scratch)
            : ScanSchedule(seed: seed, phone: receiver, dayIndex: 0, midnight: midnight, period: p.scanPeriodSeconds, stream: scratch)
        var heard: [HeardScan] = []
        ContactRadio.hear(segments: contact.segments, start: contact.start, layer: contact.layer, scans: scans, model: day.model,
                          extraLoss: loss, stream: stream, into: &heard)
        let rotations = RPIRotationSchedule(seed: seed, phone: sender, dayIndex: 0, midnight: midnight,
                                            minMinutes: p.rpiRotationMinMinutes, maxMinutes: p.rpiRotationMaxMinutes, stream: scratch)
        let deriver = try! BatchRPIDeriver(capacity: 1)
        return Dictionary(grouping: heard) { rotations.rotationStart(at: $0.time) }.sorted { $0.key < $1.key }.map { start, part in
            let ad = day.fleet.advertisement(phone: sender, interval: ENIntervalNumber(unixTime: start), txPower: day.radios.txPower(sender),
                                             deriver: deriver)
            return Heard(receiver: Int32(receiver), identifier: StoredIdentifier(ad.identifier), metadata: ad.metadata.rawValue,
                         scans: part.map { StoredScan(secondOfDay: UInt32($0.time - midnight), typicalAttenuation: $0.typicalAttenuation,
                                                      minimumAttenuation: $0.minimumAttenuation, secondsSinceLastScan: $0.secondsSinceLastScan) })
        }
    }

    @Test(arguments: [0, 90])
    func aRecordedContactStoresWhatTheRadioHearsRPIByRPI(androidRange: Int) {
        var p = RadioParameters()
        p.androidScanIntervalRandomRangeSeconds = androidRange
        let day = radioDay(p, os: [.android, .iOS])
        let recorder = EncounterRecorder(day: day)
        // Three hours from 2 m to 9 m and back: several RPIs, scans lost at the far end.
        let segments = [ContactSegment(seconds: 3_600, metres: 2), ContactSegment(seconds: 3_600, metres: 9),
                        ContactSegment(seconds: 3_600, metres: 1.5)]
        var want: [Heard] = []
        for (n, hour) in [9, 14].enumerated() {
            let key = UInt64(40 + n)
            segments.withUnsafeBufferPointer { b in
                let contact = ContactView(a: 0, b: 1, start: midnight + Int64(hour * 3_600), layer: .workplace, segments: b)
                recorder.record(contact, phoneA: 0, phoneB: 1, key: key)
                want += expected(day, contact: contact, sender: 0, receiver: 1, directionKey: key << 1)
                want += expected(day, contact: contact, sender: 1, receiver: 0, directionKey: key << 1 | 1)
            }
        }
        let batch = recorder.batch
        var got: [Heard] = [], next = 0
        let scans = batch.scans
        for e in 0..<batch.count {
            let n = Int(batch.scanCounts[e])
            got.append(Heard(receiver: batch.receivers[e], identifier: batch.identifier(e), metadata: batch.metadata[e],
                             scans: Array(scans[next..<next + n])))
            next += n
        }
        #expect(want.count >= 24 && want.allSatisfy { !$0.scans.isEmpty })
        #expect(want.contains { $0.scans.count < 3 } && want.map(\.scans.count).reduce(0, +) > 60)
        #expect(got == want)
    }
}
