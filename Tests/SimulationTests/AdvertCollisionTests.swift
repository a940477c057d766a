import EventEngine
import Foundation
import GSL
@testable import Simulation
@testable import SimulationCore
import Testing
@testable import World

/// Adverts lost to radio collisions (`radio.collisions`): the pure-ALOHA loss, the local
/// density from concurrent contacts, and runs that stay the same for any thread count.
@Suite struct AdvertCollisionTests {
    static let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)

    static func span(_ start: Int32, _ end: Int32, _ other: Int32) -> AdvertiserPresence.Span {
        AdvertiserPresence.Span(start: start, end: end, other: other)
    }

    @Test func lossIsPureAlohaOverTheMeanInterval() {
        let model = AdvertCollisionModel(RadioParameters.default)
        // 2 · 376 µs / 235 ms per advertiser.
        #expect(abs(model.exponentPerAdvertiser - 2 * 376e-6 / 0.235) < 1e-12)
        #expect(model.lossProbability(advertisers: 0) == 0)
        let expected: Double = 1 - exp(-100.0 * 2 * 376e-6 / 0.235)
        #expect(abs(model.lossProbability(advertisers: 100) - expected) < 1e-12)
        #expect(model.lossProbability(advertisers: 10) < model.lossProbability(advertisers: 11))
        var p = RadioParameters.default
        p.advertisersPerContact = 2.5
        #expect(AdvertCollisionModel(p).advertisers(contacts: 4) == 10)
    }

    @Test func densityCountsConcurrentContactsOtherThanTheSender() {
        let presence = AdvertiserPresence(phones: 4, entries: [
            (0, Self.span(100, 200, 1)), (2, Self.span(0, 50, 0)), (0, Self.span(150, 300, 2)), (0, Self.span(180, 181, 3)),
            (0, Self.span(100, 400, 1)),
        ])
        #expect(presence.others(of: 0, at: 99, excluding: 1) == 0)
        #expect(presence.others(of: 0, at: 160, excluding: 1) == 1)
        #expect(presence.others(of: 0, at: 180, excluding: 2) == 3)
        #expect(presence.others(of: 0, at: 181, excluding: 9) == 3)
        #expect(presence.others(of: 0, at: 300, excluding: 2) == 1)
        #expect(presence.others(of: 2, at: 10, excluding: 3) == 1)
        #expect(presence.others(of: 1, at: 150, excluding: 0) == 0)
        #expect(presence.others(of: 3, at: 150, excluding: 0) == 0)
    }

    static func channel(receiverContacts: Int, perContact: Double = 1) -> CrowdedChannel {
        var p = RadioParameters.default
        p.advertisersPerContact = perContact
        let entries = (0..<receiverContacts).map { (phone: Int32(0), span: Self.span(0, 86_400, Int32($0 + 2))) }
        let crowd = CrowdDay(presence: AdvertiserPresence(phones: receiverContacts + 2, entries: entries), model: AdvertCollisionModel(p))
        let channel = CrowdedChannel(crowd: crowd, seed: 5, midnight: midnight, streamName: "radio-collision")
        channel.begin(key: 42, sender: 1, receiver: 0)
        return channel
    }

    /// With no other advertiser the crowded window is the channel's own, draw for draw.
    @Test func aloneTheWindowIsTheChannelsOwnDrawForDraw() {
        let model = ChannelModel(.default)
        let crowd = Self.channel(receiverContacts: 0)
        let a = RandomStream(seed: 9, stream: "w", generator: .taus2), b = RandomStream(seed: 9, stream: "w", generator: .taus2)
        for mean in stride(from: 40.0, through: 110, by: 0.5) {
            let crowded = crowd.window(at: Self.midnight + 600, mean: mean, adverts: 17, model: model, stream: a).map { [$0.typical, $0.minimum] }
            let alone = ContactRadio.window(mean: mean, adverts: 17, model: model, stream: b).map { [$0.typical, $0.minimum] }
            #expect(crowded == alone)
            #expect(a.uniform() == b.uniform())
        }
        #expect(crowd.tally.advertsLost.allSatisfy { $0 == 0 } && crowd.tally.windows[0] > 0)
    }

    /// Adverts the channel delivers are lost at the model's rate, in the receiver's density band.
    @Test(arguments: [(3, 1.0), (20, 1.0), (50, 4.0)])
    func lostAdvertsFollowTheModel(contacts: Int, perContact: Double) {
        let model = ChannelModel(.default)
        let crowd = Self.channel(receiverContacts: contacts, perContact: perContact)
        let stream = RandomStream(seed: 3, stream: "w", generator: .taus2)
        // 30 dB: 4 σ of fading below the certain-reception bound, so the channel delivers every advert.
        for i in 0..<4_000 { _ = crowd.window(at: Self.midnight + Int64(i), mean: 30, adverts: 17, model: model, stream: stream) }
        let t = crowd.tally
        #expect(t.windows.count == contacts + 1 && t.windows[contacts] == 4_000 && t.adverts[contacts] == 68_000)
        #expect(t.windows.reduce(0, +) == 4_000)
        let expected = AdvertCollisionModel(.default).lossProbability(advertisers: Double(contacts) * perContact)
        let observed = Proportion.clopperPearson(successes: Int(t.advertsLost[contacts]), trials: 68_000, confidence: 0.999)
        #expect(observed.lower <= expected && expected <= observed.upper)
        // A window is lost only when all its 17 adverts are: (expected)^17.
        #expect(Double(t.windowsLost[contacts]) <= 4_000 * pow(expected, 17) * 10 + 3)
        // The summary's band holds them, with the model's expectation beside the observed loss.
        var p = RadioParameters.default
        p.advertisersPerContact = perContact
        let band = CollisionSummary(t, parameters: p).byDensity[DensityBand.of(Double(contacts) * perContact)]
        #expect(band.scanWindows == 4_000 && abs(band.expectedAdvertLoss - expected) < 1e-12)
        #expect(band.meanAdvertisers == Double(contacts) * perContact && band.advertLoss.successes == Int(t.advertsLost[contacts]))
    }

    static func config(collisions: Bool, perContact: Double = 1, threads: Int = 1) -> SimulationConfig {
        var c = PipelineRunTests.config(.cwa, people: 800, days: 3, casesPerDay: 30, threads: threads, national: 0)
        c.contacts.transportShare = 0.6
        c.contacts.transportContactsPerTrip = 30
        c.radio.collisionsEnabled = collisions
        c.radio.advertisersPerContact = perContact
        return c
    }

    /// Collisions take adverts and scan instances, the same for 1 and 3 threads; with no
    /// advertiser counted they take nothing and every other figure is that of a run without them.
    @Test func collisionsLoseAdvertsTheSameForAnyThreadCount() throws {
        let off = try Simulation(config: Self.config(collisions: false)).run().summary
        let on = try Simulation(config: Self.config(collisions: true, perContact: 20)).run().summary
        let threeThreads = try Simulation(config: Self.config(collisions: true, perContact: 20, threads: 3)).run().summary
        #expect(off.radio == nil)
        let c = try #require(on.radio?.collisions)
        #expect(c.advertsLost > 0 && c.advertsLost < c.advertsDelivered)
        #expect(c.byDensity.count == DensityBand.lowerBounds.count && c.byDensity[0].advertLoss.successes == 0)
        #expect(on.scanInstances < off.scanInstances)
        #expect(threeThreads == on)

        var zero = try Simulation(config: Self.config(collisions: true, perContact: 0)).run().summary
        #expect(zero.radio?.collisions?.advertsLost == 0 && zero.radio?.collisions?.advertsDelivered ?? 0 > 0)
        zero.radio = nil
        #expect(zero == off)
    }
}

