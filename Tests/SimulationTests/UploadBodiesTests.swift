@testable import Analytics
@testable import Detection
import EventEngine
import Foundation
import GSL
@testable import HealthBackend
@testable import Simulation
import Testing

@Suite struct UploadBodiesTests {
    let target = BackendParameters().immuniUploadTargetBytes

    func object(_ body: [UInt8]) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(body))
        return try #require(parsed as? [String: Any])
    }

    func isHex(_ s: String) -> Bool { s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } }

    @Test func immuniBodyDecodesToTheUploadedKeys() throws {
        let keys = submittedKeys(14, trl: nil, seed: 9)
        let body = UploadBodies.immuni(keys: keys, province: "RM", summaries: [], targetBytes: target, maxSummaries: 84,
                                       maxExposureInfo: 600, rng: RandomStream(seed: 1, stream: "body-test"))
        #expect(body.count == target && target == 110_000)
        let json = try object(body)
        #expect(Set(json.keys) == ["teks", "province", "exposure_detection_summaries", "padding"])
        #expect(json["province"] as? String == "RM")
        #expect((json["exposure_detection_summaries"] as? [Any])?.isEmpty == true)
        let teks = try #require(json["teks"] as? [[String: Any]])
        #expect(teks.count == keys.count)
        for (tek, key) in zip(teks, keys) {
            let base64 = try #require(tek["key_data"] as? String)
            let data = try #require(Data(base64Encoded: base64))
            #expect([UInt8](data) == key.keyData)
            #expect(tek["rolling_start_number"] as? Int == Int(key.rollingStartIntervalNumber))
            #expect(tek["rolling_period"] as? Int == 144)
            #expect(tek.count == 3)
        }
        let padding = try #require(json["padding"] as? String)
        #expect(!padding.isEmpty && padding.count <= 150_000 && isHex(padding))
        // The spliced padding gives the bytes JSONSerialization writes for the whole object.
        #expect([UInt8](try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) == body)
        #expect(String(decoding: body, as: UTF8.self).contains("\\/"))  // slashes escaped, as the app's Foundation does
    }

    @Test func immuniRealAndDummyBodiesHaveTheSameSize() throws {
        let rng = RandomStream(seed: 2, stream: "body-test")
        let dummy = UploadBodies.immuniDummy(targetBytes: target, rng: rng)
        #expect(dummy.count == target)
        let json = try object(dummy)
        let dummyPadding = try #require(json["padding"] as? String)
        #expect(json.count == 1 && isHex(dummyPadding))
        // Any key count the server accepts, and a malformed key, give the same length.
        for n in [1, 13, 14, 30] {
            var keys = submittedKeys(n, seed: UInt64(n))
            if n == 13 { keys[0].keyData.removeLast() }
            let body = UploadBodies.immuni(keys: keys, province: "BZ", summaries: [], targetBytes: target, maxSummaries: 84,
                                           maxExposureInfo: 600, rng: rng)
            #expect(body.count == dummy.count)
        }
        // Padding is drawn from the GSL stream: the same stream gives the same body.
        let a = UploadBodies.immuniDummy(targetBytes: 500, rng: RandomStream(seed: 3, stream: "body-test"))
        let b = UploadBodies.immuniDummy(targetBytes: 500, rng: RandomStream(seed: 3, stream: "body-test"))
        let c = UploadBodies.immuniDummy(targetBytes: 500, rng: RandomStream(seed: 4, stream: "body-test"))
        #expect(a == b && a != c && a.count == 500)
    }

    @Test func immuniSummariesAreEncodedAndCappedAsTheAppDoes() throws {
        func info(_ date: String, risk: Int) -> ImmuniExposureInfo {
            .init(date: date, duration: 900, attenuationValue: 55, attenuationDurations: [300, 600, 0],
                  transmissionRiskLevel: 5, totalRiskScore: risk)
        }
        func summary(_ date: String, _ infos: [ImmuniExposureInfo]) -> ImmuniExposureSummary {
            .init(date: date, matchedKeyCount: infos.count, daysSinceLastExposure: 2, attenuationDurations: [300, 600, 0],
                  maximumRiskScore: infos.map(\.totalRiskScore).max() ?? 0, exposureInfo: infos)
        }
        let summaries = [summary("2020-10-05", [info("2020-10-03", risk: 40)]),
                         summary("2020-10-02", [info("2020-09-30", risk: 10), info("2020-10-01", risk: 30)]),
                         summary("2020-10-03", [info("2020-10-02", risk: 30), info("2020-10-01", risk: 5)])]
        // The two oldest summaries; of their exposures, the two riskiest (older first on a tie).
        let capped = UploadBodies.cap(summaries, maxSummaries: 2, maxExposureInfo: 2)
        #expect(capped.map(\.date) == ["2020-10-02", "2020-10-03"])
        #expect(capped.map { $0.exposureInfo.map(\.date) } == [["2020-10-01"], ["2020-10-02"]])

        let body = UploadBodies.immuni(keys: submittedKeys(2), province: "MI", summaries: summaries, targetBytes: target,
                                       maxSummaries: 2, maxExposureInfo: 2, rng: RandomStream(seed: 5, stream: "body-test"))
        #expect(body.count == target)
        let decoded = try object(body)
        let encoded = try #require(decoded["exposure_detection_summaries"] as? [[String: Any]])
        #expect(encoded.map { $0["date"] as? String } == ["2020-10-02", "2020-10-03"])
        let first = encoded[0]
        #expect(first["matched_key_count"] as? Int == 2 && first["days_since_last_exposure"] as? Int == 2)
        #expect(first["attenuation_durations"] as? [Int] == [300, 600, 0] && first["maximum_risk_score"] as? Int == 30)
        let exposure = try #require((first["exposure_info"] as? [[String: Any]])?.first)
        #expect(exposure["date"] as? String == "2020-10-01" && exposure["duration"] as? Int == 900)
        #expect(exposure["attenuation_value"] as? Int == 55 && exposure["attenuation_durations"] as? [Int] == [300, 600, 0])
        #expect(exposure["transmission_risk_level"] as? Int == 5 && exposure["total_risk_score"] as? Int == 30)
    }

    @Test func cwaBodyDecodesWithSwiftProtobuf() throws {
        var keys = submittedKeys(13, trl: 6, seed: 4)
        for i in keys.indices { keys[i].daysSinceOnsetOfSymptoms = Int32(2 - i) }  // onset two days ago
        let body = UploadBodies.cwa(keys: keys, paddedKeyCount: 14, bytesPerKey: 28, rng: RandomStream(seed: 1, stream: "body-test"))
        let payload = try UploadBodies.decodeCWA(body)
        #expect(payload.keys.count == 13)
        for (p, k) in zip(payload.keys, keys) {
            #expect([UInt8](p.keyData) == k.keyData)
            #expect(p.rollingStartIntervalNumber == Int32(k.rollingStartIntervalNumber) && p.rollingPeriod == 144)
            #expect(p.transmissionRiskLevel == 6 && p.daysSinceOnsetOfSymptoms == k.daysSinceOnsetOfSymptoms)
            #expect(!p.hasReportType)
        }
        #expect(payload.requestPadding.count == 28)
        #expect(payload.requestPadding.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) })
        #expect(payload.visitedCountries.isEmpty && !payload.hasOrigin && !payload.hasConsentToFederation)
    }

    /// The app pads 28 B per key short of 14; its real keys (with TRL and DSOS) take 32 B on the
    /// wire, so real bodies are a little larger than fake ones, as with the real app.
    @Test func cwaFakeAndRealSizes() throws {
        let rng = RandomStream(seed: 6, stream: "body-test")
        let fake = UploadBodies.cwaFake(paddedKeyCount: 14, bytesPerKey: 28, rng: rng)
        #expect(fake.count == 3 + 14 * 28)
        let payload = try UploadBodies.decodeCWA(fake)
        #expect(payload.keys.isEmpty && payload.requestPadding.count == 392)
        for n in [1, 13, 14] {
            var keys = submittedKeys(n, trl: 5)
            for i in keys.indices { keys[i].daysSinceOnsetOfSymptoms = Int32(i) }
            let body = UploadBodies.cwa(keys: keys, paddedKeyCount: 14, bytesPerKey: 28, rng: rng)
            let padding = 28 * (14 - n)
            // The padding field is always present (empty with 14 keys), as the app sets it.
            #expect(body.count == 32 * n + (padding < 128 ? 2 : 3) + padding)
            #expect(abs(body.count - fake.count) <= 4 * n + 4)
        }
    }

    @Test func provinceIsTheAnalyticsProfilesProvince() {
        let profiles = AnalyticsRun.profiles(phoneOS: Array(repeating: .android, count: 200), parameters: AnalyticsParameters(),
                                             seed: 8, start: 0)
        for (phone, profile) in profiles.enumerated() {
            #expect(ImmuniProvince.code(phone: Int32(phone), seed: 8) == ItalianProvinces.all[profile.province].code)
        }
        // Not just regional capitals: 200 phones land in more provinces than the 21 areas.
        #expect(Set(profiles.map(\.province)).count > 21)
    }
}
