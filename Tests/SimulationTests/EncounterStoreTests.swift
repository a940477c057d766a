import GAEN
@testable import Simulation
import SimulationCore
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
        #expect(packed.scanColumn!.isPacked && packed.scanColumn!.bytes == 4 + 4 + 3 * 2 && packed.scans(of: 0) == fits)
        #expect(packed.firstSecond(of: 0) == 129_000)
        // Each way of not fitting: another gap, a minimum above the typical, a spread of 32 dB,
        // off the scan grid, 9 periods on, back in time, a first scan past 17 bits.
        for odd in [StoredScan(secondOfDay: 131_400, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 300),
                    StoredScan(secondOfDay: 131_400, typicalAttenuation: 60, minimumAttenuation: 61, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_400, typicalAttenuation: 200, minimumAttenuation: 168, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_300, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_160 + 9 * 240, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 240),
                    StoredScan(secondOfDay: 131_160, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 240)] {
            let full = day(fits + [odd])
            #expect(!full.scanColumn!.isPacked && full.scanColumn!.bytes == 2 * 4 + 4 * 8 && full.scans(of: 0) == fits + [odd])
            #expect(full.firstSecond(of: 0) == 129_000)
        }
        let late = StoredScan(secondOfDay: 1 << 17, typicalAttenuation: 60, minimumAttenuation: 50, secondsSinceLastScan: 240)
        #expect(!day([late]).scanColumn!.isPacked && day([late]).scans(of: 0) == [late])
    }

    /// A batch with room reserved stores what an unreserved one does, packed or not.
    @Test func reservedBatchesStoreTheSame() {
        for scans in [[scan(10), scan(310)], [scan(10), scan(20)]] {
            func filled(_ empty: EncounterBatch) -> EncounterBatch {
                var batch = empty
                batch.add(receiver: 1, identifier: rpi(1), metadata: 11, scans: scans)
                batch.add(receiver: 0, identifier: rpi(2), metadata: 12, scans: [scan(610)])
                return batch
            }
            var room = EncounterBatch()
            room.reserve(encounters: 3, scans: 1)
            let plain = filled(EncounterBatch()), reserved = filled(room)
            #expect(reserved.scanColumn == plain.scanColumn && reserved.receivers == plain.receivers && reserved.metadata == plain.metadata)
            #expect(reserved.identifier(1) == plain.identifier(1) && reserved.scans == scans + [scan(610)])
        }
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
        #expect(a.scanColumn == b.scanColumn && a.encounterCount == 40 && a.scanColumn!.isPacked)
        // Every encounter's scans read back, across the column's checkpoints.
        #expect((0..<40).allSatisfy { a.scans(of: $0) == added[a.identifiers[$0]] && a.firstSecond(of: $0) == added[a.identifiers[$0]]![0].secondOfDay })
    }

    /// The parallel merge (phones in blocks of 4096, records scattered per batch, then sorted per
    /// block) makes the day a single batch makes, byte for byte, for any number of threads; the
    /// receivers run past several blocks and some phones and a whole block hear nothing.
    @Test(arguments: [1, 2, 3, 8])
    func parallelMergeIsTheSameDayForAnyThreadCount(threads: Int) {
        let phones = 3 * DayMerge.phonesPerBlock + 17
        var parts = Array(repeating: EncounterBatch(), count: 5)
        var whole = EncounterBatch()
        var x: UInt64 = 12345
        for i in 0..<20_000 {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let receiver = Int32((x >> 33) % UInt64(phones)) / 3 * 3  // every third phone
            guard receiver / Int32(DayMerge.phonesPerBlock) != 1 else { continue }  // block 1 hears nothing
            let count = Int((x >> 60) & 3) + 1, periods = Int((x >> 40) & 1) + 1
            let scans = (0..<count).map { scan(UInt32(i % 200 * 300 + $0 * 300 * periods)) }
            parts[Int((x >> 20) % 5)].add(receiver: receiver, identifier: rpi(UInt64(i)), metadata: UInt32(i), scans: scans)
        }
        for p in parts { whole.append(p) }
        let merged = EncounterDay(dayIndex: 2, phones: phones, batches: parts, threads: threads)
        let one = EncounterDay(dayIndex: 2, phones: phones, batch: whole)
        #expect(merged.rowStart == one.rowStart && merged.identifiers == one.identifiers && merged.metadata == one.metadata)
        #expect(merged.scanColumn!.isPacked && merged.scanColumn == one.scanColumn && merged.scanColumn!.bytes == one.scanColumn!.bytes)
        #expect(merged.encounterCount > 10_000 && merged.encounters(of: DayMerge.phonesPerBlock + 3).isEmpty)
        // The reference: stable grouping by receiver of the concatenation, as the serial merge did.
        let expected = (0..<whole.count).sorted { (whole.receivers[$0], $0) < (whole.receivers[$1], $1) }
        #expect(merged.identifiers == expected.map(whole.identifier))
    }

    /// Past 1024 blocks of 4096 phones the blocks grow instead (national scale): the same grouping.
    @Test func blocksGrowPastTheirMaximumCount() {
        let phones = DayMerge.maximumBlocks * DayMerge.phonesPerBlock + 5
        var parts = [EncounterBatch(), EncounterBatch(), EncounterBatch()]
        for i in 0..<3_000 {
            let receiver = Int32(i * 7_919 % phones), others = [Int32(phones - 1), 0, Int32(phones / 2)]
            parts[i % 3].add(receiver: i % 10 == 0 ? others[i / 10 % 3] : receiver, identifier: rpi(UInt64(i)), metadata: UInt32(i),
                             scans: [scan(UInt32(i % 100 * 300))])
        }
        var whole = EncounterBatch()
        for p in parts { whole.append(p) }
        let merged = EncounterDay(dayIndex: 0, phones: phones, batches: parts, threads: 3)
        let expected = (0..<whole.count).sorted { (whole.receivers[$0], $0) < (whole.receivers[$1], $1) }
        #expect(merged.identifiers == expected.map(whole.identifier) && merged.metadata == expected.map { whole.metadata[$0] })
        #expect(merged.rowStart.count == phones + 1 && merged.rowStart.last == 3_000 && merged.encounters(of: phones - 1).count == 100)
    }

    /// A batch keeps its encounters as the day will (12-byte RPIs, 2-byte scans while they fit) and
    /// gives them back exactly; an encounter that does not fit unpacks the batch's earlier ones.
    @Test func batchesKeepTheCompactFormAndRoundTrip() {
        var batch = EncounterBatch()
        let first = [scan(10), scan(310), scan(610 + 300)], second = [scan(1_000)]
        batch.add(receiver: 1, identifier: rpi(7), metadata: 70, scans: first)
        batch.add(receiver: 0, identifier: rpi(8), metadata: 80, scans: second)
        #expect(batch.scanColumn.isPacked && batch.scanColumn.bytes == 2 * 4 + 4 + 4 * 2)
        #expect(batch.identifier(0) == StoredIdentifier(rpi(7)) && batch.metadata == [70, 80] && batch.receivers == [1, 0])
        #expect(batch.scanCounts == [3, 1] && batch.scans == first + second)
        let odd = StoredScan(secondOfDay: 2_000, typicalAttenuation: 60, minimumAttenuation: 55, secondsSinceLastScan: 240)
        batch.add(receiver: 1, identifier: rpi(9), metadata: 90, scans: [odd])
        #expect(!batch.scanColumn.isPacked && batch.scans == first + second + [odd] && batch.scanCounts == [3, 1, 1])
        // No scans at all does not pack either (as the day's column never did).
        var empty = EncounterBatch()
        empty.add(receiver: 0, identifier: rpi(1), metadata: 1, scans: [])
        empty.add(receiver: 0, identifier: rpi(2), metadata: 2, scans: [scan(20)])
        #expect(!empty.scanColumn.isPacked && empty.scanCounts == [0, 1] && empty.scans == [scan(20)])
    }

    /// Shards packed with different gaps, or one of them unpacked, make an unpacked day with the same scans.
    @Test func batchesThatDoNotShareAGapMergeUnpacked() {
        let other = StoredScan(secondOfDay: 5_000, typicalAttenuation: 61, minimumAttenuation: 60, secondsSinceLastScan: 240)
        var a = EncounterBatch(), b = EncounterBatch(), c = EncounterBatch()
        for i in 0..<20 { a.add(receiver: Int32(i % 3), identifier: rpi(UInt64(i)), metadata: UInt32(i), scans: [scan(UInt32(i * 600)), scan(UInt32(i * 600 + 300))]) }
        b.add(receiver: 1, identifier: rpi(100), metadata: 100, scans: [other])
        c.add(receiver: 2, identifier: rpi(101), metadata: 101, scans: [scan(7), other])
        #expect(a.scanColumn.isPacked && b.scanColumn.isPacked && !c.scanColumn.isPacked)
        for parts in [[a, b], [a, c], [a, EncounterBatch(), c]] {
            var whole = EncounterBatch()
            for p in parts { whole.append(p) }
            let merged = EncounterDay(dayIndex: 1, phones: 3, batches: parts), one = EncounterDay(dayIndex: 1, phones: 3, batch: whole)
            #expect(!merged.scanColumn!.isPacked && merged.scanColumn == one.scanColumn && merged.scanColumn!.bytes == one.scanColumn!.bytes)
            #expect(merged.identifiers == one.identifiers && merged.metadata == one.metadata && merged.rowStart == one.rowStart)
        }
        // Shards with one gap (an empty shard between them) stay packed, byte for byte as one batch.
        let packed = EncounterDay(dayIndex: 1, phones: 3, batches: [a, EncounterBatch(), a])
        var twice = a
        twice.append(a)
        let reference = EncounterDay(dayIndex: 1, phones: 3, batch: twice)
        #expect(packed.scanColumn!.isPacked && packed.scanColumn == reference.scanColumn && packed.scanColumn!.bytes == reference.scanColumn!.bytes)
    }

    /// A day spilled to disk reads back every encounter's metadata and scans, packed or not,
    /// keeps only its RPIs and rows in memory, and counts the same bytes in all.
    @Test func spilledDaysReadBackWhatTheyHeld() throws {
        let other = StoredScan(secondOfDay: 5_000, typicalAttenuation: 61, minimumAttenuation: 60, secondsSinceLastScan: 240)
        var packed = EncounterBatch(), unpacked = EncounterBatch()
        for i in 0..<40 {
            // 1 to 5 scans, 1 to 4 scan periods apart.
            let scans = [0, 300, 900, 1500, 2700].prefix(i % 5 + 1).map { scan(UInt32(i * 900 + $0)) }
            packed.add(receiver: Int32(i * 7 % 5), identifier: rpi(UInt64(i)), metadata: UInt32(1000 + i), scans: scans)
            unpacked.add(receiver: Int32(i * 7 % 5), identifier: rpi(UInt64(i)), metadata: UInt32(1000 + i), scans: i == 17 ? scans + [other] : scans)
        }
        for batch in [packed, unpacked, EncounterBatch()] {
            let day = EncounterDay(dayIndex: 3, phones: 5, batch: batch), disk = try day.spilled(), again = try disk.spilled()
            #expect(!day.isSpilled && disk.isSpilled && disk.scanColumn == nil && again === disk)
            #expect(disk.identifiers == day.identifiers && disk.rowStart == day.rowStart && disk.metadata == day.metadata)
            #expect(disk.scanInstanceCount == day.scanInstanceCount && disk.bytes == day.bytes && day.diskBytes == 0)
            #expect(disk.memoryBytes == 6 * 4 + day.encounterCount * 12 && disk.diskBytes == day.bytes - disk.memoryBytes)
            for e in 0..<day.encounterCount {
                #expect(disk.metadata(of: e) == day.metadata(of: e) && disk.scans(of: e) == day.scans(of: e))
                #expect(disk.firstSecond(of: e) == day.scans(of: e)[0].secondOfDay && disk.firstSecond(of: e) == day.firstSecond(of: e))
            }
        }
        #expect(EncounterDay(dayIndex: 3, phones: 5, batch: packed).scanColumn!.isPacked)
        #expect(!EncounterDay(dayIndex: 3, phones: 5, batch: unpacked).scanColumn!.isPacked)
    }

    /// A day spilled on another thread reads the same at once and once written; a day that cannot
    /// be written stays readable in memory and its error comes out of `finishSpill()`.
    @Test func daysSpilledInBackgroundReadTheSame() throws {
        var batch = EncounterBatch()
        for i in 0..<40 {
            batch.add(receiver: Int32(i % 5), identifier: rpi(UInt64(i)), metadata: UInt32(1000 + i), scans: [scan(UInt32(i * 900)), scan(UInt32(i * 900 + 300))])
        }
        let day = EncounterDay(dayIndex: 3, phones: 5, batch: batch)
        let moving = day.spillingInBackground()
        for e in 0..<day.encounterCount { #expect(moving.metadata(of: e) == day.metadata(of: e) && moving.scans(of: e) == day.scans(of: e)) }
        try moving.finishSpill()
        let spilled = try day.spilled()
        #expect(moving.isSpilled && moving.scanColumn == nil && moving.bytes == day.bytes && moving.memoryBytes == spilled.memoryBytes)
        for e in 0..<day.encounterCount { #expect(moving.metadata(of: e) == day.metadata(of: e) && moving.scans(of: e) == day.scans(of: e)) }

        let stuck = day.spillingInBackground(folder: "/nonexistent-ensim-tmp")
        #expect(throws: SpillFile.SpillError.self) { try stuck.finishSpill() }
        #expect(!stuck.isSpilled && stuck.metadata == day.metadata && stuck.scans(of: 7) == day.scans(of: 7))
        do {
            try stuck.finishSpill()
        } catch {
            #expect("\(error)".contains("/nonexistent-ensim-tmp") && "\(error)".contains("set TMPDIR"))
        }
    }

    @Test func retentionDeletesDayFifteen() throws {
        var store = EncounterStore(retentionDays: 14)
        for d in 0..<15 { try store.add(EncounterDay(dayIndex: d, phones: 1, batch: EncounterBatch())) }
        #expect(store.days.map(\.dayIndex) == Array(1...14))
        try store.add(EncounterDay(dayIndex: 15, phones: 1, batch: EncounterBatch()))
        #expect(store.days.first?.dayIndex == 2 && store.days.count == 14)
    }
}