extension AdvertCollisionTests {
    static func p6Config(perContact: Double?, threads: Int = 1) -> SimulationConfig {
        var c = P6RunTests.config(p6: true, threads: threads)
        c.contacts.transportShare = 0.6
        c.contacts.transportContactsPerTrip = 30
        c.radio.collisionsEnabled = perContact != nil
        c.radio.advertisersPerContact = perContact ?? 1
        return c
    }

    /// P6's iBeacons collide on the same channel: slices go unheard, the same for 1 and 3
    /// threads; with no advertiser counted P6 hears exactly what it hears without collisions.
    @Test func p6ReceptionLosesAdvertsTheSameForAnyThreadCount() throws {
        let off = try #require(try Simulation(config: Self.p6Config(perContact: nil)).run().summary.p6)
        let on = try #require(try Simulation(config: Self.p6Config(perContact: 200)).run().summary.p6)
        let three = try #require(try Simulation(config: Self.p6Config(perContact: 200, threads: 3)).run().summary.p6)
        #expect(off.collisions == nil)
        let c = try #require(on.collisions)
        #expect(c.advertsLost > 0 && c.scanWindowLoss.successes > 0)
        #expect(on.rxRecordsPerPhoneDay < off.rxRecordsPerPhoneDay)
        #expect(three == on)
        var zero = try #require(try Simulation(config: Self.p6Config(perContact: 0)).run().summary.p6)
        #expect(zero.collisions?.advertsLost == 0)
        zero.collisions = nil
        #expect(zero == off)
    }
}
