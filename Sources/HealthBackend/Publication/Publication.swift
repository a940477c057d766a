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

    /// 0, 1, 2, … in publication order.
    public let sequence: Int
    /// CDN path, e.g. `cwa/de/date/2020-10-01/hour/13` or `immuni/keys/42`.
    public let name: String
    public let kind: Kind
    public let publishedAt: SimTime
    /// Upload time window the package covers.
    public let covers: Range<SimTime>
    public let keys: [PublishedKey]
    /// Size of the zip as served.
    public let bytes: Int

    public init(sequence: Int, name: String, kind: Kind, publishedAt: SimTime, covers: Range<SimTime>,
                keys: [PublishedKey], bytes: Int) {
        self.sequence = sequence
        self.name = name
        self.kind = kind
        self.publishedAt = publishedAt
        self.covers = covers
        self.keys = keys
        self.bytes = bytes
    }
}

/// A phone of the contact population fetched a package.
public struct PackageDownload: Sendable, Hashable {
    /// App-phone index (PhoneFleet order), not the person index.
    public var phone: Int32
    /// `PublishedPackage.sequence`.
    public var package: Int
    public var at: SimTime

    public init(phone: Int32, package: Int, at: SimTime) {
        self.phone = phone
        self.package = package
        self.at = at
    }
}
