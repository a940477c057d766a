import EventEngine
import GAEN
import GSL
@testable import Simulation
import Testing
@testable import World

@Suite struct PhoneFleetTests {
    let midnight = CivilCalendar.time(year: 2020, month: 10, day: 1)

    @Test func keysArePureFunctionsOfSeedPhoneAndDay() {
        let stream = RandomStream(seed: 0, stream: "x", generator: .taus2)
        let day = SimClock.dayNumber(midnight)
        let k1 = PhoneFleet.temporaryExposureKey(seed: 5, phone: 3, dayNumber: day, stream: stream)
        let k2 = PhoneFleet.temporaryExposureKey(seed: 5, phone: 3, dayNumber: day, stream: stream)
        #expect(k1 == k2)
        #expect(k1.rollingStartIntervalNumber == ENIntervalNumber(unixTime: midnight))
        #expect(k1.rollingPeriod == 144)
        #expect(PhoneFleet.temporaryExposureKey(seed: 5, phone: 4, dayNumber: day, stream: stream) != k1)
        #expect(PhoneFleet.temporaryExposureKey(seed: 5, phone: 3, dayNumber: day + 1, stream: stream) != k1)
        #expect(PhoneFleet.temporaryExposureKey(seed: 6, phone: 3, dayNumber: day, stream: stream) != k1)
    }

    /// The fleet's fast path gives what the GAEN reference path gives, and the AEM decrypts.
    @Test func advertisementsMatchTheReferenceDerivation() throws {
        let fleet = PhoneFleet(seed: 7, owners: [0, 4, 9])
        fleet.rollKeys(midnight: midnight, threads: 2)
        let deriver = try BatchRPIDeriver(capacity: 1)
        for phone in 0..<3 {
            let key = fleet.keys[phone]
            #expect(key == PhoneFleet.temporaryExposureKey(seed: 7, phone: phone, dayNumber: SimClock.dayNumber(midnight),
                                                           stream: RandomStream(seed: 0, stream: "x", generator: .taus2)))
            for offset in [0, 77, 143] {
                let interval = key.rollingStartIntervalNumber.advanced(by: offset)
                let ad = fleet.advertisement(phone: phone, interval: interval, txPower: -17, deriver: deriver)
                #expect(ad.identifier == key.rollingProximityIdentifierKey.identifier(at: interval))
                let metadata = key.associatedEncryptedMetadataKey.decrypt(ad.metadata, identifier: ad.identifier)
                #expect(metadata.transmitPowerDBm == -17 && metadata.versionByte == 0x40)
            }
        }
    }

    @Test func rollingKeysDoesNotDependOnThreads() {
        let a = PhoneFleet(seed: 1, owners: Array(0..<1000))
        let b = PhoneFleet(seed: 1, owners: Array(0..<1000))
        a.rollKeys(midnight: midnight, threads: 1)
        b.rollKeys(midnight: midnight, threads: 2)
        #expect(a.keys == b.keys && a.identifierKeys == b.identifierKeys && a.metadataKeys == b.metadataKeys)
    }
}
