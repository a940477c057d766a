import EventEngine
import GSL
import P6
import World

/// What a P6 receiver records of a P6 sender during one contact, on the same channel model as
/// GAEN. For every slice in which the sender transmits while they are together, the receiver's
/// background iBeacon monitoring gets a 4-second look (the scan window) at the sender's adverts:
/// the code is recorded if at least one advert is received. Receiver clocks are loosely
/// synchronised: the record's time carries the receiver's clock offset, so receptions near a
/// slice edge can land in the neighbouring slice (and then do not match).
public enum P6ContactReception {
    /// With `crowd` (begun for this contact and direction) adverts are also lost to collisions.
    package static func hear(segments: UnsafeBufferPointer<ContactSegment>, start: SimTime, layer: ContactLayer,
                             sender epoch: P6Epoch, sessions: [Range<SimTime>], model: ChannelModel, extraLoss: Double,
                             clockOffsetSeconds: Double, stream: RandomStream, crowd: CrowdedChannel? = nil,
                             into records: inout [P6RxRecord]) {
        let p = model.parameters
        let end = start + Int64(segments.reduce(0) { $0 + Int($1.seconds) })
        var cursor = P6TxCursor(epoch: epoch)
        for session in sessions where session.lowerBound < end && session.upperBound > start {
            let lo = max(start, session.lowerBound, epoch.start), hi = min(end, session.upperBound, epoch.end)
            guard lo < hi, var s = epoch.sliceIndex(at: lo) else { continue }
            while s < epoch.sliceCount && epoch.sliceStart(s) < hi {
                defer { s += 1 }
                // Look at the middle of the overlap of this slice with the contact and session.
                let a = max(lo, epoch.sliceStart(s)), b = min(hi, epoch.sliceStart(s) + Int64(epoch.sliceDuration))
                guard b - a >= 1 else { continue }
                let t = a + (b - a) / 2
                let mean = model.meanAttenuation(log10Metres: log10Distance(at: t, segments: segments, start: start), layer: layer,
                                                 extraLoss: extraLoss)
                let look = min(Double(b - a), p.scanWindowSeconds)
                let adverts = max(1, Int(look * 1000 / stream.uniform(p.advertIntervalMs.lowerBound, p.advertIntervalMs.upperBound)))
                let heard = if let crowd { crowd.window(at: t, mean: mean, adverts: adverts, model: model, stream: stream) }
                    else { ContactRadio.window(mean: mean, adverts: adverts, model: model, stream: stream) }
                guard heard != nil else { continue }
                let tx = cursor.slice(s)
                let local = t + SimTime(clockOffsetSeconds.rounded())
                records.append(P6RxRecord(time: local, uuidIndex: tx.uuidIndex, code: tx.code))
            }
        }
    }

    /// The base-10 logarithm of the distance at `t` (`ContactSegment.log10Metres`).
    package static func log10Distance(at t: SimTime, segments: UnsafeBufferPointer<ContactSegment>, start: SimTime) -> Double {
        var segmentEnd = start
        for segment in segments {
            segmentEnd += Int64(segment.seconds)
            if t < segmentEnd { return segment.log10Metres }
        }
        return segments.last?.log10Metres ?? ContactSegment.log10Metres(0)
    }
}
