import EventEngine
import Foundation
import GSL
@testable import Simulation
@testable import SimulationCore
import Testing
@testable import World

/// The capture effect (`radio.collisions.capture`), phones counted once per protocol they send
/// (`dual_protocol_advertisers`) and daily.csv's collision columns.
@Suite struct AdvertCaptureTests {
    static let midnight = AdvertCollisionTests.midnight

    @Test func captureLossFormula() {
        let lambda = 0.64
        // Interferers closer to the wanted power than the threshold: every overlap loses (pure ALOHA).
        #expect(abs(AdvertCollisionModel.captureLoss(overlaps: lambda, gapDB: 10, thresholdDB: 21) - (1 - exp(-lambda))) < 1e-12)
        // At the threshold one overlapping packet is survived, two are not.
        #expect(abs(AdvertCollisionModel.captureLoss(overlaps: lambda, gapDB: 21, thresholdDB: 21) - (1 - exp(-lambda) * (1 + lambda))) < 1e-12)
        // 3 dB more (twice the margin in power) survives two.
        let two = 1 - exp(-lambda) * (1 + lambda + lambda * lambda / 2)
        #expect(abs(AdvertCollisionModel.captureLoss(overlaps: lambda, gapDB: 21 + 10 * log10(2.0), thresholdDB: 21) - two) < 1e-12)
        #expect(AdvertCollisionModel.captureLoss(overlaps: 0, gapDB: 0, thresholdDB: 21) == 0)
        var p = RadioParameters.default
        #expect(AdvertCollisionModel(p).captureThresholdDB == nil)
        p.captureEnabled = true
        #expect(AdvertCollisionModel(p).captureThresholdDB == 21)
        #expect(abs(AdvertCollisionModel(p).overlaps(advertisers: 200) - 200 * 2 * 376e-6 / 0.235) < 1e-12)
    }

    static func channel(contacts: Int, perContact: Double, interfererAttenuation: Float,
                        second: (any SecondProtocolAdvertisers)? = nil, capture: Bool = true) -> CrowdedChannel {
        var p = RadioParameters.default
        p.advertisersPerContact = perContact
        p.captureEnabled = capture
        p.dualProtocolAdvertisers = second != nil
        let entries = (0..<contacts).map {
            (phone: Int32(0), span: AdvertiserPresence.Span(start: 0, end: 86_400, other: Int32($0 + 2), attenuation: interfererAttenuation))
        }
        let crowd = CrowdDay(presence: AdvertiserPresence(phones: contacts + 2, entries: entries), model: AdvertCollisionModel(p),
                             secondProtocol: second)
        let channel = CrowdedChannel(crowd: crowd, seed: 5, midnight: midnight, streamName: "radio-collision")
        channel.begin(key: 42, sender: 1, receiver: 0)
        return channel
    }

