import Testing
@testable import P6

/// The seed's Rx trace compression and busy-period sub-sampling.
@Suite struct RxTraceCodecTests {
    func trace(_ g: inout TestBytes, count: Int, start: Int64 = 1_700_006_400) -> [P6RxRecord] {
        var t = start
        return (0..<count).map { i in
            t += Int64(g.next() % 4 == 0 ? 600 + g.next() % 3_000 : g.next() % 3)   // quiet gaps between busy stretches
            return P6RxRecord(time: t, uuidIndex: Int(g.next() % 8), code: UInt32(truncatingIfNeeded: g.next()))
        }.sorted()
    }

    @Test func compactRoundTripsAndIsSmaller() throws {
        var g = TestBytes(seed: 5)
        let records = trace(&g, count: 2_000)
        let bytes = P6RxTraceCodec.compact(records)
        #expect(try P6RxTraceCodec.expand(bytes[...], count: records.count) == records)
        #expect(bytes.count < records.count * 7 && bytes.count >= 4 + records.count * 5)
        #expect(P6RxTraceCodec.compact([]) == [0, 0, 0, 0])
        #expect(throws: P6Error.self) { try P6RxTraceCodec.expand(bytes.dropLast(), count: records.count) }
        #expect(throws: P6Error.self) { try P6RxTraceCodec.expand((bytes + [0])[...], count: records.count) }
    }

    @Test func compactDisclosureDecodesToTheSameDisclosure() throws {
        var g = TestBytes(seed: 6)
        let records = trace(&g, count: 300)
        let d = try P6Disclosure(id: g.bytes(16), epochs: [makeEpoch(seed: 9)], rxTrace: records)
        let compact = try d.encoded(rx: .compact)
        #expect(compact.count == d.encodedByteCount(rx: .compact) && compact.count < d.encodedByteCount)
        #expect(try P6Disclosure(encoded: compact) == d)
        #expect(try P6Disclosure(encoded: d.encoded(rx: .raw)) == d && d.encodedByteCount(rx: .raw) == d.encodedByteCount)
        #expect(throws: P6Error.self) { try P6Disclosure(encoded: Array(compact.dropLast())) }
    }

    @Test func subsamplingCapsEachSliceAndKeepsQuietOnes() {
        var records: [P6RxRecord] = []
        for i in 0..<10 { records.append(P6RxRecord(time: 600 + Int64(i), uuidIndex: i % 8, code: UInt32(100 - i))) }   // a busy slice
        records.append(P6RxRecord(time: 700, uuidIndex: 1, code: 5))                                                      // a quiet one
        let kept = P6RxTraceCodec.subsample(records, perSlice: 3, sliceSeconds: 60)
        #expect(kept.count == 4 && kept == kept.sorted())
        #expect(Set(kept.filter { $0.time < 660 }.map(\.code)) == [91, 92, 93])   // the busy slice's lowest codes
        #expect(kept.contains(P6RxRecord(time: 700, uuidIndex: 1, code: 5)))
        #expect(P6RxTraceCodec.subsample(records, perSlice: 0, sliceSeconds: 60) == records)
    }
}
