import Crypto
import Foundation
@testable import P6
import Testing

@Suite("P6 frame codes and slice order")
struct FrameCodeTests {
    @Test func sliceOrderIsPermutationForManyRandomFrameCodes() throws {
        var g = TestBytes(seed: 1)
        var seen = Set<[Int]>()
        for _ in 0..<20_000 {
            let order = try P6FrameCode(bytes: g.bytes(32)).sliceOrder
            #expect(order.sorted() == Array(0..<8))
            seen.insert(order)
        }
        // Many different orders occur (40,320 possible).
        #expect(seen.count > 10_000)
    }

    @Test func sliceOrderExtremes() throws {
        // All-zero: every step picks index 0 of the remaining parts.
        #expect(try P6FrameCode(bytes: [UInt8](repeating: 0, count: 32)).sliceOrder == [0, 1, 2, 3, 4, 5, 6, 7])
        // All-ones: b = 7 each step; 7 mod 8 = 7, 7 mod 7 = 0, 7 mod 6 = 1, 7 mod 5 = 2,
        // 7 mod 4 = 3, 7 mod 3 = 1, 7 mod 2 = 1.
        let ones = try P6FrameCode(bytes: [UInt8](repeating: 0xFF, count: 32)).sliceOrder
        #expect(ones.sorted() == Array(0..<8))
        #expect(ones == [7, 0, 2, 4, 6, 3, 5, 1])
    }

    @Test func sliceOrderUsesExactlyTheTop21Bits() throws {
        // Bits 23..21 = 0b101 (5) → first part 5; bits 20..18 = 0b011 (3) → among
        // [0,1,2,3,4,6,7] index 3 → part 3; rest zero → ascending.
        var b = [UInt8](repeating: 0, count: 32)
        b[0] = 0b1010_1100  // bits 23..16: 101 011 00
        #expect(try P6FrameCode(bytes: b).sliceOrder == [5, 3, 0, 1, 2, 4, 6, 7])
        // The low 3 bits of byte 2 and bytes ≥ 3 do not matter.
        var c = b
        c[2] = 0b0000_0111
        for i in 3..<32 { c[i] = 0xA5 }
        #expect(try P6FrameCode(bytes: c).sliceOrder == [5, 3, 0, 1, 2, 4, 6, 7])
        // Bit 3 of byte 2 is the last used bit (step 6: r = 2).
        var d = b
        d[2] = 0b0000_1000
        #expect(try P6FrameCode(bytes: d).sliceOrder == [5, 3, 0, 1, 2, 4, 7, 6])
    }

    @Test func frameCodeEvolvesByHMAC() throws {
        let epoch = makeEpoch(seed: 7)
        let direct = HMAC<SHA256>.authenticationCode(for: epoch.iec, using: SymmetricKey(data: epoch.epk))
        #expect(epoch.frameCode(0).bytes == epoch.iec)
        #expect(epoch.frameCode(1).bytes == Array(direct))
        let direct2 = HMAC<SHA256>.authenticationCode(for: Array(direct), using: SymmetricKey(data: epoch.epk))
        #expect(epoch.frameCode(2).bytes == Array(direct2))
        // The prepared keyed state is copied per step, so reusing it gives the one-shot HMAC every time.
        let keyed = HMAC<SHA256>(key: SymmetricKey(data: epoch.epk))
        #expect(epoch.frameCode(1).next(keyed: keyed) == epoch.frameCode(1).next(epk: SymmetricKey(data: epoch.epk)))
        #expect(epoch.initialFrameCode.next(keyed: keyed).bytes == Array(direct))
        let all = epoch.frameCodes()
        #expect(all.count == 180)
        #expect(all[179] == epoch.frameCode(179))
        #expect(Set(all).count == 180)
    }

    @Test func partsAreBigEndianWords() throws {
        let fc = try P6FrameCode(bytes: Array(0..<32))
        #expect(fc.part(0) == 0x0001_0203)
        #expect(fc.part(7) == 0x1C1D_1E1F)
    }

    @Test func wrongLengthsRejected() {
        #expect(throws: P6Error.invalidKeyLength(field: "frame code", expected: 32, actual: 31)) {
            try P6FrameCode(bytes: [UInt8](repeating: 0, count: 31))
        }
        #expect(throws: P6Error.invalidKeyLength(field: "IEC", expected: 32, actual: 16)) {
            try P6Epoch(start: 0, iec: [UInt8](repeating: 0, count: 16), epk: [UInt8](repeating: 0, count: 32))
        }
        #expect(throws: P6Error.invalidKeyLength(field: "EPK", expected: 32, actual: 33)) {
            try P6Epoch(start: 0, iec: [UInt8](repeating: 0, count: 32), epk: [UInt8](repeating: 0, count: 33))
        }
        #expect(throws: P6Error.invalidSliceDuration(0)) {
            try P6Epoch(start: 0, sliceDuration: 0, iec: [UInt8](repeating: 0, count: 32),
                        epk: [UInt8](repeating: 0, count: 32))
        }
    }

    @Test func proximityUUIDsAreEightDistinct() {
        #expect(P6ProximityUUID.all.count == 8)
        #expect(Set(P6ProximityUUID.all).count == 8)
        #expect(P6ProximityUUID.index(of: P6ProximityUUID.all[5]) == 5)
        #expect(P6ProximityUUID.index(of: UUID()) == nil)
    }
}

@Suite("P6 slice order: all 2^21 selectors")
struct SliceOrderExhaustiveTests {
    @Test func everySelectorGivesAPermutationAndAllPermutationsOccur() {
        var seen = Set<Int>()
        var allPermutations = true
        var firstPart = [Int](repeating: 0, count: 8)
        var secondPick = [Int](repeating: 0, count: 8)  // index among the 7 remaining
        for x in 0..<(1 << 21) {
            let order = P6FrameCode.sliceOrder(selector: x << 3)
            var mask = 0, key = 0
            for p in order { mask |= 1 << p; key = key << 3 | p }
            allPermutations = allPermutations && order.count == 8 && mask == 0xFF
            seen.insert(key)
            firstPart[order[0]] += 1
            secondPick[order[1] < order[0] ? order[1] : order[1] - 1] += 1
        }
        #expect(allPermutations)
        #expect(seen.count == 40_320)  // every order reachable
        // First pick (r = 8) is uniform; second (r = 7) shows the documented mod bias.
        #expect(firstPart == [Int](repeating: 1 << 18, count: 8))
        #expect(secondPick[0] == 2 << 18 && secondPick[1...6].allSatisfy { $0 == 1 << 18 } && secondPick[7] == 0)
        // Low 3 bits of the selector are ignored.
        #expect(P6FrameCode.sliceOrder(selector: 0b101_011_000_000_000_000_000_111) == [5, 3, 0, 1, 2, 4, 6, 7])
    }
}
