import EventEngine
import Foundation
import GSL
import SimulationCore

/// Unsynchronised advertisers destroying each other's packets (pure ALOHA, no capture).
///
/// A scanner listens on one advertising channel at a time, and every advertiser sends one
/// packet on each of the three channels per advertising event, so on the scanner's channel
/// each other advertiser sends a packet every T̄ (the mean advertising interval; the random
/// advDelay keeps phones from staying in step). A wanted packet of air time τ is lost when
/// another packet on its channel starts less than τ before or after it: a vulnerable window
/// of 2τ. With N other advertisers at independent phases,
///
///     P(lost) = 1 − exp(−2·N·τ / T̄)
///
/// (the Poisson limit of 1 − (1 − 2τ/T̄)^N). The three channels do not dilute the load,
/// since everyone uses all three. Without capture any overlap loses the packet, so losses are
/// an upper bound; with it (`captureThresholdDB`) a packet survives overlaps whose summed power
/// is that far below its own.
package struct AdvertCollisionModel: Sendable {
    /// 2τ / T̄: the loss exponent per other advertiser.
    package let exponentPerAdvertiser: Double
    package let advertisersPerContact: Double
    /// Set with the capture effect: the wanted-to-interferer ratio a packet needs (dB).
    package let captureThresholdDB: Double?
    /// Phones transmitting P6 count as two advertisers while they do.
    package let dualProtocol: Bool

    package init(_ p: RadioParameters) {
        let meanIntervalSeconds = (p.advertIntervalMinMs + p.advertIntervalMaxMs) / 2 / 1000
        exponentPerAdvertiser = 2 * p.advertAirtimeMicroseconds * 1e-6 / meanIntervalSeconds
        advertisersPerContact = p.advertisersPerContact
        captureThresholdDB = p.captureEnabled ? p.captureThresholdDB : nil
        dualProtocol = p.dualProtocolAdvertisers
    }

    /// Mean number of packets overlapping one advert among `advertisers` others (λ of the Poisson count).
    @inline(__always)
    package func overlaps(advertisers: Double) -> Double { advertisers * exponentPerAdvertiser }

    /// Loss with capture when every interferer arrives `gapDB` weaker than the wanted packet, without
    /// fading: k overlapping packets (Poisson, mean λ) sum to k times one, so the packet survives
    /// while 10·log10(k) ≤ gap − threshold. The closed form the tests hold the channel to.
    package static func captureLoss(overlaps lambda: Double, gapDB: Double, thresholdDB: Double) -> Double {
        guard gapDB >= thresholdDB else { return -expm1(-lambda) }
        let survivable = Int((pow(10, (gapDB - thresholdDB) / 10) + 1e-9).rounded(.down))
        var term = exp(-lambda), kept = term
        if survivable > 0 { for k in 1...survivable { term *= lambda / Double(k); kept += term } }
        return max(0, 1 - kept)
    }

    /// Other advertisers a receiver hears when it is in contact with `contacts` other app phones.
    @inline(__always)
    package func advertisers(contacts: Int) -> Double { Double(contacts) * advertisersPerContact }

    /// Probability that one advert is lost among `advertisers` others.
    @inline(__always)
    package func lossProbability(advertisers: Double) -> Double { advertisers > 0 ? -expm1(-advertisers * exponentPerAdvertiser) : 0 }
}

/// Who advertises near whom on one day: for every app phone, the spans of its contacts with
/// another app phone that advertises, in seconds of the day. The local density of a receiver
/// at a time is the number of such contacts going on then: ENSim's contacts have no places,
/// so the receiver's own concurrent contacts stand for everyone in radio range.
package struct AdvertiserPresence: Sendable {
    package struct Span: Sendable, Equatable {
        package var start: Int32
        package var end: Int32
        package var other: Int32
        /// Mean attenuation of the other phone's adverts at this phone over the span (dB), kept
        /// for the capture effect (0 without it).
        package var attenuation: Float = 0
    }

    /// `spans[offsets[p] ..< offsets[p + 1]]` are phone p's, in the order they were recorded.
    private let offsets: [Int32]
    private let spans: [Span]

    /// - Parameter entries: (receiver, span) pairs of the day, in any order.
    package init(phones: Int, entries: [(phone: Int32, span: Span)]) {
        var offsets = [Int32](repeating: 0, count: phones + 1)
        for e in entries { offsets[Int(e.phone) + 1] += 1 }
        for p in 0..<phones { offsets[p + 1] += offsets[p] }
        var next = offsets
        var spans = [Span](repeating: Span(start: 0, end: 0, other: 0), count: entries.count)
        for e in entries {
            spans[Int(next[Int(e.phone)])] = e.span
            next[Int(e.phone)] += 1
        }
        self.offsets = offsets
        self.spans = spans
    }

    /// Contacts of `receiver` with advertising app phones other than `sender` at `second` of the day.
    /// The count does not depend on the spans' order, so neither on the shards that recorded them.
    /// - Complexity: O(the receiver's contacts that day).
    @inline(__always)
    package func others(of receiver: Int, at second: Int32, excluding sender: Int) -> Int {
        var n = 0
        for i in Int(offsets[receiver])..<Int(offsets[receiver + 1]) {
            let s = spans[i]
            if s.start <= second && second < s.end && Int(s.other) != sender { n += 1 }
        }
        return n
    }

    /// The spans `others` counts, into `into` (emptied first), in recorded order.
    package func concurrent(of receiver: Int, at second: Int32, excluding sender: Int, into: inout [Span]) {
        into.removeAll(keepingCapacity: true)
        for i in Int(offsets[receiver])..<Int(offsets[receiver + 1]) {
            let s = spans[i]
            if s.start <= second && second < s.end && Int(s.other) != sender { into.append(s) }
        }
    }
}

