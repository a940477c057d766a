import Foundation
import GSL
import SwiftProtobuf

/// Upload request bodies encoded as the apps encode them; the pipeline counts their length.
/// Padding characters come from the caller's GSL stream, so bodies are reproducible.
public enum UploadBodies {
    // MARK: Immuni: JSON body of POST /v1/ingestion/upload

    /// One exposure of an Exposure Detection Summary (A/G framework v1 `ENExposureInfo`).
    public struct ImmuniExposureInfo: Sendable, Hashable {
        public var date: String  // yyyy-MM-dd
        public var duration: Int  // seconds
        public var attenuationValue: Int
        public var attenuationDurations: [Int]  // 3 buckets, seconds
        public var transmissionRiskLevel: Int
        public var totalRiskScore: Int

        public init(date: String, duration: Int, attenuationValue: Int, attenuationDurations: [Int],
                    transmissionRiskLevel: Int, totalRiskScore: Int) {
            self.date = date
            self.duration = duration
            self.attenuationValue = attenuationValue
            self.attenuationDurations = attenuationDurations
            self.transmissionRiskLevel = transmissionRiskLevel
            self.totalRiskScore = totalRiskScore
        }

        var json: [String: Any] {
            ["date": date, "duration": duration, "attenuation_value": attenuationValue,
             "attenuation_durations": attenuationDurations, "transmission_risk_level": transmissionRiskLevel,
             "total_risk_score": totalRiskScore]
        }
    }

    /// One detection's summary (A/G framework v1 `ENExposureDetectionSummary`) with its exposures.
    public struct ImmuniSummary: Sendable, Hashable {
        public var date: String
        public var matchedKeyCount: Int
        public var daysSinceLastExposure: Int
        public var attenuationDurations: [Int]
        public var maximumRiskScore: Int
        public var exposureInfo: [ImmuniExposureInfo]

        public init(date: String, matchedKeyCount: Int, daysSinceLastExposure: Int, attenuationDurations: [Int],
                    maximumRiskScore: Int, exposureInfo: [ImmuniExposureInfo]) {
            self.date = date
            self.matchedKeyCount = matchedKeyCount
            self.daysSinceLastExposure = daysSinceLastExposure
            self.attenuationDurations = attenuationDurations
            self.maximumRiskScore = maximumRiskScore
            self.exposureInfo = exposureInfo
        }

        var json: [String: Any] {
            ["date": date, "matched_key_count": matchedKeyCount, "days_since_last_exposure": daysSinceLastExposure,
             "attenuation_durations": attenuationDurations, "maximum_risk_score": maximumRiskScore,
             "exposure_info": exposureInfo.map(\.json)]
        }
    }

    /// Real upload: keys as given (the pipeline already sends the app's 14 most recent, newest
    /// first), the province, the summaries capped as the app caps them, then `padding` so the
    /// body is `targetBytes` long. Past the target (too many summaries) it goes unpadded, as
    /// the app cannot pad it either.
    public static func immuni(keys: [SubmittedKey], province: String, summaries: [ImmuniSummary], targetBytes: Int,
                              maxSummaries: Int, maxExposureInfo: Int, rng: RandomStream) -> [UInt8] {
        let capped = cap(summaries, maxSummaries: maxSummaries, maxExposureInfo: maxExposureInfo)
        let body: [String: Any] = [
            "teks": keys.map { k in
                ["key_data": Data(k.keyData).base64EncodedString(), "rolling_start_number": Int(k.rollingStartIntervalNumber),
                 "rolling_period": Int(k.rollingPeriod)] as [String: Any]
            },
            "province": province,
            "exposure_detection_summaries": capped.map(\.json),
        ]
        return padded(body, targetBytes: targetBytes, rng: rng)
    }

    /// Dummy upload (`Immuni-Dummy-Data: true`): like the app's, only `padding`, to the same size.
    public static func immuniDummy(targetBytes: Int, rng: RandomStream) -> [UInt8] {
        padded([:], targetBytes: targetBytes, rng: rng)
    }

    /// Adds `padding` of lowercase hex (the ingestion server accepts `^[a-f0-9]{0,150000}$`) so the
    /// body has `targetBytes`. Sorted keys keep bodies byte-identical for equal draws; slashes stay
    /// escaped (`\/`), as Foundation writes them in the app too. The ~110 kB of padding is spliced
    /// into the serialized `"padding":""` (hex needs no escaping, so the bytes are what
    /// JSONSerialization would write): serializing it would cost ~100 times more.
    static func padded(_ body: [String: Any], targetBytes: Int, rng: RandomStream) -> [UInt8] {
        var withPadding = body
        withPadding["padding"] = ""
        var out = try! JSONSerialization.data(withJSONObject: withPadding, options: [.sortedKeys])
        let length = targetBytes - out.count
        // Past the target (too many summaries) the app cannot pad either: sent without padding.
        guard length >= 0 else { return json(body) }
        // Quotes inside values are escaped, so this byte sequence is the key and its empty value.
        guard let marker = out.range(of: Data("\"padding\":\"\"".utf8)) else {
            preconditionFailure("Immuni body without its padding field")
        }
        out.replaceSubrange(marker.upperBound - 1..<marker.upperBound - 1, with: hexPadding(length, rng: rng))
        return [UInt8](out)
    }

