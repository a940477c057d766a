import EventEngine
import GAEN
import GSL
import SimulationCore

/// Everything the radio needs during one day's contact phase; only read by the shards.
package struct RadioDay: @unchecked Sendable {
    package let seed: UInt64
    package let dayIndex: Int
    package let midnight: SimTime
    package let model: ChannelModel
    package let placements: DiscreteDistribution
    package let fleet: PhoneFleet
    package let radios: PhoneRadios
    package let availability: PhoneAvailability

    /// The fixed losses of one direction of a contact (`directionKey`: the contact's key << 1 | direction),
    /// leaving `stream` seeded from `directionFamily` at `directionKey` for the direction's own draws.
    /// With `radio.reciprocal_shadowing` both directions take the same draw, from `contactFamily` at
    /// the contact's key: the path between two phones is the same both ways (the calibration errors
    /// of the two phones add up the same in either direction too). Otherwise each direction draws
    /// its own first from its stream, the model before the option.
    package func contactLoss(layer: ContactLayer, calibrationError: Double, directionKey: UInt64, stream: RandomStream,
                             directionFamily: StreamFamily, contactFamily: StreamFamily) -> Double {
        guard model.parameters.reciprocalShadowing else {
            stream.reseed(directionFamily, index: directionKey)
            return model.contactLoss(layer: layer, calibrationError: calibrationError, placements: placements, stream: stream)
        }
        stream.reseed(contactFamily, index: directionKey >> 1)
        let loss = model.contactLoss(layer: layer, calibrationError: calibrationError, placements: placements, stream: stream)
        stream.reseed(directionFamily, index: directionKey)
        return loss
    }

    /// The stream family of the losses shared by both directions of a contact.
    package static func reciprocalFamily(seed: UInt64) -> StreamFamily { StreamFamily(seed: seed, stream: "radio-reciprocal") }
    /// Set when adverts are lost to collisions (`radio.collisions`).
    package var crowd: CrowdDay? = nil
}

/// The GAEN radio as an observer of the day's app-pair contacts: each shard records what its
/// phones hear; the shards' batches, in shard order, become the day's `EncounterDay`.
package final class EncounterRecording: AppContactObserver {
    package let day: RadioDay
    private var shards = ShardResults<EncounterRecorder>(count: 0)
    package private(set) var batches: [EncounterBatch] = []
    package private(set) var scanInstancesByHour = [Int64](repeating: 0, count: 24)
    /// The shards' collision tallies, when the day has a crowd.
    package private(set) var collisions = CollisionTally()
    /// Each shard's encounters (kind 0) and scans (kind 1) of the last day, when kept from day to day.
    private let sizes: ShardSizes?

    /// `sizes` (made with `sizeKinds` kinds, kept from day to day) sizes each shard's batch from the day before.
    package init(day: RadioDay, sizes: ShardSizes? = nil) {
        self.day = day
        self.sizes = sizes
    }

    package static let sizeKinds = 2

    package func beginShards(_ count: Int) {
        shards = ShardResults(count: count)
        sizes?.begin(shards: count)
    }

    package func recorder(shard index: Int) -> any AppContactRecorder {
        let recorder = EncounterRecorder(day: day)
        if let sizes {
            recorder.reserve(encounters: sizes.reservation(shard: index, kind: 0), scans: sizes.reservation(shard: index, kind: 1))
        }
        shards.set(index, recorder)
        return recorder
    }

    package func endShards() {
        for (index, r) in shards.all.enumerated() {
            sizes?.record(shard: index, kind: 0, size: r.batch.count)
            sizes?.record(shard: index, kind: 1, size: r.batch.scanColumn.count)
            batches.append(r.batch)
            for h in 0..<24 { scanInstancesByHour[h] += r.scanInstancesByHour[h] }
            if let crowd = r.crowd { collisions.add(crowd.tally) }
        }
        shards = ShardResults(count: 0)
    }
}

