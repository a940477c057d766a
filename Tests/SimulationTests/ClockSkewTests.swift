import EventEngine
import GAEN
import GSL
@testable import HealthBackend
@testable import Simulation
@testable import SimulationCore
@testable import World
import Testing

/// Phones whose clocks are off (`radio.clock_skew`): RPIs numbered and keys rolled by the
/// sender's clock, sightings timestamped by the receiver's, matched within GAEN's ±2 h.
@Suite struct ClockSkewTests {
    @Test func offsetsAreDrawnOncePerPhoneAndClipped() {
        let owners = (0..<2_000).map { Int32($0 * 3) }
        let a = PhoneFleet(seed: 7, owners: owners, clockSkewSDMinutes: 60, clockSkewMaxMinutes: 120)
        let b = PhoneFleet(seed: 7, owners: Array(owners.prefix(500)), clockSkewSDMinutes: 60, clockSkewMaxMinutes: 120)
        #expect(a.clockOffsets.count == 2_000 && a.clockOffsets.allSatisfy { abs($0) <= 7_200 })
        // A phone's offset is its own draw: the same whatever the fleet's size.
        #expect(Array(a.clockOffsets.prefix(500)) == b.clockOffsets)
        // Normal(0, 60 min) clipped at 2 sd: about 4.6% at the clip, sd a little under 60 min.
        let sd = Statistics.standardDeviation(a.clockOffsets.map { Double($0) / 60 })
        #expect(sd > 50 && sd < 60)
        let clipped = a.clockOffsets.filter { abs($0) == 7_200 }.count
        #expect(clipped > 50 && clipped < 140)
        #expect(PhoneFleet(seed: 7, owners: owners).clockOffsets.isEmpty)
    }

    /// A clock ahead past midnight broadcasts the next day's key, as a real phone would.
    @Test func anIntervalOfAnotherDayUsesThatDaysKey() throws {
        let fleet = PhoneFleet(seed: 3, owners: [0, 1], clockSkewSDMinutes: 30)
        let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)
        fleet.rollKeys(midnight: midnight, threads: 1)
        let deriver = try BatchRPIDeriver(capacity: 1)
        let next = ENIntervalNumber(unixTime: midnight + SimDuration.day + 600)
        let ad = fleet.advertisement(phone: 1, interval: next, txPower: -10, deriver: deriver)
        let stream = RandomStream(seed: 3, stream: "tek", generator: .taus2)
        let tomorrow = PhoneFleet.temporaryExposureKey(seed: 3, phone: 1, dayNumber: SimClock.dayNumber(midnight) + 1, stream: stream)
        var expected = RollingProximityIdentifier(.zero)
        withUnsafeMutablePointer(to: &expected) { pointer in
            try! deriver.derive(rpik: tomorrow.subKeys.identifierKey, firstInterval: next, into: UnsafeMutableBufferPointer(start: pointer, count: 1))
        }
        #expect(ad.identifier == expected)
        let today = fleet.advertisement(phone: 1, interval: ENIntervalNumber(unixTime: midnight + 600), txPower: -10, deriver: deriver)
        #expect(today.identifier != expected)
        #expect(fleet.interval(phone: 1, at: midnight) == ENIntervalNumber(unixTime: midnight + Int64(fleet.clockOffsets[1])))
    }

    static func config(sd: Double, max: Double = 120, threads: Int = 1) -> SimulationConfig {
        var c = PipelineRunTests.config(.cwa, people: 800, days: 4, casesPerDay: 30, threads: threads, national: 0)
        c.radio.clockSkewSDMinutes = sd
        c.radio.clockSkewMaxMinutes = max
        return c
    }

    /// Within GAEN's tolerance almost every sighting still matches; offsets far beyond it lose
    /// sightings near the keys' boundaries; and a skewed run is the same for any thread count.
    @Test func skewWithinToleranceKeepsMatchesBeyondItLosesSome() throws {
        let exact = try Simulation(config: Self.config(sd: 0)).run().summary
        let within = try Simulation(config: Self.config(sd: 30)).run().summary
        let beyond = try Simulation(config: Self.config(sd: 600, max: 600)).run().summary
        let e = try #require(exact.detection), w = try #require(within.detection), b = try #require(beyond.detection)
        #expect(e.clockSkew == nil)
        let ws = try #require(w.clockSkew), bs = try #require(b.clockSkew)
        #expect(ws.offsetMinutesMaxAbs <= 120 && bs.offsetMinutesMaxAbs > 120)
        #expect(bs.rpisOutsideTolerance > ws.rpisOutsideTolerance)
        #expect(b.matchedEncounters < e.matchedEncounters)
        // Two clocks each within ±2 h can still be 4 h apart: a few sightings fall outside.
        #expect(Double(w.matchedEncounters) > 0.97 * Double(e.matchedEncounters))
        let twoThreads = try Simulation(config: Self.config(sd: 30, threads: 2)).run().summary
        #expect(twoThreads.detection == w && twoThreads.health == within.health)
    }
}
