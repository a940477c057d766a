import EventEngine
import GAEN
import GSL
import SimulationCore

/// The world of the run: people and their phones, each day's availability and keys, the
/// day's contacts with their ground truth, and what the app phones hear of each other
/// (stored as encounters). Other stages watch app-pair contacts through `observeAppContacts`.
package final class WorldStage: Stage {
    package let population: Population
    package let network: ContactNetwork
    package let availability: PhoneAvailability
    package let fleet: PhoneFleet
    private let radios: PhoneRadios
    private let channel: ChannelModel
    private let placements: DiscreteDistribution
    private let seed: UInt64
    private let threads: Int
    /// Every phone's encounters of the last 14 days; their metadata and scans, read only for
    /// the encounters that match, on disk.
    package private(set) var encounters = EncounterStore(retentionDays: 14, spillsToDisk: true)
    /// Ground truth of the days within the retention window, when `retainsGroundTruth`.
    package private(set) var groundTruth: [GroundTruthDay] = []
    /// Keep every pair who met (P6's stated regions, tests); otherwise only close contacts that
    /// involve an app user are kept, all detection's scoring reads.
    package var retainsGroundTruth = false
    /// Close contacts of every day of the run: detection's ground truth outlives `groundTruth`'s window.
    package let closeContactHistory = CloseContactHistory()
    /// Today's daily.csv counters.
    package private(set) var today = WorldDay()
    private var hourlyScans: [Int64]
    private var encounterBytes = RunningStatistics()
    /// Contacts and scan instances so far.
    package private(set) var totalContacts: Int64 = 0
    package private(set) var totalScans: Int64 = 0
    private var observers: [(RadioDay) -> any AppContactObserver] = []
    /// Set when adverts are lost to collisions (`radio.collisions.enabled`), with the run's tally.
    private let collisionModel: AdvertCollisionModel?
    private let radioParameters: RadioParameters
    private var collisions = CollisionTally()
    /// Each contact shard's ground truth and radio batch of the last day, to size today's.
    private let truthSizes = ShardSizes()
    private let encounterSizes = ShardSizes(kinds: EncounterRecording.sizeKinds)
    /// Today's collisions (daily.csv's collision columns).
    package private(set) var todayCollisions = CollisionTally()
    /// With `dual_protocol_advertisers`: who sends a second protocol's adverts on a day (P6 sessions).
    package var secondProtocolAdvertisers: ((RadioDay) -> any SecondProtocolAdvertisers)?

    /// Days of contact ground truth kept: the 14-day key window plus a week for late detections.
    package static let groundTruthRetentionDays = 21

    package init(_ run: RunContext, population parameters: PopulationParameters, availability availabilityParameters: AvailabilityParameters,
         contacts: ContactParameters, radio: RadioParameters) {
        seed = run.seed
        threads = run.threads
        population = Population(parameters, seed: run.seed)
        network = ContactNetwork(population: population, parameters: contacts, seed: run.seed)
        availability = PhoneAvailability(phones: population.appUsers, parameters: availabilityParameters, seed: run.seed)
        fleet = PhoneFleet(seed: run.seed, owners: population.owners, clockSkewSDMinutes: radio.clockSkewSDMinutes,
                           clockSkewMaxMinutes: radio.clockSkewMaxMinutes)
        radios = PhoneRadios(phoneOS: population.phoneOS, parameters: radio, seed: run.seed)
        channel = ChannelModel(radio, threads: run.threads)
        placements = try! DiscreteDistribution(weights: radio.placementShares)
        collisionModel = radio.collisionsEnabled ? AdvertCollisionModel(radio) : nil
        radioParameters = radio
        hourlyScans = Array(repeating: 0, count: run.days * 24)
    }

    /// Adds an observer of every day's app-pair contacts, made afresh each day for the day's radio.
    package func observeAppContacts(_ make: @escaping (RadioDay) -> any AppContactObserver) { observers.append(make) }

    /// Observers of every contact (app users or not), and the gate that removes contacts first.
    package var contactObservers: [any ContactObserver] = []
    package var contactGate: (any ContactGate)?

    package var phoneIsIOS: [Bool] { population.phoneOS.map { $0 == .iOS } }

    package func startDay(_ day: SimulatedDay) throws {
        encounters.expire(before: day.index)
        availability.roll(dayIndex: day.index, threads: threads)
        fleet.rollKeys(midnight: day.midnight, threads: threads)
        var radio = RadioDay(seed: seed, dayIndex: day.index, midnight: day.midnight, model: channel, placements: placements,
                             fleet: fleet, radios: radios, availability: availability)
        if let collisionModel {
            // Who is near whom must be known before anyone hears: a first pass over the same contacts.
            let presence = AdvertiserPresenceRecording(phones: fleet.count, midnight: day.midnight, availability: availability,
                                                       attenuationsFrom: collisionModel.captureThresholdDB == nil ? nil : radio)
            _ = ContactPhase.run(network: network, population: population, dayIndex: day.index, midnight: day.midnight,
                                 threads: threads, seed: seed, observers: [presence], gate: contactGate,
                                 keep: .closeContacts(involving: population.phoneOf))
            radio.crowd = CrowdDay(presence: presence.presence, model: collisionModel,
                                   secondProtocol: collisionModel.dualProtocol ? secondProtocolAdvertisers?(radio) : nil)
        }
        let recording = EncounterRecording(day: radio, sizes: encounterSizes)
        // Without the whole day kept, the merge writes only the close contacts scoring needs.
        let contacts = ContactPhase.run(network: network, population: population, dayIndex: day.index, midnight: day.midnight,
                                        threads: threads, seed: seed, observers: [recording] + observers.map { $0(radio) },
                                        everyContact: contactObservers, gate: contactGate,
                                        keep: retainsGroundTruth ? .all : .closeContacts(involving: population.phoneOf),
                                        sizes: truthSizes)
        if retainsGroundTruth {
            groundTruth.append(contacts.truth.day)
            if groundTruth.count > Self.groundTruthRetentionDays { groundTruth.removeFirst() }
            try closeContactHistory.append(contacts.truth.day.closeContactsOnly(involving: population.phoneOf, threads: threads))
        } else {
            try closeContactHistory.append(contacts.truth.day)
        }
        let stored = EncounterDay(dayIndex: day.index, phones: fleet.count, batches: recording.batches, threads: threads)
        try encounters.add(stored)
        if fleet.count > 0 { encounterBytes.add(Double(stored.bytes) / Double(fleet.count)) }
        for h in 0..<24 { hourlyScans[day.index * 24 + h] = recording.scanInstancesByHour[h] }
        if radio.crowd != nil {
            collisions.add(recording.collisions)
            todayCollisions = recording.collisions
        }
        let counts = availability.counts
        today = WorldDay(contactsByLayer: contacts.byLayer, contactPairs: Int64(contacts.truth.pairs),
                         closeContacts: Int64(contacts.truth.closeContacts), appPairContacts: contacts.appPairContacts,
                         appPhones: Int64(fleet.count), phonesUnavailable: Int64(counts.unavailable),
                         bluetoothOff: Int64(counts.bluetoothOff), uninstalled: Int64(counts.uninstalled),
                         tekRotations: Int64(fleet.count), rpisHeard: Int64(stored.encounterCount),
                         scanInstances: Int64(stored.scanInstanceCount), encounterBytes: Int64(stored.bytes))
        totalContacts += contacts.byLayer.reduce(0, +)
        totalScans += today.scanInstances
    }

    /// Scan instances of every simulated hour.
    package var scanInstancesByHour: [Int64] { hourlyScans }

    package func result() -> WorldResult {
        WorldResult(population: population.size, appPhones: fleet.count,
                    appAdoption: Proportion.clopperPearson(successes: fleet.count, trials: population.size),
                    contacts: totalContacts, scanInstances: totalScans,
                    encounterBytesPerPhoneDay: encounterBytes.meanConfidenceInterval(), encounterStoreBytesAtEnd: encounters.bytes,
                    collisions: collisionModel.map { _ in CollisionSummary(collisions, parameters: radioParameters) })
    }
}

