import Crypto

/// One slice as it would be transmitted: slice code on a proximity UUID.
public struct P6SliceTransmission: Hashable, Sendable {
    /// Slice index within the epoch (frame = sliceIndex / 8, position = sliceIndex % 8).
    public let sliceIndex: Int
    /// Slice start time, Unix seconds UTC.
    public let start: Int64
    /// Proximity UUID number 0...7 (= part of the frame code).
    public let uuidIndex: Int
    /// 32-bit slice code; iBeacon major = code >> 16, minor = code & 0xFFFF.
    public let code: UInt32

    public init(sliceIndex: Int, start: Int64, uuidIndex: Int, code: UInt32) {
        self.sliceIndex = sliceIndex
        self.start = start
        self.uuidIndex = uuidIndex
        self.code = code
    }

    public var major: UInt16 { UInt16(code >> 16) }
    public var minor: UInt16 { UInt16(code & 0xFFFF) }
}

/// Stateful Tx scheduler cursor over one epoch. Caches the current frame code and its
/// slice order; moving forward advances the HMAC chain frame by frame from the cached
/// frame, moving backwards restarts from the IEC. Monotone queries over a whole epoch
/// therefore cost one HMAC per frame.
public struct P6TxCursor: Sendable {
    public let epoch: P6Epoch
    private let keyed: HMAC<SHA256>
    private var frameIndex: Int
    private var frameCode: P6FrameCode
    private var order: [Int]

    public init(epoch: P6Epoch) {
        self.epoch = epoch
        self.keyed = HMAC<SHA256>(key: epoch.progressionKey)
        self.frameIndex = 0
        self.frameCode = epoch.initialFrameCode
        self.order = frameCode.sliceOrder
    }

    /// Frame code for frame `k`, advancing (or restarting) the cached chain.
    public mutating func frameCode(forFrame k: Int) -> P6FrameCode {
        precondition(k >= 0)
        guard k != frameIndex else { return frameCode }
        if k < frameIndex {
            frameIndex = 0
            frameCode = epoch.initialFrameCode
        }
        while frameIndex < k {
            frameCode = frameCode.next(keyed: keyed)
            frameIndex += 1
        }
        order = frameCode.sliceOrder
        return frameCode
    }

    /// Transmission for slice `s` of the epoch (precondition: 0 ≤ s < sliceCount).
    public mutating func slice(_ s: Int) -> P6SliceTransmission {
        precondition(s >= 0 && s < epoch.sliceCount, "slice index out of range")
        let fc = frameCode(forFrame: s / P6Epoch.slicesPerFrame)
        let part = order[s % P6Epoch.slicesPerFrame]
        return P6SliceTransmission(sliceIndex: s, start: epoch.sliceStart(s), uuidIndex: part, code: fc.part(part))
    }

    /// What is sent at time `t`, nil outside the epoch.
    public mutating func transmission(at t: Int64) -> (sliceIndex: Int, uuidIndex: Int, code: UInt32)? {
        guard let s = epoch.sliceIndex(at: t) else { return nil }
        let tx = slice(s)
        return (tx.sliceIndex, tx.uuidIndex, tx.code)
    }
}

extension P6Epoch {
    /// What is sent at time `t`, nil outside the epoch. One-off query: O(frame) HMACs;
    /// use `P6TxCursor` or `codes(from:to:)` for many queries.
    public func transmission(at t: Int64) -> (sliceIndex: Int, uuidIndex: Int, code: UInt32)? {
        var cursor = P6TxCursor(epoch: self)
        return cursor.transmission(at: t)
    }

    /// Replay: every slice of this epoch whose start time lies in `[from, to)`, in time
    /// order (one HMAC per frame).
    public func codes(from: Int64, to: Int64) -> [P6SliceTransmission] {
        let lo = max(from, start), hi = min(to, end)
        guard lo < hi else { return [] }
        let d = Int64(sliceDuration)
        // First slice starting at or after lo; last slice starting before hi.
        let first = Int((lo - start + d - 1) / d)
        let last = Int((hi - 1 - start) / d)
        guard first <= last else { return [] }
        var cursor = P6TxCursor(epoch: self)
        return (first...last).map { cursor.slice($0) }
    }

    /// Replay of the whole epoch.
    public func allCodes() -> [P6SliceTransmission] { codes(from: start, to: end) }
}
