import GAEN
@testable import Simulation
import Testing
@testable import World

@Suite struct EncounterStoreTests {
    func rpi(_ n: UInt64) -> RollingProximityIdentifier { RollingProximityIdentifier(Bytes16(word0: n, word1: ~n)) }
    func scan(_ t: UInt32) -> StoredScan { StoredScan(secondOfDay: t, typicalAttenuation: 60, minimumAttenuation: 55, secondsSinceLastScan: 300) }

    @Test func groupsByReceiverKeepingProductionOrder() {
        var batch = EncounterBatch()
        batch.add(receiver: 2, identifier: rpi(1), metadata: 11, scans: [scan(10), scan(310)])
        batch.add(receiver: 0, identifier: rpi(2), metadata: 12, scans: [scan(20)])
        batch.add(receiver: 2, identifier: rpi(3), metadata: 13, scans: [scan(30)])
        let day = EncounterDay(dayIndex: 0, phones: 3, batch: batch)
        #expect(day.encounters(of: 0) == 0..<1 && day.encounters(of: 1).isEmpty && day.encounters(of: 2) == 1..<3)
        #expect(day.identifiers == [rpi(2), rpi(1), rpi(3)].map(StoredIdentifier.init))
        #expect(day.identifier(1).isPrefix(of: rpi(1)) && !day.identifier(1).isPrefix(of: rpi(3)))
        #expect(day.metadata == [12, 11, 13])
        #expect(Array(day.scans(of: 1)) == [scan(10), scan(310)])
        #expect(Array(day.scans(of: 2)) == [scan(30)])
        #expect(MemoryLayout<StoredScan>.stride == 8)
    }

    /// Scans are kept in 2 bytes (plus 4 per encounter) when the day's scans allow it, and read back exactly either way.
    @Test func scansPackIntoTwoBytesWhenTheyFitAndRoundTrip() {
        func day(_ scans: [StoredScan]) -> EncounterDay {
            var batch = EncounterBatch()
            batch.add(receiver: 0, identifier: rpi(1), metadata: 1, scans: scans)
            return EncounterDay(dayIndex: 0, phones: 1, batch: batch)
        }
        let fits = [StoredScan(secondOfDay: 129_000, typicalAttenuation: 255, minimumAttenuation: 224, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 130_920, typicalAttenuation: 0, minimumAttenuation: 0, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_160, typicalAttenuation: 71, minimumAttenuation: 63, secondsSinceLastScan: 240)]
        let packed = day(fits)
        #expect(packed.scans.isPacked && packed.scans.bytes == 4 + 4 + 3 * 2 && packed.scans(of: 0) == fits)
        #expect(packed.scans.firstSecond(ofEncounter: 0) == 129_000)
        // Each way of not fitting: another gap, a minimum above the typical, a spread of 32 dB,
        // off the scan grid, 9 periods on, back in time, a first scan past 17 bits.
        for odd in [StoredScan(secondOfDay: 131_400, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 300),
                    StoredScan(secondOfDay: 131_400, typicalAttenuation: 60, minimumAttenuation: 61, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_400, typicalAttenuation: 200, minimumAttenuation: 168, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_300, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_160 + 9 * 240, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_160, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 240)] {
            let full = day(fits + [odd])
            #expect(!full.scans.isPacked && full.scans.bytes == 2 * 4 + 4 * 8 && full.scans(of: 0) == fits + [odd])
            #expect(full.scans.firstSecond(ofEncounter: 0) == 129_000)
        }
        let late = StoredScan(secondOfDay: 1 << 17, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 240)
        #expect(!day([late]).scans.isPacked && day([late]).scans(of: 0) == [late])
    }

    /// The shards' batches make the same day as one batch holding them in shard order.
    @Test func shardBatchesGroupAsTheirConcatenation() {
        var parts = [EncounterBatch(), EncounterBatch(), EncounterBatch()]
        var whole = EncounterBatch()
        var added: [StoredIdentifier: [StoredScan]] = [:]
        for i in 0..<40 {
            let k = i % 7 < 3 ? 0 : (i % 7 < 5 ? 1 : 2)
            let scans = (0..<(i % 3 + 1)).map { scan(UInt32(i * 100 + $0 * 300 * (i % 4 + 1))) }
            parts[k].add(receiver: Int32(i * 5 % 4), identifier: rpi(UInt64(i)), metadata: UInt32(i), scans: scans)
            added[StoredIdentifier(rpi(UInt64(i)))] = scans
        }
        for p in parts { whole.append(p) }
        let a = EncounterDay(dayIndex: 3, phones: 4, batches: parts), b = EncounterDay(dayIndex: 3, phones: 4, batch: whole)
        #expect(a.rowStart == b.rowStart && a.identifiers == b.identifiers && a.metadata == b.metadata)
        #expect(a.scans == b.scans && a.encounterCount == 40 && a.scans.isPacked)
        // Every encounter's scans read back, across the column's checkpoints.
        #expect((0..<40).allSatisfy { a.scans(of: $0) == added[a.identifiers[$0]] && a.scans.firstSecond(ofEncounter: $0) == added[a.identifiers[$0]]![0].secondOfDay })
    }

    @Test func retentionDeletesDayFifteen() {
        var store = EncounterStore(retentionDays: 14)
        for d in 0..<15 { store.add(EncounterDay(dayIndex: d, phones: 1, batch: EncounterBatch())) }
        #expect(store.days.map(\.dayIndex) == Array(1...14))
        store.add(EncounterDay(dayIndex: 15, phones: 1, batch: EncounterBatch()))
        #expect(store.days.first?.dayIndex == 2 && store.days.count == 14)
    }
}
