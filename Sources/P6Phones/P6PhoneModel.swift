import EventEngine
import GSL
import P6

/// When a P6 phone can transmit. iBeacon advertising needs the P6 app (or an affiliate app) in
/// the foreground on iOS; Android can advertise in the background on most models. Reception
/// (monitoring the 8 UUIDs) runs in the background on both, so it is not modelled here.
public struct P6TransmitParameters: Sendable, Equatable {
    /// Share of the day an iPhone transmits (foreground time of the P6 and affiliate apps).
    public var iosShare = 0.10
    /// Share of the day an Android phone transmits (background advertising, some models cannot).
    public var androidShare = 0.80
    /// Mean length of one transmitting session, seconds (exponential).
    public var meanSessionSeconds = 600.0

    public init() {}
}

/// Per-phone P6 state derived from (seed, phone, day) GSL streams, so a phone's epochs and
/// transmit sessions never depend on other phones, event order or thread count.
public enum P6PhoneModel {
    /// The phone's epoch for the UTC day starting at `midnight`; IEC and EPK from its own stream
    /// (a real phone uses a secure random generator).
    public static func epoch(seed: UInt64, phone: Int, midnight: SimTime, sliceSeconds: Int = P6Epoch.defaultSliceDuration,
                             stream: RandomStream) -> P6Epoch {
        stream.reseed(StreamKey(seed: seed, stream: "p6-epoch", index: UInt64(phone) << 24 | UInt64(SimClock.dayNumber(midnight))))
        return try! P6Epoch(start: midnight, duration: 86_400, sliceDuration: sliceSeconds, iec: stream.bytes(32), epk: stream.bytes(32))
    }

    /// The phone's epochs of the UTC day starting at `midnight`, in time order: the day epoch,
    /// ended at once by each disclosure (ascending times within the day), each followed by a fresh
    /// epoch from the next slice boundary (`P6Epoch.afterDisclosure`). Without disclosures: `[epoch(…)]`.
    public static func epochs(seed: UInt64, phone: Int, midnight: SimTime, sliceSeconds: Int = P6Epoch.defaultSliceDuration,
                              disclosures: [SimTime], stream: RandomStream) -> [P6Epoch] {
        var current: P6Epoch? = epoch(seed: seed, phone: phone, midnight: midnight, sliceSeconds: sliceSeconds, stream: stream)
        guard !disclosures.isEmpty else { return [current!] }
        stream.reseed(StreamKey(seed: seed, stream: "p6-epoch-after-disclosure", index: UInt64(phone) << 24 | UInt64(SimClock.dayNumber(midnight))))
        var out: [P6Epoch] = []
        for t in disclosures {
            // An epoch that had not started yet (a second disclosure within the slice) was never used.
            if let c = current, t > c.start { out.append(try! c.ended(at: min(t, c.end))) }
            let iec = stream.bytes(32), epk = stream.bytes(32)
            current = try! P6Epoch.afterDisclosure(at: t, sliceDuration: sliceSeconds, iec: iec, epk: epk)
        }
        if let c = current { out.append(c) }
        return out
    }

    /// Transmit sessions within the day, ascending and disjoint: an alternating renewal process
    /// with exponential sessions (mean `meanSessionSeconds`) and gaps sized so that the long-run
    /// share of time transmitting is `share`; the day starts in a session with probability `share`.
    public static func transmitSessions(seed: UInt64, phone: Int, midnight: SimTime, share: Double, meanSessionSeconds: Double,
                                        stream: RandomStream) -> [Range<SimTime>] {
        precondition((0...1).contains(share) && meanSessionSeconds > 0)
        if share <= 0 { return [] }
        if share >= 1 { return [midnight..<(midnight + SimDuration.day)] }
        stream.reseed(StreamKey(seed: seed, stream: "p6-transmit", index: UInt64(phone) << 24 | UInt64(SimClock.dayNumber(midnight))))
        let meanGap = meanSessionSeconds * (1 - share) / share
        let end = midnight + SimDuration.day
        var t = Double(midnight)
        var on = stream.uniform() < share
        var sessions: [Range<SimTime>] = []
        while t < Double(end) {
            let length = stream.exponential(mean: on ? meanSessionSeconds : meanGap)
            let lo = SimTime(t.rounded()), hi = min(end, SimTime((t + length).rounded()))
            if on && lo < hi { sessions.append(lo..<hi) }
            t += length
            on.toggle()
        }
        return sessions
    }
}