/// The world's daily.csv counters of one day.
package struct WorldDay {
    package var contactsByLayer = [Int64](repeating: 0, count: ContactLayer.allCases.count)
    package var contactPairs: Int64 = 0
    package var closeContacts: Int64 = 0
    package var appPairContacts: Int64 = 0
    package var appPhones: Int64 = 0
    package var phonesUnavailable: Int64 = 0
    package var bluetoothOff: Int64 = 0
    package var uninstalled: Int64 = 0
    package var tekRotations: Int64 = 0
    package var rpisHeard: Int64 = 0
    package var scanInstances: Int64 = 0
    package var encounterBytes: Int64 = 0

    package static let columns = ContactLayer.allCases.map { "contacts_" + $0.name }
        + ["contact_pairs", "close_contacts", "app_pair_contacts", "app_phones", "phones_unavailable", "bluetooth_off",
           "uninstalled", "tek_rotations", "rpis_heard", "scan_instances", "encounter_bytes"]

    package var values: [ResultTable.Cell] {
        contactsByLayer.map { .integer($0) }
            + [contactPairs, closeContacts, appPairContacts, appPhones, phonesUnavailable, bluetoothOff, uninstalled,
               tekRotations, rpisHeard, scanInstances, encounterBytes].map { .integer($0) }
    }
}

/// The world's totals over the run.
package struct WorldResult {
    package var population: Int
    package var appPhones: Int
    package var appAdoption: ConfidenceInterval
    package var contacts: Int64
    package var scanInstances: Int64
    package var encounterBytesPerPhoneDay: ConfidenceInterval
    package var encounterStoreBytesAtEnd: Int
    /// Adverts lost to collisions, when `radio.collisions.enabled`.
    package var collisions: CollisionSummary?
}
