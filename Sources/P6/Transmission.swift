/// What a P6 device sends during one slice: a 32-bit slice code on one of eight proximity UUIDs,
/// the UUID naming which part of the 256-bit frame code it is.
public struct SliceTransmission: Sendable, Equatable {
    /// Slice start, UTC Unix seconds.
    public let start: Int64
    public let sliceIndex: Int
    public let uuidIndex: Int
    public let code: UInt32

    public var major: UInt16 { UInt16(code >> 16) }
    public var minor: UInt16 { UInt16(code & 0xffff) }
}

/// The eight iBeacon proximity UUIDs: ENSim's own fixed choice (the seed names none).
public enum ProximityUUIDs {
    public static let all: [String] = (0..<8).map { String(format: "E5A1D6F0-0B3C-4E6A-9C1D-5F2B8A7C00%02X", $0) }
}

extension Epoch {
    /// What is sent at time `t`, or nil outside the epoch.
    public func transmission(at t: Int64) -> SliceTransmission? {
        guard t >= start else { return nil }
        let slice = Int((t - start) / Int64(sliceDuration))
        guard slice < sliceCount else { return nil }
        let frame = frameCode(slice / Self.slicesPerFrame)
        return transmission(slice: slice, frame: frame)
    }

    /// Every slice starting in [from, to), in order; the HMAC chain runs once across frames.
    public func transmissions(from: Int64, to: Int64) -> [SliceTransmission] {
        let first = max(0, Int((max(from, start) - start + Int64(sliceDuration) - 1) / Int64(sliceDuration)))
        let last = min(sliceCount, Int((min(to, end) - start + Int64(sliceDuration) - 1) / Int64(sliceDuration)))
        guard first < last else { return [] }
        var out: [SliceTransmission] = []
        out.reserveCapacity(last - first)
        var frameIndex = first / Self.slicesPerFrame
        var frame = frameCode(frameIndex)
        for slice in first..<last {
            if slice / Self.slicesPerFrame != frameIndex {
                frameIndex += 1
                frame = frame.next(key: progressionKey)
            }
            out.append(transmission(slice: slice, frame: frame))
        }
        return out
    }

    private func transmission(slice: Int, frame: FrameCode) -> SliceTransmission {
        let part = frame.sliceOrder[slice % Self.slicesPerFrame]
        return SliceTransmission(start: start + Int64(slice) * Int64(sliceDuration), sliceIndex: slice, uuidIndex: part, code: frame.part(part))
    }
}