/// One shard's recorder: for every contact between two app phones that exchange beacons
/// today, what each phone hears of the other, stored as a real phone would (RPI, AEM, scans).
package final class EncounterRecorder: AppContactRecorder, @unchecked Sendable {
    /// The recorder's state as one struct: a contact's many updates of it are then one access of
    /// the class's (Swift checks each access to a class's stored `var` at run time: ~2% of a run),
    /// and that access is not checked either: a recorder belongs to one shard, on one thread.
    @exclusivity(unchecked) private var recording: RadioRecording

    package init(day: RadioDay) { recording = RadioRecording(day: day) }

    package var day: RadioDay { recording.day }
    package var batch: EncounterBatch { recording.batch }
    package var scanInstancesByHour: [Int64] { recording.scanInstancesByHour }
    package var crowd: CrowdedChannel? { recording.crowd }

    /// Room in the batch for a day of this many heard RPIs and scans.
    func reserve(encounters: Int, scans: Int) { recording.reserve(encounters: encounters, scans: scans) }

    /// `key` identifies the contact within the run (initiator, day, ordinal).
    package func record(_ contact: ContactView, phoneA: Int, phoneB: Int, key: UInt64) {
        recording.record(contact, phoneA: phoneA, phoneB: phoneB, key: key)
    }
}

/// What an `EncounterRecorder` holds and does.
private struct RadioRecording {
    let day: RadioDay
    private(set) var batch = EncounterBatch()
    private(set) var scanInstancesByHour = [Int64](repeating: 0, count: 24)
    /// One contact direction's heard scans, as the store keeps them.
    private let heardScans: StoredScanBuffer
    private let stream: RandomStream
    private let scratch: RandomStream
    private let deriver: BatchRPIDeriver
    private let radioFamily: StreamFamily
    private let reciprocalFamily: StreamFamily
    private let scanFamily: StreamFamily
    private let jitterFamily: StreamFamily
    private var scanSchedules = DayCache<ScanSchedule>()
    private let rotations: RotationCache
    /// A sender's RPI and AEM of one interval, a pure function of the two for the day: the
    /// initiator's contacts follow one another, so one advert is often heard by several of them.
    private var adverts = DayCache<(identifier: RollingProximityIdentifier, metadata: AssociatedEncryptedMetadata)>()
    let crowd: CrowdedChannel?

    mutating func reserve(encounters: Int, scans: Int) { batch.reserve(encounters: encounters, scans: scans) }

    init(day: RadioDay) {
        self.day = day
        stream = RandomStream(seed: day.seed, stream: "radio", generator: .taus2)
        scratch = RandomStream(seed: day.seed, stream: "radio-scratch", generator: .taus2)
        deriver = try! BatchRPIDeriver(capacity: 1)
        radioFamily = StreamFamily(seed: day.seed, stream: "radio")
        reciprocalFamily = RadioDay.reciprocalFamily(seed: day.seed)
        scanFamily = ScanSchedule.family(seed: day.seed)
        jitterFamily = ScanSchedule.jitterFamily(seed: day.seed)
        let p = day.model.parameters
        rotations = RotationCache(family: RPIRotationSchedule.family(seed: day.seed), dayIndex: day.dayIndex, midnight: day.midnight,
                                  minMinutes: p.rpiRotationMinMinutes, maxMinutes: p.rpiRotationMaxMinutes, stream: scratch)
        // A contact ends by midnight, so it hears at most a day's scans.
        heardScans = StoredScanBuffer(capacity: ScanSchedule.mostScans(period: p.scanPeriodSeconds,
                                                                        randomRange: p.androidScanIntervalRandomRangeSeconds))
        crowd = day.crowd.map { CrowdedChannel(crowd: $0, seed: day.seed, midnight: day.midnight, streamName: "radio-collision") }
    }

    mutating func record(_ contact: ContactView, phoneA: Int, phoneB: Int, key: UInt64) {
        guard day.availability.exchangesBeacons(phoneA), day.availability.exchangesBeacons(phoneB) else { return }
        // B, met at random, sends second: its keys load while A's adverts are heard.
        day.fleet.prefetchKeys(of: phoneB)
        hear(contact, sender: phoneA, receiver: phoneB, key: key << 1)
        hear(contact, sender: phoneB, receiver: phoneA, key: key << 1 | 1)
    }

