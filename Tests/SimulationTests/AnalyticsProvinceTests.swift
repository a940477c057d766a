@testable import Analytics
import EventEngine
import GSL
@testable import HealthBackend
@testable import Simulation
import Testing

/// Province of domicile: the table, the draw and the per-province estimates.
@Suite struct AnalyticsProvinceTests {
    @Test func tableHas107UniqueCodesEachInOneOfThe21Areas() {
        let all = ItalianProvinces.all
        #expect(all.count == 107)
        #expect(Set(all.map(\.code)).count == 107)
        #expect(all.allSatisfy { $0.code.count == 2 && $0.code.allSatisfy(\.isUppercase) && $0.population > 0 })
        #expect(all.contains { $0.code == "SU" && $0.region == "sardegna" })
        let keys = Set(ItalianRegions.all.map(\.key))
        #expect(all.allSatisfy { keys.contains($0.region) })
        #expect(ItalianProvinces.byRegion.allSatisfy { !$0.isEmpty })
        #expect(ItalianProvinces.byRegion.map(\.count).reduce(0, +) == 107)
    }

    /// The provinces are ISTAT 1 January 2019 (before the census revision), the areas 1 January
    /// 2020 (after it): the revision lowered counts by up to ~3% (most in the South), so 3.5%.
    @Test func provinceSumsMatchTheAreasWithinTheCensusRevision() {
        for (r, region) in ItalianRegions.all.enumerated() {
            let sum = ItalianProvinces.byRegion[r].reduce(0) { $0 + ItalianProvinces.all[$1].population }
            let gap = Double(sum) / Double(region.population) - 1
            #expect(abs(gap) < 0.035, "\(region.key): provinces \(sum) vs area \(region.population)")
        }
    }

    @Test func phonesDrawProvincesWithinTheirAreaByPopulation() {
        let profiles = AnalyticsRun.profiles(phoneOS: Array(repeating: .android, count: 40_000), parameters: AnalyticsParameters(),
                                             seed: 3, start: AnalyticsTests.start)
        #expect(profiles.allSatisfy { $0.province >= 0 && ItalianProvinces.regionIndex[$0.province] == $0.region })
        // Roma's share of Lazio's phones follows its share of Lazio's residents.
        let lazio = ItalianRegions.all.firstIndex { $0.key == "lazio" }!
        let rm = ItalianProvinces.all.firstIndex { $0.code == "RM" }!
        let inLazio = profiles.filter { $0.region == lazio }
        let share = Double(inLazio.filter { $0.province == rm }.count) / Double(inLazio.count)
        let expected = Double(ItalianProvinces.all[rm].population)
            / Double(ItalianProvinces.byRegion[lazio].reduce(0) { $0 + ItalianProvinces.all[$1].population })
        #expect(abs(share - expected) < 0.03, "\(share) vs \(expected)")
        // Weights that are not the 21 areas: no province.
        var none = AnalyticsParameters()
        none.regionWeights = Array(repeating: 1, count: 21) + [0]
        let without = AnalyticsRun.profiles(phoneOS: Array(repeating: .android, count: 500), parameters: none, seed: 3, start: AnalyticsTests.start)
        #expect(without.allSatisfy { $0.province == -1 })
    }

    @Test func operationalInfoCarriesTheProvinceCode() {
        let rm = ItalianProvinces.all.firstIndex { $0.code == "RM" }!
        let info = OperationalInfo(os: .android, region: ItalianProvinces.regionIndex[rm], province: rm, exposurePermission: true,
                                   bluetoothActive: true, notificationPermission: true, exposureNotification: false, lastRiskyExposureDay: nil)
        #expect(String(decoding: info.encoded, as: UTF8.self).contains("\"province\":\"RM\""))
    }

    /// Province cells add up to their area's cells; the table has a row per month and province.
    @Test func provinceEstimatesAddUpToTheAreas() {
        let model = AnalyticsTests.run(phones: 3_000, days: 40) { $0.riskyExposurePerDay = 0.02 }
        let l = model.ledger
        for m in l.months.indices {
            for r in 0..<l.regions {
                let members = ItalianProvinces.byRegion[r].map { l[m, province: $0] }
                let c = l[m, r]
                #expect(members.reduce(0) { $0 + $1.workingPhoneDays } == c.workingPhoneDays)
                #expect(members.reduce(0) { $0 + $1.uploadsWithout } == c.uploadsWithout)
                #expect(members.reduce(0) { $0 + $1.notifiedPhones } == c.notifiedPhones)
                #expect(members.reduce(0) { $0 + $1.windowTests } == c.windowTests)
            }
        }
        let report = AnalyticsReport(model: model)
        #expect(report.provinceTable().rows.count == l.months.count * 107)
        let summary = report.provinceSummary()
        #expect(summary.provinces == 107)
        #expect(summary.workingAppsCICoversTruthShare > 0.5)
    }
}
