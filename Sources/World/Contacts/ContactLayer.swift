import Foundation

/// Where a contact happens; each layer has its own generator and radio environment.
public enum ContactLayer: Int, CaseIterable, Sendable {
    case household, workplace, school, community, transport

    public var name: String { ["household", "workplace", "school", "community", "transport"][rawValue] }
}

/// One stretch of a contact at a constant distance, kept as its base-10 logarithm (distances
/// below 0.1 m count as 0.1 m): the radio's path loss needs the logarithm, and contacts draw it
/// directly, without an exp and a log per segment.
public struct ContactSegment: Sendable, Equatable {
    public var seconds: Int32
    public var log10Metres: Double

    public init(seconds: Int32, metres: Float) {
        self.init(seconds: seconds, log10Metres: Self.log10Metres(Double(metres)))
    }

    public init(seconds: Int32, log10Metres: Double) {
        self.seconds = seconds
        self.log10Metres = log10Metres
    }

    /// log10 of `metres` as a segment keeps it (below 0.1 m counts as 0.1 m).
    public static func log10Metres(_ metres: Double) -> Double { log10(max(metres, 0.1)) }
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
    public func seconds(within metres: Float) -> Int32 { seconds(withinLog10Metres: ContactSegment.log10Metres(Double(metres))) }

    /// `seconds(within:)` for a distance given by its base-10 logarithm (worked out once by callers that ask per contact).
    public func seconds(withinLog10Metres bound: Double) -> Int32 { secondsAndDuration(withinLog10Metres: bound).within }

    /// `seconds(withinLog10Metres:)` and `duration` in one pass. Without a branch: whether a segment
    /// is within the distance is a coin toss the processor cannot predict (that branch was 2% of a
    /// 1 M run). A day holds at most 86,400 seconds, so the sums cannot overflow.
    @inline(__always)
    public func secondsAndDuration(withinLog10Metres bound: Double) -> (within: Int32, total: Int32) {
        var within: Int32 = 0, total: Int32 = 0
        for s in segments {
            within &+= s.seconds & (s.log10Metres <= bound ? -1 : 0)
            total &+= s.seconds
        }
        return (within, total)
    }
}
