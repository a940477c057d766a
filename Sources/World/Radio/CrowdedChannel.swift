import EventEngine
import GSL
import SimulationCore

/// Adverts and scan windows lost to collisions, by the receiver's concurrent contacts at the
/// scan instant (its local density). Only adverts the channel delivered count: the question
/// is what collisions take away from what would have been heard. Integer counts only, so
/// merging shards in any grouping gives the same tally.
public struct CollisionTally: Sendable, Equatable {
    /// Indexed by the receiver's other advertising contacts: scan windows in which the channel
    /// delivered at least one advert, those of them that collisions emptied, the adverts
    /// delivered and those lost.
    public private(set) var windows: [Int64] = []
    public private(set) var windowsLost: [Int64] = []
    public private(set) var adverts: [Int64] = []
    public private(set) var advertsLost: [Int64] = []

    public init() {}

    package mutating func add(contacts n: Int, adverts delivered: Int, lost: Int) {
        grow(to: n + 1)
        windows[n] += 1
        adverts[n] += Int64(delivered)
        advertsLost[n] += Int64(lost)
        if lost == delivered { windowsLost[n] += 1 }
    }

    package mutating func add(_ o: CollisionTally) {
        grow(to: o.windows.count)
        for n in o.windows.indices {
            windows[n] += o.windows[n]
            windowsLost[n] += o.windowsLost[n]
            adverts[n] += o.adverts[n]
            advertsLost[n] += o.advertsLost[n]
        }
    }

    private mutating func grow(to count: Int) {
        guard windows.count < count else { return }
        let extra = [Int64](repeating: 0, count: count - windows.count)
        windows += extra
        windowsLost += extra
        adverts += extra
        advertsLost += extra
    }
}

/// Density bands of the summary (other advertisers heard at a scan instant).
package enum DensityBand {
    /// Lower bounds (advertisers); the last band is open.
    package static let lowerBounds: [Double] = [0, 1, 3, 6, 11, 21, 41]
    package static var names: [String] {
        lowerBounds.indices.map { i in
            i + 1 < lowerBounds.count ? "[\(Int(lowerBounds[i])), \(Int(lowerBounds[i + 1])))" : "\(Int(lowerBounds[i]))+"
        }
    }

    package static func of(_ advertisers: Double) -> Int {
        var b = 0
        while b + 1 < lowerBounds.count && advertisers >= lowerBounds[b + 1] { b += 1 }
        return b
    }
}

/// One recorder's view of the crowded channel: the day's presence, its own collision stream
/// (keyed per contact and direction, so the channel's own draws stay those of a run without
/// collisions) and its tally.
package final class CrowdedChannel: @unchecked Sendable {
    private let crowd: CrowdDay
    private let midnight: SimTime
    private let family: StreamFamily
    private let collisions: RandomStream
    private var receiver = 0
    private var sender = 0
    package private(set) var tally = CollisionTally()

    /// `streamName` separates protocols (GAEN "radio-collision", P6 its own).
    package init(crowd: CrowdDay, seed: UInt64, midnight: SimTime, streamName: String) {
        self.crowd = crowd
        self.midnight = midnight
        family = StreamFamily(seed: seed, stream: streamName)
        collisions = RandomStream(seed: seed, stream: streamName, generator: .taus2)
    }

    /// Starts one contact direction; `key` identifies it within the run.
    package func begin(key: UInt64, sender: Int, receiver: Int) {
        collisions.reseed(family, index: key)
        self.sender = sender
        self.receiver = receiver
    }

    /// `ContactRadio.window` at scan instant `t` with collisions: the channel's draws from
    /// `stream` are exactly `window`'s, and each advert the channel delivers is then lost with
    /// the collision probability of the receiver's density at `t` (a draw only when it is > 0).
    package func window(at t: SimTime, mean: Double, adverts: Int, model: ChannelModel,
                        stream: RandomStream) -> (typical: UInt8, minimum: UInt8)? {
        let sigma = model.parameters.fadingSigma
        if mean - 4 * sigma > model.neverAbove { return nil }
        let certain = mean + 4 * sigma < model.alwaysBelow
        let contacts = crowd.presence.others(of: receiver, at: Int32(t - midnight), excluding: sender)
        let lost = crowd.model.lossProbability(advertisers: crowd.model.advertisers(contacts: contacts))
        var delivered = 0
        var received = 0
        var sum = 0.0
        var minimum = Double.infinity
        for _ in 0..<adverts {
            let a = mean + stream.normal(sd: sigma)
            guard certain || model.receives(attenuation: a, draw: stream.uniform()) else { continue }
            delivered += 1
            if lost > 0 && collisions.uniform() < lost { continue }
            received += 1
            sum += a
            minimum = min(minimum, a)
        }
        if delivered > 0 { tally.add(contacts: contacts, adverts: delivered, lost: delivered - received) }
        guard received > 0 else { return nil }
        return (ChannelModel.byte(sum / Double(received)), ChannelModel.byte(minimum))
    }
}

