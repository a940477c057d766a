import EventEngine
import GAEN
import GSL
import Synchronization

/// The phones running the app: who has it, each phone's Temporary Exposure Key of the
/// day and that key's 144 Rolling Proximity Identifiers (real HKDF + AES from GAEN).
final class PhoneFleet {
    static let rpisPerKey = Int(TemporaryExposureKey.defaultRollingPeriod)

    let seed: UInt64
    /// Person index of each app phone, ascending.
    let owners: [Int32]
    private(set) var keys: [TemporaryExposureKey]
    /// Today's RPIs, `rpisPerKey` per phone, in phone order.
    private var identifiers: [RollingProximityIdentifier]

    /// Adoption: each person draws from their own stream, so who has the app does not
    /// change when the population grows or another parameter changes.
    init(seed: UInt64, populationSize: Int, adoption: Double) {
        self.seed = seed
        let draw = RandomStream(seed: seed, stream: "app-adoption", generator: .taus2)
        var owners: [Int32] = []
        owners.reserveCapacity(Int(Double(populationSize) * adoption * 1.1) + 16)
        for person in 0..<populationSize {
            draw.reseed(StreamKey(seed: seed, stream: "app-adoption", index: UInt64(person)))
            if draw.bernoulli(p: adoption) { owners.append(Int32(person)) }
        }
        self.owners = owners
        let placeholderKey = try! TemporaryExposureKey(keyData: .zero, rollingStartIntervalNumber: ENIntervalNumber(0))
        keys = Array(repeating: placeholderKey, count: owners.count)
        identifiers = Array(repeating: RollingProximityIdentifier(.zero), count: owners.count * Self.rpisPerKey)
    }

    var count: Int { owners.count }

    /// Every phone draws a new key for the UTC day starting at `midnight` and derives its
    /// RPIs, sharded over `threads` workers. Key material comes from a per-(phone, day) GSL
    /// stream so runs are reproducible; a real phone uses its secure random generator.
    func rollKeys(midnight: SimTime, threads: Int) throws {
        let start = ENIntervalNumber(unixTime: midnight)
        let day = UInt64(SimClock.dayNumber(midnight))
        let seed = self.seed
        let newKeys = SharedBuffer(base: keys.withUnsafeMutableBufferPointer { $0 })
        let rpis = SharedBuffer(base: identifiers.withUnsafeMutableBufferPointer { $0 })
        let failure = FailureBox()
        forEachShard(count: owners.count, threads: threads) { range in
            do {
                let stream = RandomStream(seed: seed, stream: "tek", generator: .taus2)
                let deriver = try BatchRPIDeriver()
                for phone in range {
                    stream.reseed(StreamKey(seed: seed, stream: "tek", index: UInt64(phone) << 32 | day))
                    let data = Bytes16(word0: UInt64(stream.next32()) << 32 | UInt64(stream.next32()),
                                       word1: UInt64(stream.next32()) << 32 | UInt64(stream.next32()))
                    let key = try TemporaryExposureKey(keyData: data, rollingStartIntervalNumber: start)
                    newKeys.base[phone] = key
                    let slice = UnsafeMutableBufferPointer(rebasing: rpis.base[(phone * Self.rpisPerKey)..<((phone + 1) * Self.rpisPerKey)])
                    try deriver.deriveAll(of: key, into: slice)
                }
            } catch {
                failure.record(error)
            }
        }
        if let error = failure.error { throw error }
    }

    /// The RPI `phone` broadcasts at time `t` of the current key's day.
    func identifier(phone: Int, at t: SimTime) -> RollingProximityIdentifier {
        let offset = Int(SimClock.enIntervalNumber(t) - Int64(keys[phone].rollingStartIntervalNumber.rawValue))
        precondition((0..<Self.rpisPerKey).contains(offset), "time outside the current key's validity")
        return identifiers[phone * Self.rpisPerKey + offset]
    }
}

/// First error thrown by any parallel shard.
final class FailureBox: Sendable {
    private let first = Mutex<(any Error)?>(nil)

    func record(_ e: any Error) {
        first.withLock { if $0 == nil { $0 = e } }
    }

    var error: (any Error)? { first.withLock { $0 } }
}
