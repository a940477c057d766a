@testable import P6
import Testing

@Suite("P6 Tx trace and disclosure encoding")
struct TraceTests {
    @Test func txTraceIs78BytesLittleEndian() throws {
        let e = makeEpoch(seed: 5, start: 0x0102_0304_0506_0708, duration: 86_400, sliceDuration: 60)
        let bytes = e.encodedTxTrace()
        #expect(P6Epoch.txTraceByteCount == 78)
        #expect(bytes.count == 78)
        #expect(Array(bytes[0..<8]) == [8, 7, 6, 5, 4, 3, 2, 1])
        #expect(Array(bytes[8..<12]) == [0x80, 0x51, 0x01, 0x00])  // 86,400
        #expect(Array(bytes[12..<14]) == [60, 0])
        #expect(Array(bytes[14..<46]) == e.iec)
        #expect(Array(bytes[46..<78]) == e.epk)
    }

    @Test func txTraceRoundTripAndReplay() throws {
        let e = makeEpoch(seed: 11, duration: 40_000, sliceDuration: 45)
        let decoded = try P6Epoch(txTrace: e.encodedTxTrace())
        #expect(decoded == e)
        #expect(decoded.allCodes() == e.allCodes())
    }

    @Test func txTraceWrongLengthRejected() {
        let bytes = makeEpoch(seed: 1).encodedTxTrace()
        #expect(throws: P6Error.invalidLength(record: "Tx trace", expected: 78, actual: 77)) {
            try P6Epoch(txTrace: Array(bytes.dropLast()))
        }
        #expect(throws: P6Error.invalidLength(record: "Tx trace", expected: 78, actual: 79)) {
            try P6Epoch(txTrace: bytes + [0])
        }
        // Zero slice duration in an otherwise well-formed record.
        var bad = bytes
        bad[12] = 0
        bad[13] = 0
        #expect(throws: P6Error.invalidSliceDuration(0)) { try P6Epoch(txTrace: bad) }
    }

    private func tenEpochs() -> [P6Epoch] {
        (0..<10).map { makeEpoch(seed: UInt64(100 + $0), start: 1_700_006_400 + Int64($0) * 86_400) }
    }

    @Test func disclosureOfTenEpochsIs802Bytes() throws {
        var g = TestBytes(seed: 77)
        let d = try P6Disclosure(id: g.bytes(16), epochs: tenEpochs())
        let bytes = d.encoded()
        #expect(bytes.count == 802)
        #expect(d.encodedByteCount == 802)
        let back = try P6Disclosure(encoded: bytes)
        #expect(back == d)
        #expect(back.epochs[9].allCodes() == d.epochs[9].allCodes())
    }

    @Test func disclosureWithRxRoundTrip() throws {
        var g = TestBytes(seed: 78)
        let rx = (0..<25).map { i in
            P6RxRecord(time: 1_700_006_400 + Int64(i) * 60, uuidIndex: i % 8, code: UInt32(truncatingIfNeeded: g.next()))
        }
        let d = try P6Disclosure(id: g.bytes(16), epochs: Array(tenEpochs().prefix(3)), rxTrace: rx)
        let bytes = d.encoded()
        #expect(bytes.count == 22 + 3 * 78 + 25 * 9)
        #expect(try P6Disclosure(encoded: bytes) == d)
        // Truncated or padded encodings are rejected.
        #expect(throws: P6Error.invalidLength(record: "disclosure", expected: bytes.count, actual: bytes.count - 1)) {
            try P6Disclosure(encoded: Array(bytes.dropLast()))
        }
        #expect(throws: P6Error.invalidLength(record: "disclosure", expected: bytes.count, actual: bytes.count + 1)) {
            try P6Disclosure(encoded: bytes + [0])
        }
        #expect(throws: P6Error.self) { try P6Disclosure(encoded: Array(bytes.prefix(100))) }
        #expect(throws: P6Error.invalidLength(record: "disclosure", expected: 22, actual: 5)) {
            try P6Disclosure(encoded: [1, 2, 3, 4, 5])
        }
    }

    @Test func disclosureValidation() {
        let e = makeEpoch(seed: 1)
        #expect(throws: P6Error.invalidKeyLength(field: "disclosure ID", expected: 16, actual: 15)) {
            try P6Disclosure(id: [UInt8](repeating: 0, count: 15), epochs: [e])
        }
        #expect(throws: P6Error.invalidUUIDIndex(8)) {
            try P6Disclosure(id: [UInt8](repeating: 0, count: 16), epochs: [e],
                             rxTrace: [P6RxRecord(time: 0, uuidIndex: 8, code: 1)])
        }
        #expect(throws: P6Error.self) {
            try P6Disclosure(id: [UInt8](repeating: 0, count: 16), epochs: [e],
                             rxTrace: [P6RxRecord(time: -1, uuidIndex: 0, code: 1)])
        }
    }
}