    /// Cache misses are built here, not in closures, so `day` is read in place rather than copied.
    private mutating func hear(_ contact: ContactView, sender: Int, receiver: Int, key: UInt64) {
        let loss = day.contactLoss(layer: contact.layer, calibrationError: day.radios.error(sender) + day.radios.error(receiver),
                                   directionKey: key, stream: stream, directionFamily: radioFamily, contactFamily: reciprocalFamily)
        let scans: ScanSchedule
        if let cached = scanSchedules.cached(key: UInt64(receiver)) { scans = cached } else {
            scans = scanSchedule(of: receiver)
            scanSchedules.store(scans, key: UInt64(receiver))
        }
        crowd?.begin(key: key, sender: sender, receiver: receiver)
        let midnight = day.midnight
        var sink = StoredScanSink(base: heardScans.base, capacity: heardScans.capacity, midnight: midnight)
        ContactRadio.hear(segments: contact.segments, start: contact.start, layer: contact.layer, scans: scans, model: day.model,
                          extraLoss: loss, stream: stream, crowd: crowd, sink: &sink)
        guard sink.count > 0 else { return }
        let heard = UnsafeBufferPointer(start: heardScans.base, count: sink.count)
        // Contacts end by midnight, so every scan's hour is 0…23: the array is checked once, not per scan.
        scanInstancesByHour.withUnsafeMutableBufferPointer { byHour in
            for h in heard { byHour[Int(h.secondOfDay / 3600)] &+= 1 }
        }
        // Drawn only as far as this contact needs (again, further, if a later contact needs more).
        let rotation = rotations.rotations(of: sender, through: Int32(heard[heard.count - 1].secondOfDay))
        // One record per RPI heard: scans split where the sender rotated its identifier.
        var i = 0
        // Heard scans are in time order: the period of each next one is found by stepping on.
        var k = rotation.periodIndex(at: midnight + Int64(heard[0].secondOfDay))
        while i < heard.count {
            // Rotations are at least 10 minutes apart, so each period has its own EN interval.
            k = rotation.periodIndex(at: midnight + Int64(heard[i].secondOfDay), from: k)
            let period = rotation.period(k), rotationStart = period.lowerBound
            let first = i
            while i < heard.count && midnight + Int64(heard[i].secondOfDay) < period.upperBound { i += 1 }
            // The sender numbers the RPI by its own clock at the rotation (exact clocks: the rotation's interval).
            let own = day.fleet.clockOffsets.isEmpty ? ENIntervalNumber(unixTime: rotationStart)
                : day.fleet.interval(phone: sender, at: rotationStart)
            let advertKey = UInt64(sender) << 32 | UInt64(own.rawValue)
            let ad: (identifier: RollingProximityIdentifier, metadata: AssociatedEncryptedMetadata)
            if let cached = adverts.cached(key: advertKey) { ad = cached } else {
                ad = day.fleet.advertisement(phone: sender, interval: own, txPower: day.radios.txPower(sender), deriver: deriver)
                adverts.store(ad, key: advertKey)
            }
            batch.add(receiver: Int32(receiver), identifier: ad.identifier, metadata: ad.metadata.rawValue,
                      scans: UnsafeBufferPointer(rebasing: heard[first..<i]))
        }
    }

    /// The receiver's scan schedule of the day.
    private func scanSchedule(of receiver: Int) -> ScanSchedule {
        let p = day.model.parameters
        guard p.androidScanIntervalRandomRangeSeconds > 0, day.radios.isAndroid(receiver) else {
            return ScanSchedule(family: scanFamily, phone: receiver, dayIndex: day.dayIndex, midnight: day.midnight,
                                period: p.scanPeriodSeconds, stream: scratch)
        }
        return ScanSchedule(jitterFamily: jitterFamily, phone: receiver, dayIndex: day.dayIndex, midnight: day.midnight,
                            period: p.scanPeriodSeconds, randomRange: p.androidScanIntervalRandomRangeSeconds, stream: scratch)
    }
}

/// Room for the most scans one direction of a contact can hear, reused for every contact: the
/// recorder's scans go straight into it as the store keeps them.
private final class StoredScanBuffer {
    let base: UnsafeMutablePointer<StoredScan>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
}

/// Stores each heard scan in a `StoredScanBuffer` (seconds since the day's midnight).
private struct StoredScanSink: HeardScanSink {
    let base: UnsafeMutablePointer<StoredScan>
    let capacity: Int
    let midnight: SimTime
    private(set) var count = 0

    init(base: UnsafeMutablePointer<StoredScan>, capacity: Int, midnight: SimTime) {
        (self.base, self.capacity, self.midnight) = (base, capacity, midnight)
    }

    @inline(__always)
    mutating func hear(_ h: HeardScan) {
        precondition(count < capacity, "a contact's scans fit in a day")
        (base + count).initialize(to: StoredScan(secondOfDay: UInt32(h.time - midnight), typicalAttenuation: h.typicalAttenuation,
                                                 minimumAttenuation: h.minimumAttenuation, secondsSinceLastScan: h.secondsSinceLastScan))
        count += 1
    }
}
