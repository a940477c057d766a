@testable import P6

/// Deterministic test bytes (SplitMix64); tests never use system randomness.
struct TestBytes {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

func makeEpoch(seed: UInt64, start: Int64 = 1_700_006_400, duration: Int = 86_400,
               sliceDuration: Int = 60) -> P6Epoch {
    var g = TestBytes(seed: seed)
    return try! P6Epoch(start: start, duration: duration, sliceDuration: sliceDuration,
                        iec: g.bytes(32), epk: g.bytes(32))
}
