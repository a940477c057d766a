import GSL
@testable import Simulation
import Testing
@testable import World

@Suite struct PopulationTests {
    @Test func adoptionShareWithinConfidenceInterval() {
        let pop = Population(PopulationParameters(size: 50_000, appAdoption: 0.4), seed: 1)
        #expect(Proportion.clopperPearson(successes: pop.appUsers, trials: 50_000, confidence: 0.999).contains(0.4))
        #expect(pop.owners == pop.owners.sorted())
        for (phone, person) in pop.owners.enumerated() { #expect(pop.phoneOf[Int(person)] == Int32(phone)) }
    }

    @Test func adoptionByAgeGroup() {
        let pop = Population(PopulationParameters(size: 50_000, appAdoption: 0.4, adoptionByAge: [0.0, 1.0, 0.5]), seed: 2)
        var usersByAge = [0, 0, 0]
        for person in pop.owners { usersByAge[pop.age[Int(person)].rawValue] += 1 }
        #expect(usersByAge[0] == 0)
        #expect(usersByAge[1] == pop.people(in: .adult))
        #expect(Proportion.clopperPearson(successes: usersByAge[2], trials: pop.people(in: .senior), confidence: 0.999).contains(0.5))
        let ageShare = Proportion.clopperPearson(successes: pop.people(in: .child), trials: 50_000, confidence: 0.999)
        #expect(ageShare.contains(0.16))
    }

    /// A person's draws come from their own stream: growing the population keeps everyone's adoption.
    @Test func personsKeepTheirDrawsWhenThePopulationGrows() {
        let small = Population(PopulationParameters(size: 1_000, appAdoption: 0.4), seed: 3)
        let large = Population(PopulationParameters(size: 5_000, appAdoption: 0.4), seed: 3)
        #expect(Array(large.owners.prefix(while: { $0 < 1_000 })) == small.owners)
        #expect(Array(large.age.prefix(1_000)) == small.age)
    }

    @Test func availabilitySharesWithinConfidenceIntervals() {
        var p = AvailabilityParameters()
        p.bluetoothOff = 0.2
        p.uninstallPerDay = 0.01
        let a = PhoneAvailability(phones: 40_000, parameters: p, seed: 4)
        a.roll(dayIndex: 0)
        let c = a.counts
        #expect(Proportion.clopperPearson(successes: c.bluetoothOff, trials: 40_000, confidence: 0.999).contains(0.2))
        #expect(Proportion.clopperPearson(successes: c.uninstalled, trials: 40_000, confidence: 0.999).contains(0.01))
        // Uninstalling is for good.
        let before = c.uninstalled
        a.roll(dayIndex: 1)
        #expect(a.counts.uninstalled >= before)
    }

    /// Phones draw their states from their own streams: any thread count rolls the same days.
    @Test func availabilityIsTheSameWhateverTheThreads() {
        var p = AvailabilityParameters()
        p.uninstallPerDay = 0.05
        let one = PhoneAvailability(phones: 10_001, parameters: p, seed: 9)
        let three = PhoneAvailability(phones: 10_001, parameters: p, seed: 9)
        for day in 0..<3 {
            one.roll(dayIndex: day)
            three.roll(dayIndex: day, threads: 3)
            #expect(one.uninstalled == three.uninstalled && one.bluetoothOff == three.bluetoothOff, "day \(day)")
            #expect(one.phoneOff == three.phoneOff && one.forceClosed == three.forceClosed, "day \(day)")
        }
        #expect(one.counts.uninstalled > 0 && one.counts.bluetoothOff > 0)
    }
}
