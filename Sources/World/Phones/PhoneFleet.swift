import CPrefetch
import EventEngine
import GAEN
import GSL
import SimulationCore
import Synchronization

/// The phones running the app and their key material of the current UTC day: the
/// Temporary Exposure Key and the two keys derived from it (RPIK for identifiers, AEMK for
/// metadata), all with the real GAEN cryptography. Identifiers are derived on demand, for
/// the intervals someone actually hears, rather than 144 per phone and day.
package final class PhoneFleet {
    package let seed: UInt64
    /// Person index of each app phone, ascending.
    package let owners: [Int32]
    package private(set) var keys: [TemporaryExposureKey]
    /// Each phone's RPIK and AEMK side by side: the radio reads both for a random sender, so
    /// they share a cache line. Written only by `rollKeys`, before the day's shards read it, so
    /// reads skip Swift's dynamic exclusivity check (one per advert derived).
    @exclusivity(unchecked) private var subKeys: [SubKeyPair]
    /// The UTC day number of every phone's current key (all phones roll at the same midnight).
    @exclusivity(unchecked) private var keyDayNumber: Int64 = -1
    /// Each app phone's clock offset, seconds (phone clock − true time); empty when clocks are exact.
    package let clockOffsets: [Int32]

    /// `clockSkewSDMinutes` > 0: each phone's offset is drawn once from its own stream
    /// ("clock-skew", phone), normal, clipped to ±`clockSkewMaxMinutes`.
    package init(seed: UInt64, owners: [Int32], clockSkewSDMinutes: Double = 0, clockSkewMaxMinutes: Double = 120) {
        self.seed = seed
        self.owners = owners
        if clockSkewSDMinutes > 0 {
            let stream = RandomStream(seed: seed, stream: "clock-skew", generator: .taus2)
            let limit = clockSkewMaxMinutes * 60
            clockOffsets = owners.indices.map { phone in
                stream.reseed(StreamKey(seed: seed, stream: "clock-skew", index: UInt64(phone)))
                return Int32(min(max(stream.normal(sd: clockSkewSDMinutes * 60), -limit), limit).rounded())
            }
        } else {
            clockOffsets = []
        }
        let placeholderKey = try! TemporaryExposureKey(keyData: .zero, rollingStartIntervalNumber: ENIntervalNumber(0))
        keys = Array(repeating: placeholderKey, count: owners.count)
        subKeys = Array(repeating: SubKeyPair(identifierKey: RollingProximityIdentifierKey(keyData: .zero),
                                              metadataKey: AssociatedEncryptedMetadataKey(keyData: .zero)), count: owners.count)
    }

    private struct SubKeyPair {
        var identifierKey: RollingProximityIdentifierKey
        var metadataKey: AssociatedEncryptedMetadataKey
    }

    /// Each phone's RPIK of the current day.
    package var identifierKeys: [RollingProximityIdentifierKey] { subKeys.map(\.identifierKey) }
    /// Each phone's AEMK of the current day.
    package var metadataKeys: [AssociatedEncryptedMetadataKey] { subKeys.map(\.metadataKey) }

    package var count: Int { owners.count }

    /// Bytes held, for the memory report: the day's keys (TEK, RPIK, AEMK) and owners.
    package var bytes: Int {
        count * (MemoryLayout<TemporaryExposureKey>.stride + MemoryLayout<SubKeyPair>.stride + 4)
    }

    /// The key `phone` uses on the UTC day `dayNumber`: a pure function of (seed, phone, day),
    /// so the backend can ask for any past key. A real phone draws it from a secure generator;
    /// here it comes from a per-(phone, day) GSL stream so runs are reproducible.
    package static func temporaryExposureKey(seed: UInt64, phone: Int, dayNumber: Int64, stream: RandomStream) -> TemporaryExposureKey {
        stream.reseed(StreamKey(seed: seed, stream: "tek", index: UInt64(phone) << 32 | UInt64(dayNumber)))
        let data = Bytes16(word0: UInt64(stream.next32()) << 32 | UInt64(stream.next32()),
                           word1: UInt64(stream.next32()) << 32 | UInt64(stream.next32()))
        return try! TemporaryExposureKey(keyData: data, rollingStartIntervalNumber: ENIntervalNumber(unixTime: dayNumber * SimDuration.day))
    }

    /// Every phone rolls to the key of the UTC day starting at `midnight`, sharded over threads.
    package func rollKeys(midnight: SimTime, threads: Int) {
        let dayNumber = SimClock.dayNumber(midnight)
        let seed = self.seed
        let keys = SharedBuffer(base: self.keys.withUnsafeMutableBufferPointer { $0 })
        let pairs = SharedBuffer(base: subKeys.withUnsafeMutableBufferPointer { $0 })
        forEachShard(count: owners.count, threads: threads) { range in
            let stream = RandomStream(seed: seed, stream: "tek", generator: .taus2)
            for phone in range {
                let key = Self.temporaryExposureKey(seed: seed, phone: phone, dayNumber: dayNumber, stream: stream)
                keys.base[phone] = key
                let sub = key.subKeys
                pairs.base[phone] = SubKeyPair(identifierKey: sub.identifierKey, metadataKey: sub.metadataKey)
            }
        }
        keyDayNumber = dayNumber
    }

    /// What `phone` broadcasts during `interval` (by its own clock): its RPI and the metadata
    /// (version, calibrated Tx power) encrypted into the AEM. An interval outside the current UTC
    /// day (a skewed clock past or short of midnight) uses the key of its own day.
    /// Starts loading `phone`'s keys for a coming `advertisement`: the radio asks for the keys of
    /// a sender met at random, a cache miss that stalled 2% of a 1 M run.
    @inline(__always)
    package func prefetchKeys(of phone: Int) {
        subKeys.withUnsafeBufferPointer { ensim_prefetch($0.baseAddress! + phone) }
    }

    package func advertisement(phone: Int, interval: ENIntervalNumber, txPower: Int8, deriver: BatchRPIDeriver)
        -> (identifier: RollingProximityIdentifier, metadata: AssociatedEncryptedMetadata) {
        let day = Int64(interval.rawValue / 144)
        var (rpik, aemk) = (subKeys[phone].identifierKey, subKeys[phone].metadataKey)
        if day != keyDayNumber {
            let sub = Self.temporaryExposureKey(seed: seed, phone: phone, dayNumber: day,
                                                stream: RandomStream(seed: seed, stream: "tek", generator: .taus2)).subKeys
            (rpik, aemk) = (sub.identifierKey, sub.metadataKey)
        }
        var rpi = RollingProximityIdentifier(.zero)
        withUnsafeMutablePointer(to: &rpi) { pointer in
            try! deriver.derive(rpik: rpik, firstInterval: interval, into: UnsafeMutableBufferPointer(start: pointer, count: 1))
        }
        let aem = try! deriver.encrypt(BluetoothMetadata(transmitPowerDBm: txPower), identifier: rpi, key: aemk)
        return (rpi, aem)
    }

    /// The EN interval `phone`'s clock shows at true time `t`.
    package func interval(phone: Int, at t: SimTime) -> ENIntervalNumber {
        ENIntervalNumber(unixTime: t + (clockOffsets.isEmpty ? 0 : Int64(clockOffsets[phone])))
    }
}
