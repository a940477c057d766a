import Distribution
import EventEngine
import GSL
import HealthBackend
import P6

/// One disclosure file as the CDN serves it: a 4-byte disclosure count, then the encoded
/// disclosures of one period (`disclosure_file_s`) in one region's stream.
package struct P6DisclosureFile: Sendable {
    /// Index among all files of the run (ordered by publication time, then stream).
    package let sequence: Int
    /// Region stream, and the file's position in it (what the stream's index counts).
    package let stream: Int
    package let sequenceInStream: Int
    /// End of its period, when it is published.
    package let publishedAt: SimTime
    /// Indices into the run's disclosures, ascending.
    package let disclosures: [Int32]
    /// File header, disclosure IDs and counts, Tx traces (78 B per epoch).
    package let txBytes: Int
    /// Disclosed Rx-trace records (9 B each).
    package let rxBytes: Int
    package var bytes: Int { txBytes + rxBytes }

    package static let headerBytes = 4
}

/// App phones fetching the P6 disclosure files, one stream per region (`p6.regions`), each
/// through its own `DistributionModel`: the same check schedule, offline days, deferrals,
/// retries and CDN as the scenario's `distribution` block, app phones only (download-only
/// clients are GAEN's CDN-load study) and its own check streams. A stream's clients are the
/// phones that subscribe to it (their home region's, or every stream). Only periods with
/// disclosures make a file; phones fetch the stream's index, then every newer file. Phones whose
/// app cannot run that day fetch nothing and catch up later.
package final class P6DisclosureDownloads {
    /// One region's stream: its files and the phones fetching them.
    package struct Stream {
        package let region: Int
        package let model: DistributionModel
        /// Phones fetching this stream, ascending: client k is phone `clients[k]`.
        package let clients: [Int32]
        /// The stream's files (run-wide file sequences), in stream order.
        package var files: [Int] = []
        /// Disclosure index → position of its file in this stream.
        package var fileOf: [Int32: Int] = [:]
        /// Per client: it has fetched the stream's files 0..<fetched[k] (the index watermark).
        package var fetched: [Int32]
        /// Payload its clients fetched.
        package var txBytes: Int64 = 0
        package var rxBytes: Int64 = 0
    }

    package let subscription: P6Subscription
    package private(set) var streams: [Stream]
    package private(set) var files: [P6DisclosureFile] = []
    /// Per phone: its client index in its home stream (`home` subscription).
    private let homeClient: [Int32]
    private let homeStream: [Int32]
    /// Payload fetched by all phones.
    package private(set) var txBytes: Int64 = 0
    package private(set) var rxBytes: Int64 = 0
    /// Disclosures put into files so far.
    package private(set) var disclosuresFiled = 0
    package let periodSeconds: Int64
    package let phones: Int

    package init(parameters: DistributionParameters, periodSeconds: Int, seed: UInt64, start: SimTime, phoneIsIOS: [Bool],
         regionOfPhone: [Int32]? = nil, regions: Int = 1, subscription: P6Subscription = .home, threads: Int) {
        self.periodSeconds = Int64(periodSeconds)
        self.subscription = subscription
        phones = phoneIsIOS.count
        let region = regionOfPhone ?? [Int32](repeating: 0, count: phoneIsIOS.count)
        var p = parameters
        p.clients = 0
        // The GAEN app's configuration download is not part of P6's disclosure fetches.
        p.configBytes = 0
        var homeClient = [Int32](repeating: 0, count: phoneIsIOS.count)
        var members = [[Int32]](repeating: [], count: regions)
        for (phone, r) in region.enumerated() {
            homeClient[phone] = Int32(members[Int(r)].count)
            members[Int(r)].append(Int32(phone))
        }
        self.homeClient = homeClient
        homeStream = region
        let all = (0..<Int32(phoneIsIOS.count)).map { $0 }
        streams = (0..<regions).map { r in
            let clients = subscription == .all || regions == 1 ? all : members[r]
            // One region keeps the single stream's names (and so its draws) of earlier versions.
            let model = DistributionModel(parameters: p, flavor: .p6, seed: seed, start: start,
                                          contactPhoneIsIOS: clients.map { phoneIsIOS[Int($0)] }, threads: threads,
                                          checkStream: regions == 1 ? "p6.distribution.check" : "p6.distribution.check.region\(r)")
            return Stream(region: r, model: model, clients: clients, fetched: [Int32](repeating: 0, count: clients.count))
        }
    }

    /// The streams `phone` fetches, with its client index in each.
    package func subscriptions(of phone: Int) -> [(stream: Int, client: Int)] {
        if subscription == .all || streams.count == 1 { return streams.indices.map { ($0, phone) } }
        return [(Int(homeStream[phone]), Int(homeClient[phone]))]
    }

    /// Files every period that ended by `end` among the disclosures not filed yet (in disclosure
    /// order): per period, one file in each stream that any of its disclosures goes to.
    package func publish(_ disclosures: [P6PublishedDisclosure], until end: SimTime) {
        var packages = [[PublishedPackage]](repeating: [], count: streams.count)
        while disclosuresFiled < disclosures.count && disclosures[disclosuresFiled].fileTime <= end {
            let at = disclosures[disclosuresFiled].fileTime
            var inStream = [[Int32]](repeating: [], count: streams.count)
            while disclosuresFiled < disclosures.count && disclosures[disclosuresFiled].fileTime == at {
                for s in disclosures[disclosuresFiled].streams { inStream[Int(s)].append(Int32(disclosuresFiled)) }
                disclosuresFiled += 1
            }
            for s in streams.indices where !inStream[s].isEmpty {
                var tx = P6DisclosureFile.headerBytes, rx = 0
                for i in inStream[s] {
                    // The Tx part and the record count as in raw form; the rest is the Rx trace, in either form.
                    let published = disclosures[Int(i)]
                    let txPart = P6Disclosure.encodedByteCount(epochs: published.disclosure.epochs.count, rxRecords: 0)
                    tx += txPart
                    rx += published.bytes - txPart
                }
                let position = streams[s].files.count
                let file = P6DisclosureFile(sequence: files.count, stream: s, sequenceInStream: position, publishedAt: at,
                                            disclosures: inStream[s], txBytes: tx, rxBytes: rx)
                files.append(file)
                streams[s].files.append(file.sequence)
                for i in inStream[s] { streams[s].fileOf[i] = position }
                let name = streams.count == 1 ? "p6/disclosures/\(position + 1)" : "p6/\(s)/disclosures/\(position + 1)"
                packages[s].append(PublishedPackage(sequence: position, name: name, kind: .hourly, publishedAt: at,
                                                    covers: (at - periodSeconds)..<at, keys: [], bytes: file.bytes))
            }
        }
        for s in streams.indices { streams[s].model.publish(packages[s]) }
    }

    /// Whether `phone` has fetched a file holding disclosure `index`.
    package func hasFetched(phone: Int, disclosure index: Int) -> Bool {
        subscriptions(of: phone).contains { s, client in
            guard let position = streams[s].fileOf[Int32(index)] else { return false }
            return Int(streams[s].fetched[client]) > position
        }
    }

    /// Record every phone's completed checks (`checks`), for the revocation list it reads with them.
    package var recordsChecks = false {
        didSet { for s in streams { s.model.recordsCheckSessions = recordsChecks } }
    }
    /// The completed checks of the last `advance` (phones, not clients), when `recordsChecks`.
    package private(set) var checks: [CheckSession] = []

    /// Every phone's checks of every stream until `end`; returns the files fetched (`package` is
    /// the run-wide file sequence), ordered by (time, phone, file).
    package func advance(until end: SimTime, unavailableContactPhones: [Bool]) -> [PackageDownload] {
        var out: [PackageDownload] = []
        checks.removeAll(keepingCapacity: true)
        defer { if streams.count > 1 { checks.sort { ($0.at, $0.phone) < ($1.at, $1.phone) } } }
        for s in streams.indices {
            defer { checks += streams[s].model.checkSessions.map { CheckSession(phone: streams[s].clients[Int($0.phone)], at: $0.at) } }
            let clients = streams[s].clients
            let unavailable = clients.count == phones ? unavailableContactPhones
                : clients.map { unavailableContactPhones.isEmpty ? false : unavailableContactPhones[Int($0)] }
            for d in streams[s].model.advance(until: end, unavailableContactPhones: unavailable) {
                let file = files[streams[s].files[d.package]]
                txBytes += Int64(file.txBytes)
                rxBytes += Int64(file.rxBytes)
                streams[s].txBytes += Int64(file.txBytes)
                streams[s].rxBytes += Int64(file.rxBytes)
                streams[s].fetched[Int(d.phone)] = max(streams[s].fetched[Int(d.phone)], Int32(d.package + 1))
                out.append(PackageDownload(phone: clients[Int(d.phone)], package: file.sequence, at: d.at))
            }
        }
        if streams.count > 1 { out.sort { ($0.at, $0.phone, $0.package) < ($1.at, $1.phone, $1.package) } }
        return out
    }

    /// Bytes each sampled phone fetched per complete day, all its streams together (a phone of
    /// several streams adds them up), for the per-phone-day statistics.
    package func bytesPerPhoneDay() -> [Double] {
        let perStream = streams.map { Array($0.model.bytesPerClientCompleteDay()) }
        if streams.count == 1 || subscription == .home { return perStream.flatMap { $0.flatMap { $0.map(Double.init) } } }
        // Every stream has every phone as its clients, sampled alike: add them up client by client.
        return perStream[0].indices.flatMap { day in
            perStream[0][day].indices.map { k in Double(perStream.reduce(0) { $0 + $1[day][k] }) }
        }
    }
}