/// summary.json's `radio.collisions`: the model's constants, what collisions took, and the loss by density band.
public struct CollisionSummary: Equatable, Sendable, Encodable {
    public struct Band: Equatable, Sendable, Encodable {
        public var advertisers: String
        public var meanAdvertisers: Double
        public var scanWindows: Int64
        public var advertLoss: ProportionSummary
        public var expectedAdvertLoss: Double
        public var scanWindowLoss: ProportionSummary

        package enum CodingKeys: String, CodingKey {
            case advertisers, meanAdvertisers = "mean_advertisers", scanWindows = "scan_windows", advertLoss = "advert_loss"
            case expectedAdvertLoss = "expected_advert_loss", scanWindowLoss = "scan_window_loss"
        }
    }

    public var advertAirtimeMicroseconds: Double
    public var advertisersPerContact: Double
    public var advertsDelivered: Int64
    public var advertsLost: Int64
    public var advertLoss: ProportionSummary
    public var scanWindowLoss: ProportionSummary
    public var byDensity: [Band]

    package init(_ t: CollisionTally, parameters p: RadioParameters) {
        let model = AdvertCollisionModel(p)
        advertAirtimeMicroseconds = p.advertAirtimeMicroseconds
        advertisersPerContact = p.advertisersPerContact
        advertsDelivered = t.adverts.reduce(0, +)
        advertsLost = t.advertsLost.reduce(0, +)
        advertLoss = ProportionSummary.wilson(Int(advertsLost), of: Int(advertsDelivered))
        scanWindowLoss = ProportionSummary.wilson(Int(t.windowsLost.reduce(0, +)), of: Int(t.windows.reduce(0, +)))
        byDensity = DensityBand.names.indices.map { b in
            let ns = t.windows.indices.filter { DensityBand.of(model.advertisers(contacts: $0)) == b }
            func total(_ x: [Int64]) -> Int64 { ns.reduce(0) { $0 + x[$1] } }
            let windows = total(t.windows), adverts = total(t.adverts)
            let advertisers = ns.reduce(0.0) { $0 + Double(t.windows[$1]) * model.advertisers(contacts: $1) }
            let expected = ns.reduce(0.0) { $0 + Double(t.adverts[$1]) * model.lossProbability(advertisers: model.advertisers(contacts: $1)) }
            return Band(advertisers: DensityBand.names[b], meanAdvertisers: windows > 0 ? advertisers / Double(windows) : 0,
                        scanWindows: windows, advertLoss: ProportionSummary.wilson(Int(total(t.advertsLost)), of: Int(adverts)),
                        expectedAdvertLoss: adverts > 0 ? expected / Double(adverts) : 0,
                        scanWindowLoss: ProportionSummary.wilson(Int(total(t.windowsLost)), of: Int(windows)))
        }
    }

    package enum CodingKeys: String, CodingKey {
        case advertAirtimeMicroseconds = "advert_airtime_us", advertisersPerContact = "advertisers_per_contact"
        case advertsDelivered = "adverts_delivered", advertsLost = "adverts_lost", advertLoss = "advert_loss"
        case scanWindowLoss = "scan_window_loss", byDensity = "by_density"
    }
}
