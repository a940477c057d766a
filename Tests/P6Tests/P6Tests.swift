import Crypto
import Foundation
import Testing
@testable import P6

@Suite struct P6ProtocolTests {
    func bytes(_ seed: UInt8) -> [UInt8] { (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 37 &+ Int(seed)) } }

    func epoch(start: Int64 = 1_601_510_400) throws -> Epoch {
        try Epoch(start: start, initialEpochCode: bytes(1), progressionKey: bytes(2))
    }

    @Test func sliceOrderIsAlwaysAPermutation() {
        var code = FrameCode(bytes(9))
        for _ in 0..<5_000 {
            #expect(code.sliceOrder.sorted() == Array(0..<8))
            code = code.next(key: bytes(3))
        }
        #expect(FrameCode([UInt8](repeating: 0, count: 32)).sliceOrder == Array(0..<8))
        #expect(FrameCode([UInt8](repeating: 0xff, count: 32)).sliceOrder.sorted() == Array(0..<8))
        // 21 bits: 0b001 then zeros picks part 1 first, then 0, 2, 3, ...
        var b = [UInt8](repeating: 0, count: 32)
        b[0] = 0b0010_0000
        #expect(FrameCode(b).sliceOrder == [1, 0, 2, 3, 4, 5, 6, 7])
    }

    @Test func frameCodesEvolveByHMACWithTheEPK() throws {
        let e = try epoch()
        #expect(e.frameCode(0).bytes == bytes(1))
        let direct = Array(HMAC<SHA256>.authenticationCode(for: bytes(1), using: SymmetricKey(data: bytes(2))))
        #expect(e.frameCode(1).bytes == direct)
        #expect(e.frameCode(2) == e.frameCode(1).next(key: bytes(2)))
    }

    @Test func transmissionBoundaries() throws {
        let e = try epoch()
        #expect(e.sliceCount == 1440)
        #expect(e.transmission(at: e.start - 1) == nil)
        #expect(e.transmission(at: e.end) == nil)
        let first = try #require(e.transmission(at: e.start))
        #expect(first.sliceIndex == 0 && first.start == e.start)
        #expect(e.transmission(at: e.start + 59) == first)
        let second = try #require(e.transmission(at: e.start + 60))
        #expect(second.sliceIndex == 1)
        // Slice 8 opens frame 1.
        let frame1 = try #require(e.transmission(at: e.start + 8 * 60))
        let fc1 = e.frameCode(1)
        #expect(frame1.uuidIndex == fc1.sliceOrder[0] && frame1.code == fc1.part(frame1.uuidIndex))
        #expect(e.transmission(at: e.end - 1)?.sliceIndex == 1439)
        // Within a frame each part is sent once.
        let frame = e.transmissions(from: e.start, to: e.start + 480)
        #expect(Set(frame.map(\.uuidIndex)).count == 8)
        #expect(frame.map(\.code).sorted() == (0..<8).map { e.frameCode(0).part($0) }.sorted())
    }

    @Test func replayFromADecodedTraceEqualsWhatWasSent() throws {
        let e = try Epoch(start: 1_601_510_400, duration: 3 * 3600 + 30, sliceDuration: 45, initialEpochCode: bytes(5), progressionKey: bytes(6))
        let sent = e.transmissions(from: e.start, to: e.end)
        #expect(sent.count == e.sliceCount)
        let trace = TxTrace.encode(e)
        #expect(trace.count == 78)
        let replayed = try TxTrace.decode(trace)
        #expect(replayed == e)
        #expect(replayed.transmissions(from: replayed.start, to: replayed.end) == sent)
        #expect(sent.allSatisfy { e.transmission(at: $0.start) == $0 })
        #expect(throws: P6Error.invalidLength(field: "Tx trace", expected: 78, actual: 77)) { try TxTrace.decode(trace.dropLast()) }
    }

    @Test func disclosureOfTenEpochsIsAbout800Bytes() throws {
        let epochs = try (0..<10).map { day in
            try Epoch(start: 1_601_510_400 + Int64(day) * 86_400, initialEpochCode: bytes(UInt8(day)), progressionKey: bytes(UInt8(100 + day)))
        }
        let d = try Disclosure(id: Array(repeating: 7, count: 16), epochs: epochs)
        let encoded = d.encode()
        #expect(encoded.count == 798)
        #expect(try Disclosure.decode(encoded) == d)
        #expect(throws: P6Error.self) { try Disclosure.decode(Array(encoded.dropLast())) }
        #expect(throws: P6Error.self) { try Disclosure(id: [1, 2], epochs: []) }
        #expect(throws: P6Error.self) { try Epoch(start: 0, initialEpochCode: [1], progressionKey: bytes(1)) }
    }

    @Test func matchingFindsThreeOfFiveAndKeepsLoneCoincidencesSingle() throws {
        let e = try epoch()
        let sent = e.transmissions(from: e.start, to: e.end)
        func heard(_ s: SliceTransmission) -> ReceivedCode { ReceivedCode(sliceStart: s.start, uuidIndex: s.uuidIndex, code: s.code) }
        // Slices 100, 102, 104 heard (3 within 5), plus lone 600 and noise.
        var received = [heard(sent[100]), heard(sent[102]), heard(sent[104]), heard(sent[104]), heard(sent[600])]
        received.append(ReceivedCode(sliceStart: sent[300].start, uuidIndex: sent[300].uuidIndex, code: sent[300].code ^ 1))
        received.append(ReceivedCode(sliceStart: sent[301].start, uuidIndex: (sent[301].uuidIndex + 1) % 8, code: sent[301].code))
        let m = TxMatch(epoch: e, received: received)
        #expect(m.matchedSlices == [100, 102, 104, 600])
        #expect(m.events == [100...104])
        // 100, 103, 105: no 5-slice window holds three.
        let sparse = TxMatch(epoch: e, received: [heard(sent[100]), heard(sent[103]), heard(sent[105])])
        #expect(sparse.singleMatches == 3 && sparse.fullMatches == 0)
        let two = TxMatch(epoch: e, received: [heard(sent[10]), heard(sent[11])], window: 5, threshold: 2)
        #expect(two.fullMatches == 1)
    }
}