    static func json(_ object: [String: Any]) -> [UInt8] {
        [UInt8](try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// `length` lowercase hex digits, eight from each 32-bit draw (two per byte, from a table:
    /// this runs for ~110 kB per upload).
    static func hexPadding(_ length: Int, rng: RandomStream) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (length + 7) / 8 * 8)
        out.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let word = rng.next32()
                raw.storeBytes(of: hexPairs[Int(word & 0xff)], toByteOffset: offset, as: UInt16.self)
                raw.storeBytes(of: hexPairs[Int(word >> 8 & 0xff)], toByteOffset: offset + 2, as: UInt16.self)
                raw.storeBytes(of: hexPairs[Int(word >> 16 & 0xff)], toByteOffset: offset + 4, as: UInt16.self)
                raw.storeBytes(of: hexPairs[Int(word >> 24)], toByteOffset: offset + 6, as: UInt16.self)
                offset += 8
            }
        }
        out.removeLast(out.count - length)
        return out
    }

    /// The two hex digits of each byte, as they lie in memory (little-endian UInt16).
    static let hexPairs: [UInt16] = (0..<256).map { b in
        let digits = Array("0123456789abcdef".utf8)
        return UInt16(digits[b >> 4]) | UInt16(digits[b & 0xf]) << 8
    }

    /// The app's caps: the oldest `maxSummaries` summaries, then across them the `maxExposureInfo`
    /// riskiest exposures (older first on equal risk): a positive user was more likely infected early.
    static func cap(_ summaries: [ImmuniSummary], maxSummaries: Int, maxExposureInfo: Int) -> [ImmuniSummary] {
        var kept = Array(summaries.sorted { $0.date < $1.date }.prefix(maxSummaries))
        let ranked = kept.indices.flatMap { s in kept[s].exposureInfo.indices.map { (s, $0) } }.sorted { a, b in
            let x = kept[a.0].exposureInfo[a.1], y = kept[b.0].exposureInfo[b.1]
            return x.totalRiskScore != y.totalRiskScore ? x.totalRiskScore > y.totalRiskScore : (x.date, a.0, a.1) < (y.date, b.0, b.1)
        }
        let keep = Set(ranked.prefix(maxExposureInfo).map { $0.0 << 32 | $0.1 })
        for s in kept.indices {
            kept[s].exposureInfo = kept[s].exposureInfo.indices.filter { keep.contains(s << 32 | $0) }.map { kept[s].exposureInfo[$0] }
        }
        return kept
    }

    // MARK: CWA: protobuf SubmissionPayload of POST /version/v1/diagnosis-keys

    /// Real submission: the keys with their transmission risk level and days since onset, and
    /// `requestPadding` of `bytesPerKey` random alphanumerics for each key short of `paddedKeyCount`,
    /// as the app pads (its 28 B per key is an estimate, so sizes are close to, not equal to, a fake's).
    public static func cwa(keys: [SubmittedKey], paddedKeyCount: Int, bytesPerKey: Int, rng: RandomStream) -> [UInt8] {
        var payload = CWASubmissionPayload()
        payload.keys = keys.map { k in
            var key = CWATemporaryExposureKey()
            key.keyData = Data(k.keyData)
            key.rollingStartIntervalNumber = Int32(bitPattern: k.rollingStartIntervalNumber)
            key.rollingPeriod = Int32(bitPattern: k.rollingPeriod)
            if let trl = k.transmissionRiskLevel { key.transmissionRiskLevel = trl }
            if let dsos = k.daysSinceOnsetOfSymptoms { key.daysSinceOnsetOfSymptoms = dsos }
            return key
        }
        payload.requestPadding = alphanumericPadding(bytesPerKey * max(paddedKeyCount - keys.count, 0), rng: rng)
        return try! payload.serializedBytes()
    }

    /// Fake submission (`cwa-fake: 1`): no keys, padding for `paddedKeyCount` keys.
    public static func cwaFake(paddedKeyCount: Int, bytesPerKey: Int, rng: RandomStream) -> [UInt8] {
        cwa(keys: [], paddedKeyCount: paddedKeyCount, bytesPerKey: bytesPerKey, rng: rng)
    }

    static func alphanumericPadding(_ length: Int, rng: RandomStream) -> Data {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        return Data((0..<length).map { _ in alphabet[rng.uniformInt(alphabet.count)] })
    }

    /// Decodes a CWA body (for tests and inspection).
    static func decodeCWA(_ body: [UInt8]) throws -> CWASubmissionPayload {
        try CWASubmissionPayload(serializedBytes: body)
    }
}
