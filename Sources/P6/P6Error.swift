/// Errors raised by the P6 protocol library. All validation uses typed throws.
public enum P6Error: Error, Equatable, Sendable {
    /// A 256-bit secret (IEC or EPK) or a disclosure ID had the wrong number of bytes.
    case invalidKeyLength(field: String, expected: Int, actual: Int)
    /// Epoch duration must be in 1...UInt32.max seconds.
    case invalidEpochDuration(Int)
    /// Slice duration must be in 1...UInt16.max seconds.
    case invalidSliceDuration(Int)
    /// A binary record (Tx trace, disclosure) had the wrong length.
    case invalidLength(record: String, expected: Int, actual: Int)
    /// A value cannot be represented in the binary encoding (e.g. Rx time outside UInt32).
    case unencodable(String)
    /// A proximity UUID index outside 0...7.
    case invalidUUIDIndex(Int)
    /// `ended(at:)` called with a time outside (start, end].
    case invalidEndTime(Int64)
}
