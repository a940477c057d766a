import EventEngine
import GSL
import HealthBackend
import P6

/// A P6 disclosure as published, with the ground truth the simulator keeps beside it.
package struct P6PublishedDisclosure: Sendable {
    package let disclosure: P6Disclosure
    package let person: Int32
    package let phone: Int32
    /// The case's test (notification latency is measured from it, as for GAEN).
    package let testedAt: SimTime
    /// When the case disclosed (its GAEN upload); Rx parts after it are never matched.
    package let at: SimTime
    /// End of the disclosure-file period it is published in.
    package let fileTime: SimTime
    package let bytes: Int
    /// Rx records of the trace left out by the per-slice cap.
    package var rxRecordsWithheld = 0
    /// Rx records left out because they were received at home.
    package var rxRecordsWithheldAtHome = 0
    /// When its revocation is on the revocation list (nil: never revoked).
    package var revocationListedAt: SimTime? = nil
    /// Region streams it is published in, ascending (the discloser's home region, plus stated ones).
    package var streams: [Int32] = [0]
    /// Made without a positive test (an attack, `p6.attacks`).
    package var fake = false
    /// The scaled replay attack it discloses for.
    package var replayAttack: Int? = nil
    /// When reports of its matches reached the threshold (nil: never).
    package var revokedByReportsAt: SimTime? = nil
}

/// Who discloses, when, and from which UTC day on: a case whose GAEN upload was accepted, or an attacker.
package struct P6DisclosureRequest: Sendable {
    package var person: Int32
    package var phone: Int32
    /// The case's test; for a fake, the disclosure itself.
    package var testedAt: SimTime
    package var at: SimTime
    package var firstDay: Int64
    /// When the phone started using P6 (epochs before are not its own; nil: before the run).
    package var installedAt: SimTime? = nil
    /// A modified client discloses every epoch, whatever its age.
    package var ignoresEpochAge = false
    package var fake = false
    package var replayAttack: Int? = nil
}

/// Builds disclosures as the P6 SDK would: the Tx traces of the case's epochs in its infectious
/// window that started at least the minimum age before the disclosure (the current one cut at the
/// disclosure time), plus its Rx trace for the periods of those epochs when it was not transmitting.
package struct P6DisclosureBuilder {
    package let parameters: P6RunParameters
    package let seed: UInt64
    package let phoneIsIOS: [Bool]

    /// - Parameter disclosedAt: the phone's disclosure times so far, this one included (each
    ///   ended the epoch then in use and started a new one).
    package func build(_ upload: CaseUpload, index: Int, rx: P6RxStore, start: SimTime, disclosedAt: [SimTime]) -> P6PublishedDisclosure {
        build(request(upload), index: index, rx: rx, start: start, disclosedAt: disclosedAt)
    }

    package func request(_ upload: CaseUpload) -> P6DisclosureRequest {
        P6DisclosureRequest(person: upload.positiveCase.person, phone: upload.phone, testedAt: upload.positiveCase.testedAt, at: upload.at,
                            firstDay: firstDay(upload))
    }

    package func build(_ request: P6DisclosureRequest, index: Int, rx: P6RxStore, start: SimTime, disclosedAt: [SimTime]) -> P6PublishedDisclosure {
        let t = request.at, phone = Int(request.phone)
        let uploadDay = SimClock.dayNumber(t)
        let first = request.firstDay
        let stream = RandomStream(seed: seed, stream: "p6-disclosure", generator: .taus2)
        var epochs: [P6Epoch] = []
        var trace: [P6RxRecord] = []
        var withheldAtHome = 0
        for dayNumber in stride(from: first, through: uploadDay, by: 1) {
            let midnight = dayNumber * SimDuration.day
            let before = disclosedAt.filter { SimClock.dayNumber($0) == dayNumber && $0 <= t }
            let used = P6PhoneModel.epochs(seed: seed, phone: phone, midnight: midnight, sliceSeconds: parameters.sliceSeconds,
                                           disclosures: before, stream: stream)
            let day = rx.day(Int((midnight - start) / SimDuration.day))
            let share = phoneIsIOS[phone] ? parameters.transmit.iosShare : parameters.transmit.androidShare
            let sessions = day == nil ? [] : P6PhoneModel.transmitSessions(seed: seed, phone: phone, midnight: midnight, share: share,
                                                                          meanSessionSeconds: parameters.transmit.meanSessionSeconds, stream: stream)
            for (k, epoch) in used.enumerated() {
                // The seed's minimum age: an epoch is disclosed only once it started (was first used) this long ago.
                let firstUse = max(epoch.start, request.installedAt ?? epoch.start)
                guard epoch.start < t, firstUse < t, firstUse < epoch.end, request.ignoresEpochAge || firstUse + Int64(parameters.minimumEpochAgeSeconds) <= t else { continue }
                epochs.append(epoch.end > t ? try! epoch.ended(at: t) : epoch)
                guard let day else { continue }
                // The day's first epoch also takes receptions stamped just before midnight (clock offsets).
                let from = k == 0 ? Int64.min : epoch.start, to = min(epoch.end, t)
                let home = day.receivedAtHome(phone)
                for (i, r) in day.trace(phone).enumerated() where r.time >= from && r.time < to && !sessions.contains(where: { $0.contains(r.time) }) {
                    if parameters.withholdAtHome && home[i] { withheldAtHome += 1 } else { trace.append(r) }
                }
            }
        }
        stream.reseed(StreamKey(seed: seed, stream: "p6-disclosure-id", index: UInt64(index)))
        let disclosed = P6RxTraceCodec.subsample(trace, perSlice: parameters.rxRecordsPerSlice, sliceSeconds: parameters.sliceSeconds)
        let disclosure = try! P6Disclosure(id: stream.bytes(P6Disclosure.idByteCount), epochs: epochs, rxTrace: disclosed)
        let period = Int64(parameters.disclosureFileSeconds)
        return P6PublishedDisclosure(disclosure: disclosure, person: request.person, phone: request.phone,
                                     testedAt: request.testedAt, at: t,
                                     fileTime: (t / period + 1) * period, bytes: disclosure.encodedByteCount(rx: parameters.rxTraceEncoding),
                                     rxRecordsWithheld: trace.count - disclosed.count, rxRecordsWithheldAtHome: withheldAtHome,
                                     revocationListedAt: revocation(index: index, at: t), fake: request.fake,
                                     replayAttack: request.replayAttack)
    }

    /// Whether disclosure `index` is revoked (stream "p6-revocation", index) and when the
    /// revocation list holding it is published: the end of the file period its revocation falls in.
    func revocation(index: Int, at t: SimTime) -> SimTime? {
        guard parameters.revokedShare > 0,
              RandomStream(seed: seed, stream: "p6-revocation", index: UInt64(index)).bernoulli(p: parameters.revokedShare) else { return nil }
        let period = Int64(parameters.disclosureFileSeconds)
        return ((t + Int64(parameters.revocationDelaySeconds)) / period + 1) * period
    }

    /// First UTC day number a disclosure of `upload` covers: the case's infectious window, at most
    /// the Rx retention back.
    package func firstDay(_ upload: CaseUpload) -> Int64 {
        max(upload.positiveCase.infectiousFromDay, SimClock.dayNumber(upload.at) - Int64(parameters.rxRetentionDays) + 1)
    }
}
