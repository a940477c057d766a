import EventEngine
import Foundation
import GAEN
import GSL
import HealthBackend

/// Stand-in backend for distribution benchmarks and tests: real signed export zips (GAEN's
/// ExportBuilder) with random keys, published hourly (CWA adds a daily package per day; Immuni
/// numbers hourly chunks). Cases per hour are Poisson(casesPerDay / 24) from GSL; each case
/// uploads `keysPerCase` keys, one per past day.
public enum SyntheticPackages {
    public static func make(flavor: DistributionFlavor, start: SimTime, days: Int, casesPerDay: Double = 2_000,
                            keysPerCase: Int = 14, seed: UInt64,
                            publicationDelaySeconds: Int64 = 0) throws -> [PublishedPackage] {
        try makeWithArchives(flavor: flavor, start: start, days: days, casesPerDay: casesPerDay, keysPerCase: keysPerCase,
                             seed: seed, publicationDelaySeconds: publicationDelaySeconds).map(\.package)
    }

    /// The packages with their zip archives (the bytes a CDN would serve).
    public static func makeWithArchives(flavor: DistributionFlavor, start: SimTime, days: Int, casesPerDay: Double = 2_000,
                                        keysPerCase: Int = 14, seed: UInt64, publicationDelaySeconds: Int64 = 0)
        throws -> [(package: PublishedPackage, archive: [UInt8])] {
        // ECDSA signatures are randomised, so a zip's size can differ by a byte or two between builds.
        let signingKey = ExportSigningKey()
        let region = flavor == .cwa ? "DE" : "IT"
        let builder = ExportBuilder(signingKey: signingKey, signatureInfo: SignatureInfo(verificationKeyID: region == "DE" ? "262" : "222"))
        let rng = RandomStream(seed: seed, stream: "distribution.synthetic.keys", generator: .taus2)
        var packages: [(package: PublishedPackage, archive: [UInt8])] = []
        for day in 0..<days {
            let dayStart = SimClock.startOfDay(start) + Int64(day) * 86_400
            var dayKeys: [PublishedKey] = []
            for hour in 0..<24 {
                let from = dayStart + Int64(hour) * 3_600
                rng.reseed(StreamKey(seed: seed, stream: "distribution.synthetic.keys", index: UInt64(day * 24 + hour)))
                let cases = rng.poisson(mean: casesPerDay / 24)
                var keys: [PublishedKey] = []
                keys.reserveCapacity(cases * keysPerCase)
                for _ in 0..<cases {
                    let upload = from + Int64(rng.uniformInt(3_600))
                    for back in 1...max(1, keysPerCase) {
                        let rsin = ENIntervalNumber(unixTime: SimClock.startOfDay(upload) - Int64(back) * 86_400)
                        let data = Bytes16(bytes: rng.bytes(16))!
                        let tek = try TemporaryExposureKey(keyData: data, rollingStartIntervalNumber: rsin)
                        let key = DiagnosisKey(tek, transmissionRiskLevel: Int32(1 + rng.uniformInt(8)), reportType: .confirmedTest)
                        keys.append(PublishedKey(key: key, uploader: -1, uploadedAt: upload))
                    }
                }
                dayKeys.append(contentsOf: keys)
                let covers = from..<(from + 3_600)
                let name = flavor == .cwa ? "cwa/de/date/\(date(from))/hour/\(hour)" : "immuni/keys/\(packages.count + 1)"
                packages.append(try package(packages.count, name, .hourly, at: covers.upperBound + publicationDelaySeconds,
                                            covers, keys, builder, region))
            }
            if flavor == .cwa {
                let covers = dayStart..<(dayStart + 86_400)
                packages.append(try package(packages.count, "cwa/de/date/\(date(dayStart))", .daily,
                                            at: covers.upperBound + publicationDelaySeconds, covers, dayKeys, builder, region))
            }
        }
        return packages
    }

    private static func package(_ sequence: Int, _ name: String, _ kind: PublishedPackage.Kind, at: SimTime,
                                _ covers: Range<SimTime>, _ keys: [PublishedKey], _ builder: ExportBuilder,
                                _ region: String) throws -> (package: PublishedPackage, archive: [UInt8]) {
        let zip = try builder.archive(keys: keys.map(\.key), region: region, startTimestamp: UInt64(covers.lowerBound),
                                      endTimestamp: UInt64(covers.upperBound))
        return (PublishedPackage(sequence: sequence, name: name, kind: kind, publishedAt: at, covers: covers,
                                 keys: keys, bytes: zip.count), [UInt8](zip))
    }

    private static func date(_ t: SimTime) -> String {
        CivilDate(containing: t).description
    }
}
