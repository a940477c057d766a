import EventEngine
import GSL
@testable import P6Phones
@testable import Simulation
import Testing

@Suite struct P6PhoneModelTests {
    let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)

    @Test func defaultsAreIOSMuchLowerThanAndroid() {
        let p = P6TransmitParameters()
        #expect(p.iosShare == 0.10 && p.androidShare == 0.80 && p.meanSessionSeconds == 600)
        #expect(p.iosShare < p.androidShare)
    }

    @Test func epochsArePureFunctionsOfSeedPhoneAndDay() {
        let s = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let a = P6PhoneModel.epoch(seed: 3, phone: 7, midnight: midnight, stream: s)
        #expect(a == P6PhoneModel.epoch(seed: 3, phone: 7, midnight: midnight, stream: s))
        #expect(a.start == midnight && a.duration == 86_400 && a.sliceCount == 1440)
        #expect(a != P6PhoneModel.epoch(seed: 3, phone: 8, midnight: midnight, stream: s))
        #expect(a != P6PhoneModel.epoch(seed: 3, phone: 7, midnight: midnight + SimDuration.day, stream: s))
    }

    /// Time transmitting over many phone-days agrees with the share (95% CI of the mean daily share).
    @Test func transmitShareIsHonoured() {
        let s = RandomStream(seed: 0, stream: "x", generator: .taus2)
        for share in [0.10, 0.80] {
            var daily = RunningStatistics()
            for phone in 0..<400 {
                let sessions = P6PhoneModel.transmitSessions(seed: 5, phone: phone, midnight: midnight, share: share,
                                                             meanSessionSeconds: 600, stream: s)
                #expect(zip(sessions, sessions.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
                #expect(sessions.allSatisfy { $0.lowerBound >= midnight && $0.upperBound <= midnight + SimDuration.day })
                daily.add(Double(sessions.reduce(0) { $0 + $1.count }) / 86_400)
            }
            let ci = daily.meanConfidenceInterval(confidence: 0.999)
            #expect(ci.lower < share && share < ci.upper, "share \(share): \(ci)")
        }
    }
}
