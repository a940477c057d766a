import EventEngine
import GAEN

// The hand-offs between the GAEN pipeline's stages:
// health (PositiveCase) → backend (PublishedPackage) → distribution (PackageDownload) → detection.

/// A positive test result, the start of the pipeline. Ground truth for detection too.
public struct PositiveCase: Sendable, Hashable {
    /// Person index in the contact population.
    public var person: Int32
    /// When the person was infected (the latent period before `infectiousFromDay`).
    public var infectedAt: SimTime
    /// UTC day number (days since 1970-01-01) on which the person became infectious.
    public var infectiousFromDay: Int64
    /// Symptom onset, nil for an asymptomatic case.
    public var symptomOnset: SimTime?
    public var testedAt: SimTime
    public var resultAt: SimTime

    public init(person: Int32, infectedAt: SimTime, infectiousFromDay: Int64, symptomOnset: SimTime?, testedAt: SimTime, resultAt: SimTime) {
        self.person = person
        self.infectedAt = infectedAt
        self.infectiousFromDay = infectiousFromDay
        self.symptomOnset = symptomOnset
        self.testedAt = testedAt
        self.resultAt = resultAt
    }
}

/// A diagnosis key as published, with the ground truth the simulator keeps beside it.
/// Phones only ever read `key`.
public struct PublishedKey: Sendable, Hashable {
    public var key: DiagnosisKey
    /// Person who uploaded it; -1 for keys not from the contact population (padding,
    /// uploads from the rest of the country).
    public var uploader: Int32
    public var uploadedAt: SimTime

    public init(key: DiagnosisKey, uploader: Int32, uploadedAt: SimTime) {
        self.key = key
        self.uploader = uploader
        self.uploadedAt = uploadedAt
    }
}

/// One file the backend puts on the CDN: a signed GAEN export zip.
public struct PublishedPackage: Sendable {
    public enum Kind: String, Sendable { case hourly, daily, batch }

    /// How the CDN path is made. The backends' paths follow from the package's window (CWA) or
    /// chunk number (Immuni), so a long run keeps no string per package (~2 kB a simulated day).
    package enum Path: Sendable {
        case cwaHourly, cwaDaily
        case immuniChunk(Int)
        case given(String)
    }

    /// 0, 1, 2, … in publication order.
    public let sequence: Int
    package let path: Path
    /// CDN path, e.g. `cwa/v1/diagnosis-keys/country/DE/date/2020-10-01/hour/13` or `immuni/v1/keys/42`.
    public var name: String {
        switch path {
        case .cwaHourly:
            let hour = SimClock.hourOfDay(covers.lowerBound)
            return "cwa/v1/diagnosis-keys/country/DE/date/\(CivilCalendar.isoDateString(covers.lowerBound))/hour/\(hour < 10 ? "0" : "")\(hour)"
        case .cwaDaily: return "cwa/v1/diagnosis-keys/country/DE/date/\(CivilCalendar.isoDateString(covers.lowerBound))"
        case .immuniChunk(let n): return "immuni/v1/keys/\(n)"
        case .given(let name): return name
        }
    }
    public let kind: Kind
    public let publishedAt: SimTime
    /// Upload time window the package covers.
    public let covers: Range<SimTime>
    public let keys: [PublishedKey]
    /// Size of the zip as served (set when the archive is built: see `KeyPublisher.defersArchives`).
    public internal(set) var bytes: Int

    public init(sequence: Int, name: String, kind: Kind, publishedAt: SimTime, covers: Range<SimTime>,
                keys: [PublishedKey], bytes: Int) {
        self.init(sequence: sequence, path: .given(name), kind: kind, publishedAt: publishedAt, covers: covers, keys: keys, bytes: bytes)
    }

    package init(sequence: Int, path: Path, kind: Kind, publishedAt: SimTime, covers: Range<SimTime>,
                 keys: [PublishedKey], bytes: Int) {
        self.sequence = sequence
        self.path = path
        self.kind = kind
        self.publishedAt = publishedAt
        self.covers = covers
        self.keys = keys
        self.bytes = bytes
    }
}

/// A phone of the contact population fetched a package: 16 bytes (a national day holds tens of
/// millions of them).
public struct PackageDownload: Sendable, Hashable {
    /// App-phone index (PhoneFleet order), not the person index.
    public var phone: Int32
    /// `package`, stored in 32 bits: a year of hourly packages is ~9,000 sequences.
    private var packageSequence: Int32
    public var at: SimTime

    /// `PublishedPackage.sequence`.
    public var package: Int {
        get { Int(packageSequence) }
        set { packageSequence = Int32(newValue) }
    }

    public init(phone: Int32, package: Int, at: SimTime) {
        self.phone = phone
        packageSequence = Int32(package)
        self.at = at
    }
}
