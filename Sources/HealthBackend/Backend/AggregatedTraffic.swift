import EventEngine
import GAEN
import GSL

/// Traffic counted per hour instead of one event each: dummy sessions from healthy phones and
/// key uploads from the rest of the country. Each hour's draws come from its own stream
/// ("backend.hour", hour), dummy sessions first.
package struct AggregatedTraffic {
    package let health: HealthParameters
    package let parameters: BackendParameters
    package let seed: UInt64
    package let appPhones: Int
    package let ledger: BackendLedger
    package let payloads: UploadPayloads
    package let server: UploadServer
    package let flow: any KeySubmissionFlow

    /// The hour starting at `t`.
    package func hour(_ t: SimTime) {
        let rng = RandomStream(seed: seed, stream: "backend.hour", index: UInt64(bitPattern: t / SimDuration.hour), generator: .taus2)
        dummySessions(hour: t, rng: rng)
        nationalUploads(hour: t, rng: rng)
        federationKeys(hour: t)
    }

    /// Dummy sessions in [t, t + 1 h): a Poisson count. The servers accept and discard them;
    /// they count in load and bytes.
    package func dummySessions(hour t: SimTime, rng: RandomStream) {
        let n = Int64(rng.poisson(mean: parameters.dummyUploadsPerPhoneDay * Double(appPhones) / 24))
        guard n > 0 else { return }
        for endpoint in flow.dummySessionEndpoints { ledger.count(endpoint, at: t, n) }
        if let h = ledger.hourIndex(t) {
            ledger.hourly[h].dummyUploads += n
            ledger.hourly[h].uploadBytes += n * Int64(payloads.dummyBodyBytes)
        }
    }

    /// Uploads in [t, t + 1 h): random keys (uploader −1) through the same validation and
    /// publishing, so packages have national size.
    package func nationalUploads(hour t: SimTime, rng: RandomStream) {
        let n = rng.poisson(mean: health.nationalUploadsPerDay / 24)
        let day = SimClock.dayNumber(t)
        for _ in 0..<n {
            let at = t + Int64(rng.uniformInt(Int(SimDuration.hour)))
            let keys = flow.fullUploadDays(on: day).reversed().map { d in
                SubmittedKey(keyData: rng.bytes(16), rollingStartIntervalNumber: UInt32(d * 144),
                             transmissionRiskLevel: payloads.transmissionRisk(age: day - d))
            }
            ledger.count(flow.uploadEndpoint, at: at)
            server.submit(keys, uploader: -1, phone: -1, now: at, national: true)
        }
    }

    /// Keys from other countries' backends in [t, t + 1 h) (EFGS, CWA since October 2020):
    /// Poisson(keys/day ÷ 24) random keys of the flow's upload days, handed straight to the
    /// publisher: a federation download, not an app upload (no request, no validation), so they
    /// reach the national packages and never match a phone of the contact population. Their own
    /// stream ("backend.efgs", hour): without them a run keeps every other draw.
    package func federationKeys(hour t: SimTime) {
        guard parameters.efgsKeysPerDay > 0 else { return }
        let rng = RandomStream(seed: seed, stream: "backend.efgs", index: UInt64(bitPattern: t / SimDuration.hour), generator: .taus2)
        let n = rng.poisson(mean: parameters.efgsKeysPerDay / 24)
        let day = SimClock.dayNumber(t)
        let days = flow.fullUploadDays(on: day)
        for _ in 0..<n {
            let at = t + Int64(rng.uniformInt(Int(SimDuration.hour)))
            let d = days.lowerBound + Int64(rng.uniformInt(days.count))
            let key = SubmittedKey(keyData: rng.bytes(16), rollingStartIntervalNumber: UInt32(d * 144),
                                   transmissionRiskLevel: payloads.transmissionRisk(age: day - d))
            guard let diagnosis = key.diagnosisKey else { continue }
            server.publisher.add([PublishedKey(key: diagnosis, uploader: -1, uploadedAt: at)], now: at)
            ledger.federationKeys += 1
        }
    }
}
