import Analytics
import Detection
import Distribution
import Epidemic
import HealthBackend
import P6Phones
import World
import SimulationCore
/// summary.json: the run's own figures, then each stage's section.
public struct RunSummary: Equatable, Sendable, Encodable {
    public var scenario: String
    public var start: String
    public var days: Int
    public var population: Int
    public var appPhones: Int
    public var appAdoption: IntervalSummary
    public var contacts: Int64
    public var contactsPerPersonDay: Double
    public var scanInstances: Int64
    public var encounterBytesPerPhoneDay: IntervalSummary
    public var encounterStoreBytesAtEnd: Int
    /// The radio's optional models (`radio.collisions`), when one is on.
    public var radio: RadioSummary?
    public var health: HealthSummary
    public var backend: BackendSummary
    public var events: Int
    public var eventsByKind: NamedValues<Int>
    public var distribution: DistributionSummary
    public var detection: DetectionSummary
    /// P6 phones beside GAEN (the `p6` block), when enabled.
    public var p6: P6Summary?
    /// The Analytics Service (the `analytics` block), when enabled.
    public var analytics: AnalyticsSummary?
    /// The epidemic (the `epidemic` block), when enabled.
    public var epidemic: EpidemicSummary?

    package enum CodingKeys: String, CodingKey {
        case scenario, start, days, population
        case appPhones = "app_phones", appAdoption = "app_adoption", contacts
        case contactsPerPersonDay = "contacts_per_person_day", scanInstances = "scan_instances"
        case encounterBytesPerPhoneDay = "encounter_bytes_per_phone_day", encounterStoreBytesAtEnd = "encounter_store_bytes_at_end", radio
        case health, backend, events, eventsByKind = "events_by_kind", distribution, detection, p6, analytics, epidemic
    }
}

/// summary.json's `radio` block: present only when an optional radio model is on.
public struct RadioSummary: Equatable, Sendable, Encodable {
    /// Adverts lost to collisions (`radio.collisions`).
    public var collisions: CollisionSummary?
}
