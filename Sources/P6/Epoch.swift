import Crypto
import Foundation

/// P6 errors, each with a readable description.
public enum P6Error: Error, Equatable, CustomStringConvertible {
    case invalidLength(field: String, expected: Int, actual: Int)
    case invalidEpoch(String)

    public var description: String {
        switch self {
        case let .invalidLength(field, expected, actual): return "\(field) must be \(expected) bytes, got \(actual)"
        case let .invalidEpoch(reason): return "invalid epoch: \(reason)"
        }
    }
}

/// One P6 epoch: normally a UTC day, shorter on first use and after a disclosure (which ends
/// the current epoch at once). Its two 256-bit secrets determine every code it sends:
/// the Initial Epoch Code (IEC) is the first frame code, and the Epoch Progression Key (EPK)
/// evolves it frame by frame with HMAC-SHA256.
public struct Epoch: Sendable, Equatable {
    public static let slicesPerFrame = 8
    public static let secretLength = 32

    /// Start, UTC Unix seconds.
    public let start: Int64
    /// Length in seconds (86,400 for a full day).
    public let duration: UInt32
    /// Length of one slice in seconds (~60 in the seed; set server-side).
    public let sliceDuration: UInt16
    public let initialEpochCode: [UInt8]
    public let progressionKey: [UInt8]

    public init(start: Int64, duration: UInt32 = 86_400, sliceDuration: UInt16 = 60,
                initialEpochCode: [UInt8], progressionKey: [UInt8]) throws(P6Error) {
        guard initialEpochCode.count == Self.secretLength else {
            throw .invalidLength(field: "IEC", expected: Self.secretLength, actual: initialEpochCode.count)
        }
        guard progressionKey.count == Self.secretLength else {
            throw .invalidLength(field: "EPK", expected: Self.secretLength, actual: progressionKey.count)
        }
        guard sliceDuration > 0 else { throw .invalidEpoch("slice duration must be positive") }
        guard duration > 0 else { throw .invalidEpoch("duration must be positive") }
        self.start = start
        self.duration = duration
        self.sliceDuration = sliceDuration
        self.initialEpochCode = initialEpochCode
        self.progressionKey = progressionKey
    }

    public var end: Int64 { start + Int64(duration) }

    /// Whole slices in the epoch (a trailing partial slice is not sent).
    public var sliceCount: Int { Int(duration) / Int(sliceDuration) }

    /// The frame code after `frame` evolutions: FC₀ = IEC, FCₖ₊₁ = HMAC-SHA256(EPK, FCₖ).
    public func frameCode(_ frame: Int) -> FrameCode {
        var code = FrameCode(initialEpochCode)
        for _ in 0..<frame { code = code.next(key: progressionKey) }
        return code
    }
}

/// A 256-bit frame code: eight 32-bit slice codes and, from its first 21 bits, the order in
/// which they are sent.
public struct FrameCode: Sendable, Equatable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        precondition(bytes.count == 32, "a frame code has 32 bytes")
        self.bytes = bytes
    }

    public func next(key: [UInt8]) -> FrameCode {
        let mac = HMAC<SHA256>.authenticationCode(for: bytes, using: SymmetricKey(data: key))
        return FrameCode(Array(mac))
    }

    /// The 32-bit part `index` (0…7), big endian: what the slice sends as iBeacon major (high
    /// 16 bits) and minor (low 16 bits).
    public func part(_ index: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[index * 4 + $1]) }
    }

    /// Order in which the eight parts are sent in this frame. The first 3 bytes, read as a
    /// 24-bit big-endian number, give seven 3-bit choices from the top: choice i (value b)
    /// picks the (b mod r)-th of the r = 8 − i parts not yet sent; the last part is forced.
    /// Only 21 bits are used. `mod r` is slightly biased for r = 7, 6, 5, 3 (3 bits = 8
    /// values), as the seed's scheme implies.
    public var sliceOrder: [Int] {
        let bits = UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
        var remaining = Array(0..<8)
        var order: [Int] = []
        order.reserveCapacity(8)
        for i in 0..<7 {
            let choice = Int((bits >> UInt32(21 - 3 * i)) & 0b111)
            order.append(remaining.remove(at: choice % remaining.count))
        }
        order.append(remaining[0])
        return order
    }
}