/// Phones sending a second protocol's adverts beside GAEN's (P6 sessions), for the density count.
package protocol SecondProtocolAdvertisers: AnyObject, Sendable {
    func transmits(_ phone: Int, at t: SimTime) -> Bool
}

/// Records the day's advertiser presence from the contact phase (a pass before the radio's).
package final class AdvertiserPresenceRecording: AppContactObserver {
    private let phones: Int
    private let midnight: SimTime
    private let availability: PhoneAvailability
    /// Set for the capture effect: spans then follow the contact's segments and carry the
    /// attenuation of the other phone's adverts, from the radio's own keyed draws.
    private let radio: RadioDay?
    private var shards = ShardResults<PresenceRecorder>(count: 0)
    package private(set) var presence: AdvertiserPresence

    package init(phones: Int, midnight: SimTime, availability: PhoneAvailability, attenuationsFrom radio: RadioDay? = nil) {
        self.phones = phones
        self.midnight = midnight
        self.availability = availability
        self.radio = radio
        presence = AdvertiserPresence(phones: phones, entries: [])
    }

    package func beginShards(_ count: Int) { shards = ShardResults(count: count) }

    package func recorder(shard index: Int) -> any AppContactRecorder {
        let r = PresenceRecorder(midnight: midnight, availability: availability, radio: radio)
        shards.set(index, r)
        return r
    }

    package func endShards() {
        presence = AdvertiserPresence(phones: phones, entries: shards.all.flatMap(\.entries))
        shards = ShardResults(count: 0)
    }
}

/// One shard's presence: both directions of each contact whose other end advertises.
package final class PresenceRecorder: AppContactRecorder, @unchecked Sendable {
    private let midnight: SimTime
    private let availability: PhoneAvailability
    private let radio: RadioDay?
    private let stream: RandomStream
    private let radioFamily: StreamFamily
    private let reciprocalFamily: StreamFamily
    package private(set) var entries: [(phone: Int32, span: AdvertiserPresence.Span)] = []

    init(midnight: SimTime, availability: PhoneAvailability, radio: RadioDay?) {
        self.midnight = midnight
        self.availability = availability
        self.radio = radio
        let seed = radio?.seed ?? 0
        stream = RandomStream(seed: seed, stream: "radio", generator: .taus2)
        radioFamily = StreamFamily(seed: seed, stream: "radio")
        reciprocalFamily = RadioDay.reciprocalFamily(seed: seed)
    }

    package func record(_ contact: ContactView, phoneA: Int, phoneB: Int, key: UInt64) {
        // The radio hears A → B under key << 1 and B → A under key << 1 | 1.
        if availability.exchangesBeacons(phoneB) { add(contact, receiver: phoneA, sender: phoneB, directionKey: key << 1 | 1) }
        if availability.exchangesBeacons(phoneA) { add(contact, receiver: phoneB, sender: phoneA, directionKey: key << 1) }
    }

    private func add(_ contact: ContactView, receiver: Int, sender: Int, directionKey: UInt64) {
        var start = Int32(contact.start - midnight)
        guard let radio else {
            entries.append((Int32(receiver), AdvertiserPresence.Span(start: start, end: start + contact.duration, other: Int32(sender))))
            return
        }
        // The sender's fixed losses toward this receiver are the radio's draw for that direction.
        let loss = radio.contactLoss(layer: contact.layer, calibrationError: radio.radios.error(sender) + radio.radios.error(receiver),
                                     directionKey: directionKey, stream: stream, directionFamily: radioFamily, contactFamily: reciprocalFamily)
        for segment in contact.segments {
            let end = start + Int32(segment.seconds)
            let a = radio.model.meanAttenuation(log10Metres: segment.log10Metres, layer: contact.layer, extraLoss: loss)
            entries.append((Int32(receiver), AdvertiserPresence.Span(start: start, end: end, other: Int32(sender), attenuation: Float(a))))
            start = end
        }
    }
}

/// Everything the radio needs to lose adverts to collisions on one day.
package struct CrowdDay: Sendable {
    package let presence: AdvertiserPresence
    package let model: AdvertCollisionModel
    /// With `dual_protocol_advertisers`: who sends P6 adverts beside GAEN's, and when.
    package var secondProtocol: (any SecondProtocolAdvertisers)? = nil

    package init(presence: AdvertiserPresence, model: AdvertCollisionModel, secondProtocol: (any SecondProtocolAdvertisers)? = nil) {
        self.presence = presence
        self.model = model
        self.secondProtocol = secondProtocol
    }
}
