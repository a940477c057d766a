import Foundation
@testable import Scenario
import Simulation
import Testing
import World

/// The one-line problems a YAML text gives, as `ensim validate` prints them.
func problems(_ yaml: String) -> [String] {
    do {
        _ = try ScenarioLoader.parse(yaml: yaml, file: "s.yaml", defaultName: "s")
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

@Suite struct ScenarioValidationTests {
    @Test func emptyFileGivesAllDefaults() throws {
        let v = try ScenarioLoader.parse(yaml: "", file: "x.yaml", defaultName: "x")
        #expect(v.at("name") == .text("x"))
        #expect(v.at("seed") == .integer(1))
        #expect(v.at("days") == .integer(28))
        #expect(v.at("population.size") == .integer(10_000))
        #expect(v.at("population.app_adoption") == .number(0.4))
        #expect(v.at("outputs.hourly") == .boolean(true))
    }

    @Test func givenValuesOverrideDefaults() throws {
        let v = try ScenarioLoader.parse(yaml: "name: demo\nseed: 7\npopulation:\n  size: 1_000\n  app_adoption: 1\n", file: "x.yaml", defaultName: "x")
        #expect(v.at("name") == .text("demo"))
        #expect(v.at("population.size") == .integer(1000))
        #expect(v.at("population.app_adoption")?.doubleValue == 1)
    }

    @Test func unknownKeyNamesPathLineAndSuggestion() {
        let p = problems("population:\n  sise: 10\n")
        #expect(p == ["s.yaml:2:3: population.sise: unknown key (did you mean 'size'?); allowed keys: size, age_shares, adoption_model, app_adoption, app_adoption_by_age, ios_share, availability"])
        #expect(problems("dayz: 3\n").first?.contains("dayz: unknown key (did you mean 'days'?)") == true)
        #expect(problems("analytics:\n  foo: 1\n").first?.hasPrefix("s.yaml:2:3: analytics.foo: unknown key (did you mean 'ios'?); allowed keys: enabled, detections") == true)
    }

    @Test func wrongTypeNamesWhatIsAllowed() {
        #expect(problems("days: ten\n") == ["s.yaml:1:7: days: expected an integer from 1 to 3650 (days), got ten"])
        #expect(problems("days: 2.5\n").first?.contains("expected an integer") == true)
        #expect(problems("days: \"10\"\n").first?.contains("got \"10\"") == true)
        #expect(problems("outputs:\n  hourly: yes\n") == ["s.yaml:2:11: outputs.hourly: expected true or false, got yes"])
        #expect(problems("population: 5\n") == ["s.yaml:1:13: population: expected a block with keys size, age_shares, adoption_model, app_adoption, app_adoption_by_age, ios_share, availability, got 5"])
        #expect(problems("days: [1, 2]\n").first?.contains("got a list") == true)
        #expect(problems("days:\n").first?.contains("days: missing value") == true)
    }

    @Test func outOfRangeValues() {
        #expect(problems("population:\n  app_adoption: 1.5\n") == ["s.yaml:2:17: population.app_adoption: 1.5 is out of range; expected a number from 0 to 1 (share)"])
        #expect(problems("days: 0\n").first?.contains("0 is out of range") == true)
        #expect(problems("seed: -1\n").first?.contains("out of range") == true)
    }

    @Test func datesMustBeReal() {
        #expect(problems("start: 2021-02-29\n").first?.contains("start: expected a date YYYY-MM-DD") == true)
        #expect(problems("start: 2020-02-29\n").isEmpty)
        #expect(problems("start: 1/3/2020\n").count == 1)
    }

    @Test func crossFieldChecks() {
        let p = problems("radio:\n  rpi_rotation_min_minutes: 18\n  rpi_rotation_max_minutes: 12\n")
        #expect(p == ["s.yaml:2:3: radio: rpi_rotation_min_minutes (18) must not exceed rpi_rotation_max_minutes (12)"])
    }

    @Test func duplicateKeysAndSyntaxErrors() {
        #expect(problems("days: 3\ndays: 4\n").first?.contains("duplicate") == true)
        let syntax = problems("population:\n  size: [1, 2\n")
        #expect(syntax.count == 1)
        #expect(syntax.first?.hasPrefix("s.yaml:") == true)
        #expect(syntax.first?.contains("YAML syntax error") == true)
        #expect(syntax.first?.contains("\n") == false)
    }

    @Test func everyProblemIsReported() {
        #expect(problems("days: 0\nseed: x\nfoo: 1\n").count == 3)
    }

    @Test func missingFileIsAOneLineError() {
        do {
            _ = try ScenarioLoader.load(file: "/nonexistent/nope.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/nope.yaml: no such file; pass the path of a scenario YAML file, e.g. Scenarios/default.yaml")
        }
    }

    @Test func didYouMeanDistance() {
        #expect(DidYouMean.distance("kitten", "sitting") == 3)
        #expect(DidYouMean.suggestion(for: "popluation", among: ["population", "radio"]) == "population")
        #expect(DidYouMean.suggestion(for: "zzz", among: ["population", "radio"]) == nil)
    }
}

@Suite struct ScenarioFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func shippedScenariosAreValid() throws {
        let dir = Self.root.appendingPathComponent("Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.contains("default.yaml"))
        for file in files {
            #expect(throws: Never.self) { try ScenarioLoader.load(file: dir.appendingPathComponent(file).path) }
        }
        let studies = dir.appendingPathComponent("studies")
        for file in try FileManager.default.contentsOfDirectory(atPath: studies.path) where file.hasSuffix(".yaml") {
            #expect(throws: Never.self, "studies/\(file)") { try ScenarioLoader.load(file: studies.appendingPathComponent(file).path) }
        }
    }

    @Test func referenceIsUpToDate() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Scenarios/README.md"), encoding: .utf8)
        #expect(text == ScenarioReference.markdown(), "run: swift run ensim scenario reference > Scenarios/README.md")
    }
}

@Suite struct ScenarioSharesTests {
    @Test func sharesMustSumToOne() {
        #expect(problems("population:\n  age_shares:\n    children: 0.5\n    adults: 0.6\n    seniors: 0.2\n")
            == ["s.yaml:3:5: population.age_shares: shares must sum to 1, got 1.3 (children + adults + seniors)"])
        #expect(problems("contacts:\n  household_size_shares: {one: 1, two: 0, three: 0, four: 0, five_plus: 0}\n").isEmpty)
        #expect(problems("population:\n  adoption_model: by-age\n").first?.contains("did you mean 'by_age'") == true)
    }

    @Test func configIsBuiltFromTheResolvedScenario() throws {
        let v = try ScenarioLoader.parse(yaml: "population:\n  adoption_model: by_age\n  app_adoption_by_age: {children: 0.1, adults: 0.9, seniors: 0.2}\ncontacts:\n  class_size: 30\n",
                                         file: "s.yaml", defaultName: "s")
        let c = SimulationConfig(scenario: v, threads: 2)
        #expect(c.population.adoptionByAge == [0.1, 0.9, 0.2])
        #expect(c.contacts.classSize == 30)
        #expect(c.contacts.householdSizeShares == ContactParameters.default.householdSizeShares)
        #expect(c.threads == 2 && c.days == 28)
        #expect(c.start == 1_601_510_400)  // 2020-10-01T00:00:00Z
    }
}
