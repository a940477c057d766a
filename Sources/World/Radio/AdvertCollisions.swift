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
/// since everyone uses all three. Any overlap loses the packet: BLE receivers survive an
/// interferer 21 dB weaker (co-channel rejection), which this ignores, so losses are an upper bound.
package struct AdvertCollisionModel: Sendable {
    /// 2τ / T̄: the loss exponent per other advertiser.
    package let exponentPerAdvertiser: Double
    package let advertisersPerContact: Double

    package init(_ p: RadioParameters) {
        let meanIntervalSeconds = (p.advertIntervalMinMs + p.advertIntervalMaxMs) / 2 / 1000
        exponentPerAdvertiser = 2 * p.advertAirtimeMicroseconds * 1e-6 / meanIntervalSeconds
        advertisersPerContact = p.advertisersPerContact
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
}

/// Records the day's advertiser presence from the contact phase (a pass before the radio's).
package final class AdvertiserPresenceRecording: AppContactObserver {
    private let phones: Int
    private let midnight: SimTime
    private let availability: PhoneAvailability
    private var shards = ShardResults<PresenceRecorder>(count: 0)
    package private(set) var presence: AdvertiserPresence

    package init(phones: Int, midnight: SimTime, availability: PhoneAvailability) {
        self.phones = phones
        self.midnight = midnight
        self.availability = availability
        presence = AdvertiserPresence(phones: phones, entries: [])
    }

    package func beginShards(_ count: Int) { shards = ShardResults(count: count) }

    package func recorder(shard index: Int) -> any AppContactRecorder {
        let r = PresenceRecorder(midnight: midnight, availability: availability)
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
    package private(set) var entries: [(phone: Int32, span: AdvertiserPresence.Span)] = []

    init(midnight: SimTime, availability: PhoneAvailability) {
        self.midnight = midnight
        self.availability = availability
    }

    package func record(_ contact: ContactView, phoneA: Int, phoneB: Int, key: UInt64) {
        let start = Int32(contact.start - midnight), end = start + contact.duration
        if availability.exchangesBeacons(phoneB) {
            entries.append((Int32(phoneA), AdvertiserPresence.Span(start: start, end: end, other: Int32(phoneB))))
        }
        if availability.exchangesBeacons(phoneA) {
            entries.append((Int32(phoneB), AdvertiserPresence.Span(start: start, end: end, other: Int32(phoneA))))
        }
    }
}

/// Everything the radio needs to lose adverts to collisions on one day.
package struct CrowdDay: Sendable {
    package let presence: AdvertiserPresence
    package let model: AdvertCollisionModel
}
