/// Where a contact happens; each layer has its own generator and radio environment.
public enum ContactLayer: Int, CaseIterable, Sendable {
    case household, workplace, school, community, transport

    public var name: String { ["household", "workplace", "school", "community", "transport"][rawValue] }
}

/// One stretch of a contact at a constant distance.
public struct ContactSegment: Sendable, Equatable {
    public var seconds: Int32
    public var metres: Float

    public init(seconds: Int32, metres: Float) {
        self.seconds = seconds
        self.metres = metres
    }
}

/// A contact between two people: when, how long, where, and how far apart over time.
/// Segments are borrowed from the generator's buffer, valid only inside the callback.
public struct ContactView {
    public let a: Int32
    public let b: Int32
    public let start: Int64
    public let layer: ContactLayer
    public let segments: UnsafeBufferPointer<ContactSegment>

    public var duration: Int32 { segments.reduce(0) { $0 + $1.seconds } }

    /// Seconds spent within `metres`: the ground truth behind the close-contact rule.
    public func seconds(within metres: Float) -> Int32 {
        segments.reduce(0) { $0 + ($1.metres <= metres ? $1.seconds : 0) }
    }
}
