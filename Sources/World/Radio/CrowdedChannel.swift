import EventEngine
import Foundation
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
    /// With the capture effect: adverts that were overlapped but survived.
    public private(set) var advertsCaptured: [Int64] = []

    public init() {}

    package mutating func add(contacts n: Int, adverts delivered: Int, lost: Int, captured: Int = 0) {
        grow(to: n + 1)
        windows[n] += 1
        adverts[n] += Int64(delivered)
        advertsLost[n] += Int64(lost)
        advertsCaptured[n] += Int64(captured)
        if lost == delivered { windowsLost[n] += 1 }
    }

    package mutating func add(_ o: CollisionTally) {
        grow(to: o.windows.count)
        for n in o.windows.indices {
            windows[n] += o.windows[n]
            windowsLost[n] += o.windowsLost[n]
            adverts[n] += o.adverts[n]
            advertsLost[n] += o.advertsLost[n]
            advertsCaptured[n] += o.advertsCaptured[n]
        }
    }

    /// Adverts delivered and lost over every density.
    package var totals: (delivered: Int64, lost: Int64) { (adverts.reduce(0, +), advertsLost.reduce(0, +)) }

    private mutating func grow(to count: Int) {
        guard windows.count < count else { return }
        let extra = [Int64](repeating: 0, count: count - windows.count)
        windows += extra
        windowsLost += extra
        adverts += extra
        advertsLost += extra
        advertsCaptured += extra
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
    /// The receiver's concurrent advertisers at the current scan instant (capture), each once per
    /// protocol it sends: the interferers an overlapping packet is drawn from.
    private var concurrent: [AdvertiserPresence.Span] = []
    private var interferers: [Float] = []

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
    /// With no collision possible a window is exactly `ContactRadio.window`'s, closed form included.
    package func window(at t: SimTime, mean: Double, adverts: Int, model: ChannelModel,
                        stream: RandomStream) -> (typical: UInt8, minimum: UInt8)? {
        let sigma = model.parameters.fadingSigma
        if mean - 4 * sigma > model.neverAbove { return nil }
        let contacts = density(at: t)
        let advertisers = crowd.model.advertisers(contacts: contacts)
        let lost = crowd.model.lossProbability(advertisers: advertisers)
        if lost == 0, let window = model.closedForm.window(mean: mean, adverts: adverts, stream: stream) {
            tally.add(contacts: contacts, adverts: adverts, lost: 0, captured: 0)
            return window
        }
        let certain = mean + 4 * sigma < model.alwaysBelow
        let capture = crowd.model.captureThresholdDB
        var delivered = 0
        var received = 0
        var captured = 0
        var sum = 0.0
        var minimum = Double.infinity
        // The reception table is lent once for the window, not checked per advert.
        model.withReceptionTable { table in
            for _ in 0..<adverts {
                let a = mean + stream.normal(sd: sigma)
                guard certain || model.receives(attenuation: a, draw: stream.uniform(), table: table) else { continue }
                delivered += 1
                if lost > 0 && collisions.uniform() < lost {
                    guard let capture, survives(attenuation: a, overlaps: crowd.model.overlaps(advertisers: advertisers),
                                                threshold: capture, fadingSigma: sigma) else { continue }
                    captured += 1
                }
                received += 1
                sum += a
                minimum = min(minimum, a)
            }
        }
        if delivered > 0 { tally.add(contacts: contacts, adverts: delivered, lost: delivered - received, captured: captured) }
        guard received > 0 else { return nil }
        return (ChannelModel.byte(sum / Double(received)), ChannelModel.byte(minimum))
    }

    /// The receiver's other advertisers at `t`, in contacts (`AdvertCollisionModel.advertisers` scales
    /// them): each concurrent contact once, twice while it also sends P6 (`dual_protocol_advertisers`).
    /// With capture it also keeps their attenuations, one entry per advertiser, for `survives`.
    private func density(at t: SimTime) -> Int {
        let second = Int32(t - midnight)
        let dual = crowd.model.dualProtocol ? crowd.secondProtocol : nil
        guard crowd.model.captureThresholdDB != nil || dual != nil else {
            return crowd.presence.others(of: receiver, at: second, excluding: sender)
        }
        crowd.presence.concurrent(of: receiver, at: second, excluding: sender, into: &concurrent)
        interferers.removeAll(keepingCapacity: true)
        for s in concurrent {
            interferers.append(s.attenuation)
            if let dual, dual.transmits(Int(s.other), at: t) { interferers.append(s.attenuation) }
        }
        return interferers.count
    }

    /// Whether an advert at attenuation `a` that was overlapped survives: the number of packets
    /// overlapping it is Poisson(λ) given at least one (drawn by inversion), each from an advertiser
    /// drawn uniformly among the receiver's concurrent ones (those `advertisers_per_contact` adds stand
    /// in for them), at its mean attenuation plus its own fading; the wanted packet is kept when its
    /// power exceeds their summed power by the threshold.
    private func survives(attenuation a: Double, overlaps lambda: Double, threshold: Double, fadingSigma: Double) -> Bool {
        guard !interferers.isEmpty else { return false }
        var mass = collisions.uniform() * -expm1(-lambda)
        var k = 1, term = exp(-lambda) * lambda
        while mass > term && term > 0 {
            mass -= term
            k += 1
            term *= lambda / Double(k)
        }
        var power = 0.0
        for _ in 0..<k {
            let i = min(Int(collisions.uniform() * Double(interferers.count)), interferers.count - 1)
            power += pow(10, -(Double(interferers[i]) + collisions.normal(sd: fadingSigma)) / 10)
        }
        // Interferer power in attenuation terms: −10·log10(Σ 10^(−aᵢ/10)).
        return -10 * log10(power) >= a + threshold
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
    /// With the capture effect: its threshold and the overlapped adverts it kept.
    public var captureThresholdDB: Double?
    public var advertsCaptured: Int64?
    public var advertsDelivered: Int64
    public var advertsLost: Int64
    public var advertLoss: ProportionSummary
    public var scanWindowLoss: ProportionSummary
    public var byDensity: [Band]

    package init(_ t: CollisionTally, parameters p: RadioParameters) {
        let model = AdvertCollisionModel(p)
        advertAirtimeMicroseconds = p.advertAirtimeMicroseconds
        advertisersPerContact = p.advertisersPerContact
        captureThresholdDB = model.captureThresholdDB
        advertsCaptured = model.captureThresholdDB.map { _ in t.advertsCaptured.reduce(0, +) }
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
        case captureThresholdDB = "capture_threshold_db", advertsCaptured = "adverts_captured"
        case advertsDelivered = "adverts_delivered", advertsLost = "adverts_lost", advertLoss = "advert_loss"
        case scanWindowLoss = "scan_window_loss", byDensity = "by_density"
    }
}