    /// Without fading every overlapping packet arrives `gap` dB weaker than the wanted one, so the
    /// observed loss must match the closed form: pure ALOHA below the threshold, less above it.
    @Test(arguments: [10.0, 21.0, 24.0])
    func observedLossFollowsTheCaptureFormula(gap: Double) {
        var flat = RadioParameters.default
        flat.fadingSigma = 0
        let model = ChannelModel(flat)
        let crowd = Self.channel(contacts: 50, perContact: 4, interfererAttenuation: Float(30 + gap))
        let stream = RandomStream(seed: 3, stream: "w", generator: .taus2)
        for i in 0..<4_000 { _ = crowd.window(at: Self.midnight + Int64(i), mean: 30, adverts: 17, model: model, stream: stream) }
        let t = crowd.tally
        #expect(t.adverts[50] == 68_000)
        let lambda = AdvertCollisionModel(.default).overlaps(advertisers: 200)
        let expected = AdvertCollisionModel.captureLoss(overlaps: lambda, gapDB: gap, thresholdDB: 21)
        let observed = Proportion.clopperPearson(successes: Int(t.advertsLost[50]), trials: 68_000, confidence: 0.999)
        #expect(observed.lower <= expected && expected <= observed.upper)
        // Captured adverts are the overlapped ones kept: ALOHA's share minus the loss.
        let overlapped = Proportion.clopperPearson(successes: Int(t.advertsLost[50] + t.advertsCaptured[50]), trials: 68_000,
                                                   confidence: 0.999)
        #expect(overlapped.lower <= -expm1(-lambda) && -expm1(-lambda) <= overlapped.upper)
        if gap < 21 { #expect(t.advertsCaptured[50] == 0) } else { #expect(t.advertsCaptured[50] > 0) }
    }

    final class EveryoneSendsP6: SecondProtocolAdvertisers, @unchecked Sendable {
        func transmits(_ phone: Int, at t: SimTime) -> Bool { phone % 2 == 0 }
    }

    /// A phone sending P6 beside GAEN is two advertisers while it does.
    @Test func dualProtocolPhonesCountTwice() {
        let model = ChannelModel(.default)
        // Others are phones 2...11: five of them (the even ones) also send P6.
        let crowd = Self.channel(contacts: 10, perContact: 1, interfererAttenuation: 60, second: EveryoneSendsP6(), capture: false)
        _ = crowd.window(at: Self.midnight + 5, mean: 30, adverts: 17, model: model, stream: RandomStream(seed: 1, stream: "w", generator: .taus2))
        #expect(crowd.tally.windows.count == 16 && crowd.tally.windows[15] == 1)
        let single = Self.channel(contacts: 10, perContact: 1, interfererAttenuation: 60, capture: false)
        _ = single.window(at: Self.midnight + 5, mean: 30, adverts: 17, model: model, stream: RandomStream(seed: 1, stream: "w", generator: .taus2))
        #expect(single.tally.windows.count == 11 && single.tally.windows[10] == 1)
    }

    static func config(capture: Bool, threads: Int = 1) -> SimulationConfig {
        var c = AdvertCollisionTests.config(collisions: true, perContact: 20, threads: threads)
        c.radio.captureEnabled = capture
        return c
    }

    /// Capture keeps adverts collisions took, never the channel's own draws, the same for 1 and 3
    /// threads; daily.csv's collision columns add up to the summary's totals.
    @Test func captureKeepsAdvertsTheSameForAnyThreadCount() throws {
        let without = try Simulation(config: Self.config(capture: false)).run()
        let with = try Simulation(config: Self.config(capture: true)).run()
        let three = try Simulation(config: Self.config(capture: true, threads: 3)).run()
        let a = try #require(without.summary.radio?.collisions), b = try #require(with.summary.radio?.collisions)
        #expect(a.advertsDelivered == b.advertsDelivered)
        #expect(b.advertsLost < a.advertsLost && (b.advertsCaptured ?? 0) > 0 && a.advertsCaptured == nil && a.captureThresholdDB == nil)
        // Capture keeps a share of what ALOHA overlapped: overlapped = lost + captured, close to the run without.
        let overlapped = Double(b.advertsLost + b.advertsCaptured!)
        #expect(abs(overlapped - Double(a.advertsLost)) < 5 * Double(a.advertsLost).squareRoot() + 1)
        #expect(three.summary == with.summary && three.daily == with.daily)

        func total(_ r: SimulationResults, _ column: String) -> Int64 {
            r.daily.column(column).reduce(0) { if case .integer(let v) = $1 { $0 + v } else { $0 } }
        }
        #expect(with.daily.columns.suffix(2) == ["adverts_delivered", "adverts_lost"])
        #expect(total(with, "adverts_delivered") == b.advertsDelivered && total(with, "adverts_lost") == b.advertsLost)
        let off = try Simulation(config: AdvertCollisionTests.config(collisions: false)).run()
        #expect(!off.daily.columns.contains("adverts_lost"))
    }

    static func p6Config(dual: Bool, threads: Int = 1) -> SimulationConfig {
        var c = AdvertCollisionTests.p6Config(perContact: 20, threads: threads)
        c.radio.dualProtocolAdvertisers = dual
        c.radio.captureEnabled = true
        return c
    }

    /// With P6 running, phones in a P6 session are two advertisers: GAEN loses more adverts, the
    /// same for 1 and 3 threads, and daily.csv has P6's columns too.
    @Test func dualProtocolRaisesTheDensity() throws {
        let single = try Simulation(config: Self.p6Config(dual: false)).run()
        let dual = try Simulation(config: Self.p6Config(dual: true)).run()
        let three = try Simulation(config: Self.p6Config(dual: true, threads: 3)).run()
        let a = try #require(single.summary.radio?.collisions), b = try #require(dual.summary.radio?.collisions)
        #expect(a.advertsDelivered == b.advertsDelivered && b.advertsLost > a.advertsLost)
        #expect(dual.summary.p6?.collisions?.advertsLost ?? 0 > single.summary.p6?.collisions?.advertsLost ?? 0)
        #expect(three.summary == dual.summary && three.daily == dual.daily)
        #expect(dual.daily.columns.suffix(4) == ["adverts_delivered", "adverts_lost", "p6_adverts_delivered", "p6_adverts_lost"])
        let p6Lost = dual.daily.column("p6_adverts_lost").reduce(Int64(0)) { if case .integer(let v) = $1 { $0 + v } else { $0 } }
        #expect(p6Lost == dual.summary.p6?.collisions?.advertsLost)
    }
}
