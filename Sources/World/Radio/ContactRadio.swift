import EventEngine
import GSL

/// One scan window of a receiver in which it heard at least one advert of a sender.
public struct HeardScan: Sendable, Equatable {
    public var time: SimTime
    public var typicalAttenuation: UInt8
    public var minimumAttenuation: UInt8
    public var secondsSinceLastScan: UInt16
}

/// Where `ContactRadio.hear` puts each heard scan, in time order.
package protocol HeardScanSink {
    mutating func hear(_ scan: HeardScan)
}

extension Array: HeardScanSink where Element == HeardScan {
    @inline(__always)
    package mutating func hear(_ scan: HeardScan) { append(scan) }
}

/// What a receiver hears of a sender during one contact, in closed form: no event per
/// advertisement, one computation per scan window that falls inside the contact.
public enum ContactRadio {
    /// Appends the receiver's heard scans, in time order. `extraLoss` holds the contact's fixed
    /// losses (`ChannelModel.contactLoss`); `stream` must be keyed to this contact and direction.
    public static func hear(segments: UnsafeBufferPointer<ContactSegment>, start: SimTime, layer: ContactLayer,
                            scans: ScanSchedule, model: ChannelModel, extraLoss: Double, stream: RandomStream,
                            into heard: inout [HeardScan]) {
        hear(segments: segments, start: start, layer: layer, scans: scans, model: model, extraLoss: extraLoss, stream: stream,
             crowd: nil, into: &heard)
    }

    /// `hear` with `crowd` (begun for this contact and direction): adverts are also lost to collisions.
    package static func hear(segments: UnsafeBufferPointer<ContactSegment>, start: SimTime, layer: ContactLayer,
                             scans: ScanSchedule, model: ChannelModel, extraLoss: Double, stream: RandomStream,
                             crowd: CrowdedChannel?, into heard: inout [HeardScan]) {
        hear(segments: segments, start: start, layer: layer, scans: scans, model: model, extraLoss: extraLoss, stream: stream,
             crowd: crowd, sink: &heard)
    }

    /// `hear` into any sink: the radio's recorder stores the scans as it hears them, without a
    /// `HeardScan` array between (two copies of every scan and an array check per append).
    package static func hear<Sink: HeardScanSink>(segments: UnsafeBufferPointer<ContactSegment>, start: SimTime, layer: ContactLayer,
                                                  scans: ScanSchedule, model: ChannelModel, extraLoss: Double, stream: RandomStream,
                                                  crowd: CrowdedChannel?, sink heard: inout Sink) {
        let p = model.parameters
        var segment = 0
        var segmentEnd = start + Int64(segments.first?.seconds ?? 0)
        let end = start + Int64(segments.reduce(0) { $0 + Int($1.seconds) })
        var scan = scans.firstScan(atOrAfter: start)
        // A segment's mean attenuation is computed once, for all the scans that fall in it.
        var mean = segments.isEmpty ? 0 : model.meanAttenuation(log10Metres: segments[0].log10Metres, layer: layer, extraLoss: extraLoss)
        while scan.time < end {
            let t = scan.time, sinceLast = scan.secondsSinceLastScan
            defer { scan = scans.next(after: scan) }
            if t >= segmentEnd && segment + 1 < segments.count {
                repeat {
                    segment += 1
                    segmentEnd += Int64(segments[segment].seconds)
                } while t >= segmentEnd && segment + 1 < segments.count
                mean = model.meanAttenuation(log10Metres: segments[segment].log10Metres, layer: layer, extraLoss: extraLoss)
            }
            let adverts = Int(p.scanWindowSeconds * 1000 / stream.uniform(p.advertIntervalMs.lowerBound, p.advertIntervalMs.upperBound))
            let scan = if let crowd { crowd.window(at: t, mean: mean, adverts: adverts, model: model, stream: stream) }
                else { window(mean: mean, adverts: adverts, model: model, stream: stream) }
            if let scan {
                heard.hear(HeardScan(time: t, typicalAttenuation: scan.typical, minimumAttenuation: scan.minimum,
                                     secondsSinceLastScan: UInt16(clamping: sinceLast)))
            }
        }
    }

    /// One scan window: each advert fades independently and is received with the logistic
    /// probability of its own attenuation. Where at most 8% of adverts are lost on average (2%
    /// with fewer than 12 adverts) the window is drawn in closed form (`ClosedFormWindow`); far
    /// above the reception threshold (beyond 4 σ of fading) nothing is received. Inlined in the
    /// loop over scans, the rarer per-advert draw kept out of it (the call per scan was 0.5% of a
    /// run's instructions).
    @inline(__always)
    package static func window(mean: Double, adverts: Int, model: ChannelModel, stream: RandomStream) -> (typical: UInt8, minimum: UInt8)? {
        let sigma = model.parameters.fadingSigma
        if mean - 4 * sigma > model.neverAbove { return nil }
        return model.closedForm.window(mean: mean, adverts: adverts, stream: stream)
            ?? perAdvertWindow(mean: mean, adverts: adverts, model: model, stream: stream)
    }

    /// `window` with a draw for each advert: its fading, and whether it is received (certain, and
    /// not drawn, beyond 4 σ of fading below the threshold).
    @inline(never)
    package static func perAdvertWindow(mean: Double, adverts: Int, model: ChannelModel, stream: RandomStream) -> (typical: UInt8, minimum: UInt8)? {
        let sigma = model.parameters.fadingSigma
        let certain = mean + 4 * sigma < model.alwaysBelow
        return model.withReceptionTable { table in
            var received = 0
            var sum = 0.0
            var minimum = Double.infinity
            for _ in 0..<adverts {
                let a = mean + stream.normal(sd: sigma)
                if certain || model.receives(attenuation: a, draw: stream.uniform(), table: table) {
                    received &+= 1
                    sum += a
                    minimum = min(minimum, a)
                }
            }
            guard received > 0 else { return nil }
            return (ChannelModel.byte(sum / Double(received)), ChannelModel.byte(minimum))
        }
    }
}
