import Foundation
@testable import Scenario
import Testing
import TestSupport

/// Whatever `ensim validate` accepts must run, and what it refuses it refuses in one line:
/// one test per class of hostile input found by fuzzing (issue 17).
@Suite struct HardeningValidationTests {
    func oneLine(_ yaml: String) -> String? {
        let p = problems(yaml)
        #expect(p.count <= 1, "expected at most one problem, got \(p)")
        if let line = p.first { #expect(!line.contains("\n") && !line.contains("\r"), "multi-line message: \(line)") }
        return p.first
    }

    @Test func startOutsideTheSupportedCalendarIsRefused() {
        // Before 1970 the key history's interval numbers are negative; after 2106 P6's Unix seconds overflow.
        for date in ["1969-12-01", "1999-12-31", "2096-01-01", "2106-02-05"] {
            #expect(oneLine("start: \(date)\n") == "s.yaml:1:8: start: \(date) is out of range; expected a date YYYY-MM-DD from 2000-01-01 to 2095-12-31")
        }
        for date in ["2000-01-01", "2020-10-01", "2095-12-31"] { #expect(oneLine("start: \(date)\n") == nil) }
    }

    @Test func allRegionWeightsZeroIsRefused() {
        var yaml = "analytics:\n  enabled: true\n  phones:\n    region_population:\n"
        let regions = { () -> [String] in
            guard case .section(let fields, _)? = ScenarioSchema.fields.first(where: { $0.name == "analytics" })?.kind,
                  case .section(let phones, _)? = fields.first(where: { $0.name == "phones" })?.kind,
                  case .section(let weights, _)? = phones.first(where: { $0.name == "region_population" })?.kind else { return [] }
            return weights.map(\.name)
        }()
        #expect(regions.count == 21)  // Italy's 19 regions and 2 autonomous provinces
        for region in regions { yaml += "      \(region): 0\n" }
        #expect(oneLine(yaml)?.hasSuffix("analytics.phones.region_population: at least one region must have a positive weight") == true)
        #expect(oneLine(yaml.replacingOccurrences(of: "\(regions[3]): 0", with: "\(regions[3]): 5")) == nil)
    }

    @Test func namesStayOneFolderUnderResults() {
        let refused = ["../../somewhere", "..", ".hidden", "a/b", "a\\u0000b", "line\\nbreak", String(repeating: "x", count: 101), "", "é"]
        for name in refused {
            let line = oneLine("name: \"\(name)\"\n")
            #expect(line?.contains("name: expected a name of 1 to 100 letters, digits, '-', '_' or '.', not starting with '.'") == true,
                    "\(name) must be refused, got \(line ?? "ok")")
        }
        for name in ["default", "cwa-v2_run.3", String(repeating: "x", count: 100)] { #expect(oneLine("name: \(name)\n") == nil) }
        #expect(TextForm.sanitizedName("my scenario (copy)") == "my-scenario--copy-")
        #expect(TextForm.sanitizedName("..") == "scenario")
        #expect(TextForm.sanitizedName(".hidden") == "hidden")
    }

    @Test func aDefaultNameFromAnOddFileNameIsValid() throws {
        let dir = TestFolder.url("ensim-name")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("my scenario.yaml")
        try Data("days: 1\n".utf8).write(to: file)
        #expect(try ScenarioLoader.load(file: file.path).name == "my-scenario")
    }

    @Test func explicitTagsDoNotSmuggleTextIntoNumbers() {
        #expect(oneLine("days: !!str 3\n") == "s.yaml:1:7: days: expected an integer from 1 to 3650 (days), got a value tagged !!str (3)")
        #expect(oneLine("days: \"3\"\n") == "s.yaml:1:7: days: expected an integer from 1 to 3650 (days), got \"3\"")
        #expect(oneLine("days: !!int 3\n") == nil)
        #expect(oneLine("population:\n  app_adoption: !!str 0.5\n")?.contains("got a value tagged !!str (0.5)") == true)
    }

    @Test func duplicateKeyIsReportedAtTheRepeatWithItsFullPath() {
        let yaml = "name: a\npopulation:\n  size: 10\n  app_adoption: 0.1\n  size: 20\n"
        #expect(oneLine(yaml) == "s.yaml:5:3: population.size: duplicate key (first at line 3); each key may appear once")
        #expect(oneLine("days: 1\ndays: 2\n") == "s.yaml:2:1: days: duplicate key (first at line 1); each key may appear once")
        #expect(oneLine("radio:\n  placement_shares:\n    hand: 0.5\n    hand: 0.5\n")
                == "s.yaml:4:5: radio.placement_shares.hand: duplicate key (first at line 3); each key may appear once")
    }

    @Test func messagesNeverEchoControlCharactersOrHugeValues() {
        let escape = oneLine("days: \"\\e[31mred\"\n")
        #expect(escape == "s.yaml:1:7: days: expected an integer from 1 to 3650 (days), got \"\\u{1B}[31mred\"")
        let huge = String(repeating: "A", count: 4_000_000)
        let line = oneLine("days: \(huge)\n")
        #expect((line?.count ?? .max) < 200, "the value must not be echoed whole")
        #expect(line?.contains("(4000000 characters)") == true)
        #expect(oneLine("\"po\\npulation\": 3\n")?.hasPrefix("s.yaml:1:1: po\\u{A}pulation: unknown key") == true)
        #expect(oneLine("health:\n  cases_csv: \"a\\u0007.csv\"\n")?.contains("expected a file path of at most 1024 characters (no control characters)") == true)
        #expect(oneLine("health:\n  cases_csv: \(String(repeating: "d/", count: 600))x.csv\n")?.contains("at most 1024 characters") == true)
    }

    @Test func utf16AndBinaryFilesAreRefusedAsNotUTF8() throws {
        let dir = TestFolder.url("ensim-utf16")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, data) in [("bom.yaml", Data([0xFF, 0xFE]) + "days: 3\n".data(using: .utf16LittleEndian)!),
                             ("nobom.yaml", "days: 3\n".data(using: .utf16LittleEndian)!)] {
            let file = dir.appendingPathComponent(name)
            try data.write(to: file)
            #expect {
                _ = try ScenarioLoader.load(file: file.path)
            } throws: { error in
                "\(error)" == "\(file.path): is not UTF-8 text (it looks like UTF-16 or binary: save it as UTF-8); a scenario is a YAML file"
            }
        }
    }
}
