import EventEngine
import GAEN
import GSL
import World

/// What an app sends: a case's keys as its phone holds them, a faulty client's corruption, and
/// the request body as the app encodes it (UploadBodies.swift), whose length the backend counts.
package final class UploadPayloads {
    package let parameters: BackendParameters
    package let seed: UInt64
    /// Padding draws of each upload body, reseeded per upload from ("backend.body", time, uploader).
    private let bodyStream: RandomStream
    /// Length of every dummy/fake upload body: padding makes it independent of the draws, so one
    /// encoded body stands for the hour's aggregated count.
    package let dummyBodyBytes: Int
    /// Immuni's exposure detection summaries app phone `phone` holds at a time (set by the
    /// simulation from its exposure detection; none when unset).
    package var exposureSummaries: ((Int32, SimTime) -> [ImmuniExposureSummary])?

    package init(parameters: BackendParameters, seed: UInt64) {
        self.parameters = parameters
        self.seed = seed
        bodyStream = RandomStream(seed: seed, stream: "backend.body", generator: .taus2)
        dummyBodyBytes = Self.dummyBody(parameters, rng: bodyStream).count
    }

    /// The case's keys of `days` from its phone (a pure function of seed, phone and day), newest
    /// first, with transmission risk by key age and, for CWA, days since symptom onset.
    package func caseKeys(_ c: FlowCase, days: ClosedRange<Int64>, uploadDay: Int64) -> [SubmittedKey] {
        let scratch = RandomStream(seed: seed, stream: "tek", generator: .taus2)
        let onsetDay = c.positive.symptomOnset.map(SimClock.dayNumber)
        return days.reversed().map { day in
            let tek = PhoneFleet.temporaryExposureKey(seed: seed, phone: Int(c.phone), dayNumber: day, stream: scratch)
            return SubmittedKey(tek, transmissionRiskLevel: transmissionRisk(age: uploadDay - day),
                                daysSinceOnsetOfSymptoms: parameters.flavor == .cwa ? onsetDay.map { Int32(day - $0) } : nil)
        }
    }

    package func transmissionRisk(age: Int64) -> Int32 {
        let v = parameters.transmissionRiskByAge
        return v[Int(min(max(age, 0), Int64(v.count - 1)))]
    }

    /// A faulty client: one of duplicate, malformed, future or overlapping keys.
    package static func corrupt(_ keys: inout [SubmittedKey], rng: RandomStream, now: SimTime) {
        guard keys.count >= 2 else { return }
        switch rng.uniformInt(4) {
        case 0: keys[1].keyData = keys[0].keyData
        case 1: keys[0].keyData.removeLast()
        case 2: keys[0].rollingStartIntervalNumber = UInt32(SimClock.dayNumber(now) + 2) * 144
        default: keys[1].rollingStartIntervalNumber = keys[0].rollingStartIntervalNumber
        }
    }

    /// The upload's request body; Immuni's carries the province of `phone` (−1: an uploader
    /// outside the population, a drawn province) and its exposure detection summaries.
    package func body(_ keys: [SubmittedKey], uploader: Int32, phone: Int32, now: SimTime) -> [UInt8] {
        bodyStream.reseed(StreamKey(seed: seed, stream: "backend.body",
                                    index: UInt64(bitPattern: now) << 24 ^ UInt64(UInt32(bitPattern: uploader))))
        switch parameters.flavor {
        case .cwa:
            return UploadBodies.cwa(keys: keys, paddedKeyCount: parameters.cwaPaddedKeyCount,
                                    bytesPerKey: parameters.cwaPaddingBytesPerKey, rng: bodyStream)
        case .immuni:
            let province = phone >= 0 ? ImmuniProvince.code(phone: phone, seed: seed) : ImmuniProvince.code(drawnFrom: bodyStream)
            let summaries = phone >= 0 ? exposureSummaries?(phone, now) ?? [] : []
            return UploadBodies.immuni(keys: keys, province: province, summaries: summaries, targetBytes: parameters.immuniUploadTargetBytes,
                                       maxSummaries: parameters.immuniMaxSummaryCount,
                                       maxExposureInfo: parameters.immuniMaxExposureInfoCount, rng: bodyStream)
        }
    }

    package static func dummyBody(_ p: BackendParameters, rng: RandomStream) -> [UInt8] {
        switch p.flavor {
        case .cwa: return UploadBodies.cwaFake(paddedKeyCount: p.cwaPaddedKeyCount, bytesPerKey: p.cwaPaddingBytesPerKey, rng: rng)
        case .immuni: return UploadBodies.immuniDummy(targetBytes: p.immuniUploadTargetBytes, rng: rng)
        }
    }
}
