import EventEngine
import P6

/// One disclosure file as the CDN serves it: a 4-byte disclosure count, then the encoded
/// disclosures of one period (`disclosure_file_s`).
struct P6DisclosureFile: Sendable {
    let sequence: Int
    /// End of its period, when it is published.
    let publishedAt: SimTime
    /// Indices into the run's disclosures.
    let disclosures: Range<Int>
    /// File header, disclosure IDs and counts, Tx traces (78 B per epoch).
    let txBytes: Int
    /// Disclosed Rx-trace records (9 B each).
    let rxBytes: Int
    var bytes: Int { txBytes + rxBytes }

    static let headerBytes = 4
}

/// App phones fetching the P6 disclosure files through a second `DistributionModel`: the same
/// check schedule, offline days, deferrals, retries and CDN as the scenario's `distribution`
/// block, app phones only (download-only clients are GAEN's CDN-load study) and its own check
/// streams. Only periods with disclosures make a file; phones fetch the index, then every
/// newer file. Phones whose app cannot run that day fetch nothing and catch up later.
final class P6DisclosureDownloads {
    let model: DistributionModel
    private(set) var files: [P6DisclosureFile] = []
    /// Per phone: it has fetched files 0..<fetched[phone] (in order, as the index watermark moves).
    private(set) var fetched: [Int32]
    /// Payload fetched by all phones.
    private(set) var txBytes: Int64 = 0
    private(set) var rxBytes: Int64 = 0
    /// Disclosures put into files so far.
    private(set) var disclosuresFiled = 0
    let periodSeconds: Int64

    init(parameters: DistributionParameters, periodSeconds: Int, seed: UInt64, start: SimTime, phoneIsIOS: [Bool], threads: Int) {
        self.periodSeconds = Int64(periodSeconds)
        var p = parameters
        p.clients = 0
        model = DistributionModel(parameters: p, flavor: .p6, seed: seed, start: start, contactPhoneIsIOS: phoneIsIOS,
                                  threads: threads, checkStream: "p6.distribution.check")
        fetched = [Int32](repeating: 0, count: phoneIsIOS.count)
    }

    /// Files every period that ended by `end` among the disclosures not filed yet (in disclosure order).
    func publish(_ disclosures: [P6PublishedDisclosure], until end: SimTime) {
        var packages: [PublishedPackage] = []
        while disclosuresFiled < disclosures.count && disclosures[disclosuresFiled].fileTime <= end {
            let first = disclosuresFiled, at = disclosures[first].fileTime
            var tx = P6DisclosureFile.headerBytes, rx = 0
            while disclosuresFiled < disclosures.count && disclosures[disclosuresFiled].fileTime == at {
                let d = disclosures[disclosuresFiled].disclosure
                let rxPart = d.rxTrace.count * P6RxRecord.encodedByteCount
                tx += d.encodedByteCount - rxPart
                rx += rxPart
                disclosuresFiled += 1
            }
            let file = P6DisclosureFile(sequence: files.count, publishedAt: at, disclosures: first..<disclosuresFiled, txBytes: tx, rxBytes: rx)
            files.append(file)
            packages.append(PublishedPackage(sequence: file.sequence, name: "p6/disclosures/\(file.sequence + 1)", kind: .hourly,
                                             publishedAt: at, covers: (at - periodSeconds)..<at, keys: [], bytes: file.bytes))
        }
        model.publish(packages)
    }

    /// Whether `phone` has fetched the file holding disclosure `index`.
    func hasFetched(phone: Int, disclosure index: Int) -> Bool {
        let f = Int(fetched[phone])
        return f > 0 && files[f - 1].disclosures.upperBound > index
    }

    /// Every phone's checks until `end`; returns the files fetched, ordered by (time, phone, file).
    func advance(until end: SimTime, unavailableContactPhones: [Bool]) -> [PackageDownload] {
        let downloads = model.advance(until: end, unavailableContactPhones: unavailableContactPhones)
        for d in downloads {
            txBytes += Int64(files[d.package].txBytes)
            rxBytes += Int64(files[d.package].rxBytes)
            fetched[Int(d.phone)] = max(fetched[Int(d.phone)], Int32(d.package + 1))
        }
        return downloads
    }
}
