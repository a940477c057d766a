import Foundation
import GSL
import SwiftProtobuf

/// Upload request bodies encoded as the apps encode them; the pipeline counts their length.
/// Padding characters come from the caller's GSL stream, so bodies are reproducible.
public enum UploadBodies {
    // MARK: Immuni: JSON body of POST /v1/ingestion/upload

    package struct ImmuniTEK: Encodable {
        package var keyData: String
        package var rollingStartNumber: Int
        package var rollingPeriod: Int

        package enum CodingKeys: String, CodingKey {
            case keyData = "key_data", rollingStartNumber = "rolling_start_number", rollingPeriod = "rolling_period"
        }
    }

    package struct ImmuniUpload: Encodable {
        package var teks: [ImmuniTEK]
        package var province: String
        package var exposureDetectionSummaries: [ImmuniExposureSummary]
        package var padding: String?

        package enum CodingKeys: String, CodingKey {
            case teks, province, exposureDetectionSummaries = "exposure_detection_summaries", padding
        }
    }

    /// A dummy upload's body: padding only, as the app sends it.
    package struct ImmuniDummy: Encodable {
        package var padding: String?
    }

    /// Real upload: keys as given (the pipeline already sends the app's 14 most recent, newest
    /// first), the province, the summaries capped as the app caps them, then `padding` so the
    /// body is `targetBytes` long.
    public static func immuni(keys: [SubmittedKey], province: String, summaries: [ImmuniExposureSummary], targetBytes: Int,
                              maxSummaries: Int, maxExposureInfo: Int, rng: RandomStream) -> [UInt8] {
        var body = ImmuniUpload(
            teks: keys.map { ImmuniTEK(keyData: Data($0.keyData).base64EncodedString(), rollingStartNumber: Int($0.rollingStartIntervalNumber),
                                       rollingPeriod: Int($0.rollingPeriod)) },
            province: province,
            exposureDetectionSummaries: cap(summaries, maxSummaries: maxSummaries, maxExposureInfo: maxExposureInfo),
            padding: "")
        if let out = padded(json(body), targetBytes: targetBytes, rng: rng) { return out }
        body.padding = nil
        return json(body)
    }

    /// Dummy upload (`Immuni-Dummy-Data: true`): like the app's, only `padding`, to the same size.
    public static func immuniDummy(targetBytes: Int, rng: RandomStream) -> [UInt8] {
        padded(json(ImmuniDummy(padding: "")), targetBytes: targetBytes, rng: rng) ?? json(ImmuniDummy(padding: nil))
    }

    /// Fills the empty `"padding":""` of `body` with lowercase hex (the ingestion server accepts
    /// `^[a-f0-9]{0,150000}$`) so it has `targetBytes`; nil if the body is already too long (too
    /// many summaries: the app's encoder fails there; ENSim sends it unpadded). Hex needs no
    /// escaping, so the bytes are what the encoder writes for the padded string; splicing ~110 kB
    /// in is far cheaper than encoding it.
    package static func padded(_ body: [UInt8], targetBytes: Int, rng: RandomStream) -> [UInt8]? {
        let length = targetBytes - body.count
        guard length >= 0 else { return nil }
        // Quotes inside values are escaped, so this byte sequence is the key and its empty value.
        let marker = Array("\"padding\":\"\"".utf8)
        guard let at = Data(body).range(of: Data(marker)) else { preconditionFailure("Immuni body without its padding field") }
        var out = [UInt8]()
        out.reserveCapacity(targetBytes)
        out.append(contentsOf: body[..<(at.upperBound - 1)])
        out.append(contentsOf: hexPadding(length, rng: rng))
        out.append(contentsOf: body[(at.upperBound - 1)...])
        return out
    }

    /// Sorted keys, so bodies are byte-identical for equal draws; slashes stay escaped (`\/`), as
    /// Foundation writes them in the app too.
    package static func json(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return [UInt8](try! encoder.encode(value))
    }

    /// `length` lowercase hex digits, eight from each 32-bit draw (two per byte, from a table:
    /// this runs for ~110 kB per upload).
    package static func hexPadding(_ length: Int, rng: RandomStream) -> [UInt8] {
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
    package static let hexPairs: [UInt16] = (0..<256).map { b in
        let digits = Array("0123456789abcdef".utf8)
        return UInt16(digits[b >> 4]) | UInt16(digits[b & 0xf]) << 8
    }

    /// The app's caps: the oldest `maxSummaries` summaries, then across them the `maxExposureInfo`
    /// riskiest exposures (older first on equal risk): a positive user was more likely infected early.
    package static func cap(_ summaries: [ImmuniExposureSummary], maxSummaries: Int, maxExposureInfo: Int) -> [ImmuniExposureSummary] {
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

    package static func alphanumericPadding(_ length: Int, rng: RandomStream) -> Data {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        return Data((0..<length).map { _ in alphabet[rng.uniformInt(alphabet.count)] })
    }

    /// Decodes a CWA body (for tests and inspection).
    static func decodeCWA(_ body: [UInt8]) throws -> CWASubmissionPayload {
        try CWASubmissionPayload(serializedBytes: body)
    }
}
